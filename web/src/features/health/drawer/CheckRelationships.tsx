// The Relationships tab of the check drawer (spec/1 §2 "Check drawer"): the components
// (check_component_relationships → components) and configuration items (check_config_relationships
// → config_items) linked to the check, each row a link to /topology/{id} or /catalog/{id}, and the
// count shown on the tab. Links are made by topologies whose components select the check, by the
// catalog, or by hand ('manual' rows).
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { ChevronRight, GitFork } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../api/client';
import { EmptyState } from '../../../ui/empty-state';
import { Skeleton } from '../../../ui/skeleton';
import { CheckIcon } from '../components/CheckIcon';
import { HealthDot } from '../components/HealthDot';
import { healthApi } from '../healthApi';
import { healthKeys } from '../keys';
import type { CheckComponentLink, CheckConfigLink } from '../types';

export const NO_RELATIONSHIPS = 'No related components or configs';

export interface CheckRelationships {
  components: UseQueryResult<CheckComponentLink[]>;
  configs: UseQueryResult<CheckConfigLink[]>;
  /** Components plus configs, once both are loaded (undefined before, or after an error). */
  count: number | undefined;
}

/** Loads both kinds of links; the drawer calls it once so the tab's count and the tab agree. */
/** `enabled` false (health-only mode: no topology nor catalog) asks the server for nothing. */
export function useCheckRelationships(checkId: string, enabled = true): CheckRelationships {
  const components = useQuery({
    enabled,
    queryKey: healthKeys.relationships(checkId, 'components'),
    queryFn: ({ signal }) => healthApi.components(checkId, signal),
    meta: { silent: true }, // shown in the tab
  });
  const configs = useQuery({
    enabled,
    queryKey: healthKeys.relationships(checkId, 'configs'),
    queryFn: ({ signal }) => healthApi.configs(checkId, signal),
    meta: { silent: true },
  });
  const count = components.data && configs.data ? components.data.length + configs.data.length : undefined;
  return { components, configs, count };
}

/** The last part of a catalog type ("Kubernetes::Pod" → "pod"), for the icon. */
const typeKey = (type: string | null | undefined) => (type ?? '').split('::').pop()!.toLowerCase();

function RelationRow({
  to,
  icon,
  type,
  name,
  health,
  kind,
}: {
  to: string;
  icon: string | null;
  type: string | null;
  name: string;
  health: string | null;
  kind: string;
}) {
  return (
    <li>
      <Link
        to={to}
        className="flex items-center gap-3 px-4 py-2.5 text-[13px] hover:bg-surface-muted focus-visible:bg-surface-muted focus-visible:outline-none"
        data-testid="relationship-row"
      >
        <CheckIcon icon={icon} type={typeKey(type)} className="size-4" />
        <span className="min-w-0 flex-1 truncate font-medium text-foreground">{name}</span>
        {type && <span className="truncate text-[12px] text-muted">{type}</span>}
        <span className="inline-flex w-24 items-center gap-1.5 text-[12px] capitalize text-muted">
          <HealthDot health={health ?? 'unknown'} label={`${kind} health: ${health ?? 'unknown'}`} />
          {health ?? 'unknown'}
        </span>
        <ChevronRight className="size-3.5 shrink-0 text-subtle" aria-hidden />
      </Link>
    </li>
  );
}

function Section<T>({
  title,
  query,
  children,
}: {
  title: string;
  query: UseQueryResult<T[]>;
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isPending) return <Skeleton className="h-16" />;
  if (query.isError)
    return (
      <p className="rounded-lg border border-border px-4 py-3 text-[13px] text-danger" role="alert">
        {title}: {errorMessage(query.error)}
      </p>
    );
  if (!query.data.length) return null;
  return (
    <section className="rounded-lg border border-border bg-surface shadow-card" aria-label={title}>
      <h3 className="border-b border-border px-4 py-2 text-[12px] font-semibold uppercase tracking-wide text-subtle">
        {title} <span className="tabular-nums">({query.data.length})</span>
      </h3>
      <ul className="divide-y divide-border">{children(query.data)}</ul>
    </section>
  );
}

export function RelationshipsTab({ relationships }: { relationships: CheckRelationships }) {
  const { components, configs, count } = relationships;
  if (count === 0)
    return (
      <div className="rounded-lg border border-border bg-surface shadow-card">
        <EmptyState
          icon={GitFork}
          title={NO_RELATIONSHIPS}
          description="A component links to this check when its topology selects the check; configuration items link through the catalog."
        />
      </div>
    );
  return (
    <div className="space-y-4" data-testid="check-relationships">
      <Section title="Components" query={components}>
        {(rows) =>
          rows.map((r) => (
            <RelationRow
              key={r.component_id}
              to={`/topology/${r.components!.id}`}
              icon={r.components!.icon}
              type={r.components!.type}
              name={r.components!.name}
              health={r.components!.health}
              kind="Component"
            />
          ))
        }
      </Section>
      <Section title="Configs" query={configs}>
        {(rows) =>
          rows.map((r) => (
            <RelationRow
              key={r.config_id}
              to={`/catalog/${r.config_items!.id}`}
              icon={null}
              type={r.config_items!.type}
              name={r.config_items!.name ?? r.config_items!.id}
              health={r.config_items!.health}
              kind="Config"
            />
          ))
        }
      </Section>
    </div>
  );
}
