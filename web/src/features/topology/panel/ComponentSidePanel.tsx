// The side panel of /topology/{id} (spec/2 §2.6): sections Details, Catalog, Incidents (hidden
// when the incidents feature is off), Changes, Checks, Playbook runs, Teams and Insights; one open
// at a time, Details first; lists page 50 rows at a time as the panel scrolls. Snapshot and Link
// to catalog open their dialogs.
import { Camera, ChevronDown, Link2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { formatAge, formatDateTime, formatDuration } from '../../../ui/format';
import { PlaybooksMenu } from '../../playbooks/PlaybooksMenu';
import { StatusIcon } from '../../playbooks/run/RunStatus';
import { HealthDot } from '../components/HealthDot';
import { formatProperty } from '../properties';
import type { TopologyComponent } from '../types';
import { InfiniteList } from './InfiniteList';
import {
  SECTION_TITLES,
  sectionsFor,
  SOURCES,
  type CatalogLinkRow,
  type ChangeRow,
  type CheckRow,
  type IncidentRow,
  type InsightRow,
  type PlaybookRunRow,
  type SectionId,
  type TeamRow,
} from './sources';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[120px_minmax(0,1fr)] gap-2 py-1 text-[13px]">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words text-foreground">{children}</dd>
    </div>
  );
}

function Details({ component: c }: { component: TopologyComponent }) {
  const labels = Object.entries(c.labels ?? {});
  return (
    <dl data-testid="panel-details">
      <Field label="Name">{c.name}</Field>
      {c.type && <Field label="Type">{c.type}</Field>}
      <Field label="Health">
        <span className="inline-flex items-center gap-1.5">
          <HealthDot health={c.health} /> {c.health}
        </span>
      </Field>
      {c.status && <Field label="Status">{c.status}</Field>}
      {c.status_reason && <Field label="Reason">{c.status_reason}</Field>}
      {c.text && <Field label="Description">{c.text}</Field>}
      {c.owner && <Field label="Owner">{c.owner}</Field>}
      {c.external_id && <Field label="External ID">{c.external_id}</Field>}
      {labels.length > 0 && (
        <Field label="Labels">
          <span className="flex flex-wrap gap-1">
            {labels.map(([k, v]) => (
              <Badge key={k}>
                {k}={v}
              </Badge>
            ))}
          </span>
        </Field>
      )}
      {(c.properties ?? []).map((p) => (
        <Field key={p.name} label={p.label ?? p.name}>
          {formatProperty(p) || '—'}
        </Field>
      ))}
      {c.topology_id && (
        <Field label="Topology">
          <Link to={`/settings/topologies/${c.topology_id}`} className="text-primary hover:underline">
            Definition
          </Link>
        </Field>
      )}
      <Field label="Created">{formatDateTime(c.created_at)}</Field>
      <Field label="Updated">{formatDateTime(c.updated_at)}</Field>
    </dl>
  );
}

const rowLink = 'min-w-0 truncate font-medium text-foreground hover:underline';

function SectionBody({
  section,
  component,
  onLinkConfig,
  canLinkConfig,
}: {
  section: SectionId;
  component: TopologyComponent;
  onLinkConfig(): void;
  canLinkConfig: boolean;
}) {
  const id = component.id;
  switch (section) {
    case 'details':
      return <Details component={component} />;
    case 'catalog':
      return (
        <div>
          {canLinkConfig && (
            <Button variant="outline" size="sm" className="mb-1" onClick={onLinkConfig}>
              <Link2 className="size-3.5" /> Link to catalog
            </Button>
          )}
          <InfiniteList<CatalogLinkRow>
            componentId={id}
            source={SOURCES.catalog}
            empty="No catalog items are linked to this component."
            rowKey={(r, i) => `${r.config_id ?? 'selector'}-${r.selector_id}-${i}`}
            render={(r) =>
              r.config ? (
                <div className="flex items-center gap-2 text-[13px]">
                  <HealthDot health={r.config.health} />
                  <Link to={`/catalog/${r.config.id}`} className={rowLink}>
                    {r.config.name ?? r.config.id}
                  </Link>
                  <span className="ml-auto shrink-0 text-[12px] text-muted">{r.config.type}</span>
                </div>
              ) : (
                <span className="text-[13px] text-muted">Selector {r.selector_id} (not resolved yet)</span>
              )
            }
          />
        </div>
      );
    case 'incidents':
      return (
        <InfiniteList<IncidentRow>
          componentId={id}
          source={SOURCES.incidents}
          empty="There are no incidents for this component."
          rowKey={(r) => r.id}
          render={(r) => (
            <div className="flex items-center gap-2 text-[13px]">
              <span className="shrink-0 text-[12px] text-muted">{r.incident_id}</span>
              <Link to={`/incidents/${r.id}`} className={rowLink}>
                {r.title}
              </Link>
              <span className="ml-auto flex shrink-0 gap-1">
                <Badge tone={r.severity === 'critical' || r.severity === 'high' ? 'danger' : 'neutral'}>
                  {r.severity}
                </Badge>
                <Badge>{r.status}</Badge>
              </span>
            </div>
          )}
        />
      );
    case 'changes':
      return (
        <InfiniteList<ChangeRow>
          componentId={id}
          source={SOURCES.changes}
          empty="No changelog found"
          rowKey={(r) => r.id}
          render={(r) => (
            <div className="text-[13px]">
              <div className="flex items-center gap-2">
                <span className="font-medium">{r.change_type}</span>
                <Link to={`/catalog/${r.config_id}/changes`} className="min-w-0 truncate text-muted hover:underline">
                  {r.name ?? r.config_id}
                </Link>
                <span className="ml-auto shrink-0 text-[12px] text-subtle" title={formatDateTime(r.created_at)}>
                  {formatAge(r.created_at)}
                </span>
              </div>
              {r.summary && <p className="mt-0.5 truncate text-[12px] text-muted">{r.summary}</p>}
            </div>
          )}
        />
      );
    case 'checks':
      return (
        <InfiniteList<CheckRow>
          componentId={id}
          source={SOURCES.checks}
          empty="No health checks are linked to this component."
          rowKey={(r) => r.id}
          render={(r) => (
            <div className="flex items-center gap-2 text-[13px]" data-testid="panel-check">
              <HealthDot health={r.status ?? 'unknown'} />
              <Link to={`/health?${new URLSearchParams({ checkId: r.id })}`} className={rowLink}>
                {r.name}
              </Link>
              <span className="ml-auto shrink-0 text-[12px] text-muted">{r.type}</span>
            </div>
          )}
        />
      );
    case 'playbook_runs':
      return (
        <div>
          <div className="mb-1">
            <PlaybooksMenu resource={{ component_id: id, label: component.name }} />
          </div>
          <InfiniteList<PlaybookRunRow>
            componentId={id}
            source={SOURCES.playbook_runs}
            empty="No playbook runs"
            rowKey={(r) => r.id}
            render={(r) => (
              <div className="flex items-center gap-2 text-[13px]" data-testid="panel-playbook-run">
                <StatusIcon status={r.status} />
                <Link to={`/playbooks/runs/${r.id}`} className={rowLink}>
                  {r.playbooks.title || r.playbooks.name}
                </Link>
                <span className="ml-auto shrink-0 text-[12px] text-muted tabular-nums">
                  {formatDuration(r.duration_ms)}
                </span>
                <span className="shrink-0 text-[12px] text-subtle" title={formatDateTime(r.start_time ?? r.created_at)}>
                  {formatAge(r.start_time ?? r.created_at)}
                </span>
              </div>
            )}
          />
        </div>
      );
    case 'teams':
      return (
        <InfiniteList<TeamRow>
          componentId={id}
          source={SOURCES.teams}
          empty="No teams own this component."
          rowKey={(r) => r.team_id}
          render={(r) => (
            <Link to={`/settings/teams/${r.team_id}`} className={cn(rowLink, 'text-[13px]')}>
              {r.team?.name ?? r.team_id}
            </Link>
          )}
        />
      );
    case 'insights':
      return (
        <InfiniteList<InsightRow>
          componentId={id}
          source={SOURCES.insights}
          empty="There are no insights for this component."
          rowKey={(r) => r.id}
          render={(r) => (
            <div className="text-[13px]">
              <div className="flex items-center gap-2">
                <span className="font-medium">{r.analyzer}</span>
                {r.severity && (
                  <Badge tone={r.severity === 'critical' || r.severity === 'high' ? 'danger' : 'warning'}>
                    {r.severity}
                  </Badge>
                )}
                {r.config && (
                  <Link
                    to={`/catalog/${r.config.id}/insights`}
                    className="ml-auto min-w-0 truncate text-muted hover:underline"
                  >
                    {r.config.name ?? r.config.id}
                  </Link>
                )}
              </div>
              {r.message && <p className="mt-0.5 line-clamp-2 text-[12px] text-muted">{r.message}</p>}
            </div>
          )}
        />
      );
  }
}

export function ComponentSidePanel({
  component,
  incidentsEnabled,
  canLinkConfig,
  onSnapshot,
  onLinkConfig,
}: {
  component: TopologyComponent;
  incidentsEnabled: boolean;
  canLinkConfig: boolean;
  onSnapshot(): void;
  onLinkConfig(): void;
}) {
  const [open, setOpen] = useState<SectionId>('details');
  const sections = sectionsFor(incidentsEnabled);
  return (
    <aside
      aria-label="Component details"
      data-testid="component-panel"
      className="flex max-h-[calc(100vh-8rem)] flex-col overflow-hidden rounded-lg border border-border bg-surface shadow-card lg:sticky lg:top-4"
    >
      <div className="flex items-center gap-2 border-b border-border px-4 py-3">
        <HealthDot health={component.health} />
        <h2 className="min-w-0 flex-1 truncate text-[14px] font-semibold">{component.name}</h2>
        <Button variant="outline" size="sm" onClick={onSnapshot}>
          <Camera className="size-3.5" /> Snapshot
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto" data-panel-scroll>
        {sections.map((s) => {
          const expanded = open === s;
          return (
            <section key={s} className="border-b border-border last:border-b-0" data-testid={`panel-section-${s}`}>
              <h3>
                <button
                  type="button"
                  aria-expanded={expanded}
                  onClick={() => setOpen(s)}
                  className="flex w-full cursor-pointer items-center justify-between px-4 py-2.5 text-left text-[13px] font-semibold hover:bg-surface-hover"
                >
                  {SECTION_TITLES[s]}
                  <ChevronDown
                    className={cn('size-4 text-subtle transition-transform', expanded && 'rotate-180')}
                    aria-hidden
                  />
                </button>
              </h3>
              {expanded && (
                <div className="px-4 pb-3">
                  <SectionBody
                    section={s}
                    component={component}
                    canLinkConfig={canLinkConfig}
                    onLinkConfig={onLinkConfig}
                  />
                </div>
              )}
            </section>
          );
        })}
      </div>
    </aside>
  );
}
