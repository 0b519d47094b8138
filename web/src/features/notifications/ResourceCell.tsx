// The resource a notification or silence is about: its type's icon and its name, linked to where
// the console shows it.
import { Activity, AlertTriangle, Boxes, Database, type LucideIcon, Radar, Workflow, CircleHelp } from 'lucide-react';
import { Link } from 'react-router';

const ICONS: Record<string, LucideIcon> = {
  check: Activity,
  canary: Radar,
  component: Boxes,
  config: Database,
  incident: AlertTriangle,
  playbook: Workflow,
  playbook_run: Workflow,
};

/** Where the console shows a resource of this type; undefined when it has no page. */
export function resourceHref(type: string | null | undefined, id: string | null | undefined): string | undefined {
  if (!id) return undefined;
  const e = encodeURIComponent(id);
  switch (type) {
    case 'check':
      return `/health?checkId=${e}`;
    case 'canary':
      return `/settings/canaries/${e}`;
    case 'component':
      return `/topology/${e}`;
    case 'config':
      return `/catalog/${e}`;
    case 'incident':
      return `/incidents/${e}`;
    case 'playbook_run':
      return `/playbooks/runs/${e}`;
    default:
      return undefined;
  }
}

export function ResourceCell({
  type,
  id,
  name,
}: {
  type: string | null | undefined;
  id: string | null | undefined;
  name: string | null | undefined;
}) {
  const Icon = (type && ICONS[type]) || CircleHelp;
  const href = resourceHref(type, id);
  const label = name || id || '';
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5" title={type ?? undefined}>
      <Icon className="size-4 shrink-0 text-muted" aria-label={type ?? 'resource'} />
      {href ? (
        <Link
          to={href}
          onClick={(e) => e.stopPropagation()}
          className="truncate font-medium text-foreground hover:text-primary hover:underline"
        >
          {label}
        </Link>
      ) : (
        <span className="truncate font-medium">{label}</span>
      )}
    </span>
  );
}
