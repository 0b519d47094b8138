// The check drawer's header: icon, name, health, namespace and agent badges, endpoint (with a copy
// button), canary and description.
import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../../ui/badge';
import { CopyButton } from '../../../ui/copy-button';
import { CheckHealthCell } from '../components/CheckCells';
import { CheckIcon } from '../components/CheckIcon';
import { healthApi } from '../healthApi';
import { healthKeys } from '../keys';
import { LOCAL_AGENT_ID, type CheckSummary } from '../types';
import { type DrawerCheck } from './drawerCheck';

export function CheckDrawerHeader({ check }: { check: DrawerCheck }) {
  const agents = useQuery({
    queryKey: healthKeys.agents(check.agentId ? [check.agentId] : []),
    queryFn: ({ signal }) => healthApi.agentNames([check.agentId!], signal),
    enabled: !!check.agentId && check.agentId !== LOCAL_AGENT_ID,
    meta: { silent: true },
  });
  const agent =
    !check.agentId || check.agentId === LOCAL_AGENT_ID ? 'local' : (agents.data?.[check.agentId] ?? 'agent');
  return (
    <div className="flex min-w-0 items-start gap-3.5" data-testid="check-drawer-header">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg border border-border bg-surface-muted">
        <CheckIcon icon={check.icon} type={check.type} className="size-5 text-foreground" />
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="truncate text-[17px] font-semibold tracking-tight" data-testid="check-drawer-title">
            {check.name}
          </h2>
          <CheckHealthCell check={{ status: check.status } as CheckSummary} />
          {check.namespace && <Badge>{check.namespace}</Badge>}
          <Badge tone="primary">
            <span className="sr-only">Agent </span>
            {agent}
          </Badge>
        </div>
        <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-[12.5px] text-muted">
          {check.endpoint && (
            <span className="inline-flex min-w-0 items-center gap-1">
              <span className="truncate font-mono text-[12px]" title={check.endpoint} data-testid="check-endpoint">
                {check.endpoint}
              </span>
              <CopyButton value={check.endpoint} label="Copy endpoint" />
            </span>
          )}
          {check.canaryName && (
            <span>
              <span className="text-subtle">canary</span> {check.canaryName}
            </span>
          )}
          {check.description && <span className="truncate">{check.description}</span>}
        </div>
      </div>
    </div>
  );
}
