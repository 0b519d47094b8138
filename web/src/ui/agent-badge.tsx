// The badge of a row that came from an agent: the agent's name (docs/api.md "Agents"). Local rows
// (no agent, or the all-zero agent id) have no badge.
import { Server } from 'lucide-react';
import { Badge } from './badge';
import { cn } from './cn';

export function AgentBadge({
  name,
  deleted,
  className,
}: {
  /** The agent's name; nothing is shown without one. */
  name: string | null | undefined;
  /** The agent was deleted: its data stays, marked as such. */
  deleted?: boolean;
  className?: string;
}) {
  if (!name) return null;
  const title = deleted ? `From agent ${name} (deleted)` : `From agent ${name}`;
  return (
    <span data-testid="agent-badge" title={title} className={cn('inline-flex shrink-0', className)}>
      <Badge tone={deleted ? 'neutral' : 'primary'} className={deleted ? 'line-through' : undefined}>
        <Server className="size-3" aria-hidden />
        {name}
      </Badge>
    </span>
  );
}
