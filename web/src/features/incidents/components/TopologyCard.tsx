// A compact topology component card (name, icon, health) linking to /topology/{id}: shown for
// topology evidence above the incident's tabs and inside the action plan.
import { Boxes } from 'lucide-react';
import { Link } from 'react-router';
import { HealthMark } from './HealthMark';

export function TopologyCard({
  component,
}: {
  component: { id: string; name: string; icon?: string | null; health?: string | null; type?: string | null };
}) {
  return (
    <Link
      to={`/topology/${component.id}`}
      className="flex min-w-48 items-center gap-3 rounded-lg border border-border bg-surface px-3 py-2 shadow-card hover:bg-surface-hover"
      data-testid="topology-card"
    >
      {component.icon && /^(https?:|\/)/.test(component.icon) ? (
        <img src={component.icon} alt="" className="size-6" />
      ) : (
        <Boxes className="size-5 text-muted" aria-hidden />
      )}
      <div className="min-w-0">
        <div className="truncate text-[13px] font-medium text-foreground">{component.name}</div>
        <HealthMark health={component.health} />
      </div>
    </Link>
  );
}
