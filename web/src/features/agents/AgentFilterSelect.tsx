// The Agent filter of the health, catalog and topology screens: All, local (this instance) and each
// agent of /api/db/agents_summary. The value is an AgentFilter ('all', 'local' or an agent id).
import { useQuery } from '@tanstack/react-query';
import type { AgentFilter } from '@opsdeck/common/agents';
import { db } from '../../api/postgrest';
import { cn } from '../../ui/cn';
import { Select } from '../../ui/input';

export interface AgentOption {
  id: string;
  name: string;
}

const AGENT_OPTIONS_STALE_MS = 60_000;

/** The agents to filter by (deleted ones left out), by name. */
export function useAgentOptions() {
  return useQuery({
    queryKey: ['agents', 'options'] as const,
    queryFn: async ({ signal }) =>
      (
        await db<AgentOption>('agents_summary')
          .select('id,name')
          .is('deleted_at', null)
          .order('name')
          .limit(500)
          .list(signal)
      ).data,
    staleTime: AGENT_OPTIONS_STALE_MS,
    meta: { silent: true },
  });
}

export function AgentFilterSelect({
  value,
  onChange,
  className,
}: {
  value: AgentFilter;
  onChange(value: AgentFilter): void;
  className?: string;
}) {
  const options = useAgentOptions().data ?? [];
  const known = value === 'all' || value === 'local' || options.some((a) => a.id === value);
  return (
    <label className="flex items-center gap-2 text-[13px] text-muted">
      <span className="whitespace-nowrap">Agent</span>
      <Select
        aria-label="Agent"
        data-testid="agent-filter"
        className={cn('h-9 w-36 text-[13px]', className)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="all">All</option>
        <option value="local">local</option>
        {options.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
        {!known && <option value={value}>{value}</option>}
      </Select>
    </label>
  );
}
