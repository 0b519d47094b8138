// A component card (spec/2 §2.6): title (to /topology/{id}), health, status, headline properties,
// properties with CPU/memory bars, the children list that collapses behind 'show more ...', team
// avatars, and links to health, incidents, insights, Zoom In, View Logs and the snapshot.
import {
  Activity,
  AlertTriangle,
  BellOff,
  Boxes,
  Camera,
  Lightbulb,
  Link2,
  Logs,
  MoreVertical,
  ZoomIn,
} from 'lucide-react';
import { Link } from 'react-router';
import { useCan } from '../../../api/session';
import { isFromAgent } from '@opsdeck/common/agents';
import { AgentBadge } from '../../../ui/agent-badge';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../ui/menu';
import { Tooltip } from '../../../ui/tooltip';
import { silencePath } from '../../notifications';
import { bodyProperties, formatProperty, headlineProperties } from '../properties';
import { incidentsUrl, insightsUrl, logsUrl } from '../topologyParams';
import type { TopologyComponent } from '../types';
import { AvatarStack } from './AvatarStack';
import { CollapsibleList } from './CollapsibleList';
import type { AgentOption } from '../topologyApi';
import { HealthDot } from './HealthDot';
import { PropertyRow } from './PropertyRow';

export interface CardLinks {
  /** Where a component's title and Zoom In go. */
  zoomTo(id: string): string;
  logsEnabled: boolean;
  incidentsEnabled: boolean;
  onSnapshot?(component: TopologyComponent): void;
  /** Given when the user may attach evidence to incidents (and the feature is on). */
  onLinkIncident?(component: TopologyComponent): void;
  /** The agent that pushed a component, when known. */
  agent?(agentId: string): AgentOption | undefined;
}

const HEALTH_BORDER: Record<string, string> = {
  unhealthy: 'border-t-danger',
  warning: 'border-t-warning',
  healthy: 'border-t-success',
};

export function TopologyCard({
  component: c,
  width,
  links,
  selected,
  readOnly,
}: {
  component: TopologyComponent;
  width: number;
  links: CardLinks;
  selected?: boolean;
  readOnly?: boolean;
}) {
  const headline = headlineProperties(c.properties);
  const properties = bodyProperties(c.properties);
  const children = c.components ?? [];
  const checks = c.summary?.checks ?? {};
  const incidents = c.summary?.incidents ?? 0;
  const insights = c.summary?.insights ?? 0;
  const logs = logsUrl(c, links.logsEnabled);
  const zoom = links.zoomTo(c.id);
  const canSilence = useCan('notifications', 'write');

  return (
    <article
      data-testid="topology-card"
      data-component-id={c.id}
      data-health={c.health}
      aria-label={c.name}
      style={{ width }}
      className={cn(
        'flex flex-col rounded-lg border border-t-[3px] border-border bg-surface shadow-card',
        HEALTH_BORDER[c.health] ?? 'border-t-border-strong',
        selected && 'ring-2 ring-primary/40',
      )}
    >
      <header className="flex items-start gap-2.5 border-b border-border px-3 py-2.5">
        <Boxes className="mt-0.5 size-4 shrink-0 text-subtle" aria-hidden />
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-1.5">
            <HealthDot health={c.health} />
            <Link
              to={zoom}
              className="truncate text-[14px] font-semibold text-foreground hover:underline"
              data-testid="card-title"
              title={c.tooltip ?? c.name}
            >
              {c.name}
            </Link>
            {isFromAgent(c.agent_id) && <CardAgentBadge agent={links.agent?.(c.agent_id)} />}
          </div>
          <div className="mt-0.5 truncate text-[12px] text-muted">
            {[c.type, c.text].filter(Boolean).join(' · ') || '\u00a0'}
          </div>
        </div>
        {headline.length > 0 && (
          <div className="flex shrink-0 gap-3 text-right" data-testid="headline-properties">
            {headline.slice(0, 3).map((p) => (
              <div key={p.name} title={p.tooltip}>
                <div className="text-[14px] font-semibold tabular-nums text-foreground" style={{ color: p.color }}>
                  {formatProperty(p) || '—'}
                </div>
                <div className="text-[10.5px] uppercase tracking-wide text-subtle">{p.label ?? p.name}</div>
              </div>
            ))}
          </div>
        )}
        {!readOnly && (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${c.name}`} className="-mr-1.5 size-7">
                <MoreVertical className="size-4" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuItem asChild>
                <Link to={zoom}>
                  <ZoomIn className="size-4 text-muted" /> Zoom In
                </Link>
              </DropdownMenuItem>
              {logs && (
                <DropdownMenuItem asChild>
                  <Link to={logs}>
                    <Logs className="size-4 text-muted" /> View Logs
                  </Link>
                </DropdownMenuItem>
              )}
              {links.onSnapshot && (
                <DropdownMenuItem onSelect={() => links.onSnapshot?.(c)}>
                  <Camera className="size-4 text-muted" /> Snapshot
                </DropdownMenuItem>
              )}
              {links.onLinkIncident && (
                <DropdownMenuItem onSelect={() => links.onLinkIncident?.(c)}>
                  <Link2 className="size-4 text-muted" /> Link to Incident
                </DropdownMenuItem>
              )}
              {canSilence && (
                <DropdownMenuItem asChild>
                  <Link to={silencePath({ component_id: c.id }, c.name)}>
                    <BellOff className="size-4 text-muted" /> Silence
                  </Link>
                </DropdownMenuItem>
              )}
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </header>

      <div className="flex-1 space-y-2.5 px-3 py-2.5">
        {(c.status && c.status !== c.health) || c.status_reason ? (
          <p className="text-[12.5px] text-muted" data-testid="card-status">
            {c.status && c.status !== c.health && <span className="font-medium text-foreground">{c.status}</span>}
            {c.status_reason && <span> {c.status_reason}</span>}
          </p>
        ) : null}
        {properties.length > 0 && (
          <CollapsibleList label="Properties" items={properties} render={(p) => <PropertyRow property={p} />} />
        )}
        {children.length > 0 && (
          <CollapsibleList
            label="Components"
            items={children}
            render={(child) => (
              <div className="flex items-center gap-1.5 text-[12.5px]" data-testid="child-component">
                <HealthDot health={child.health} className="size-2" />
                <Link to={links.zoomTo(child.id)} className="min-w-0 flex-1 truncate hover:underline">
                  {child.name}
                </Link>
                {child.status && child.status !== child.health && (
                  <span className="shrink-0 text-[11.5px] text-subtle">{child.status}</span>
                )}
              </div>
            )}
          />
        )}
      </div>

      <footer className="flex flex-wrap items-center gap-x-2 gap-y-1.5 border-t border-border px-3 py-2 text-[12px]">
        <Tooltip content="Health checks">
          <Link
            to="/health"
            className="inline-flex items-center gap-1 text-muted hover:text-foreground"
            data-testid="card-checks"
          >
            <Activity className="size-3.5" aria-hidden />
            <span className="sr-only">Checks:</span>
            <span className="text-success tabular-nums">{checks.healthy ?? 0}</span>
            {(checks.unhealthy ?? 0) > 0 && <span className="text-danger tabular-nums">{checks.unhealthy}</span>}
            {(checks.warning ?? 0) > 0 && <span className="text-warning tabular-nums">{checks.warning}</span>}
          </Link>
        </Tooltip>
        {links.incidentsEnabled && (
          <Tooltip content="Incidents">
            <Link
              to={incidentsUrl(c.id)}
              className={cn(
                'inline-flex items-center gap-1 hover:text-foreground',
                incidents ? 'text-danger' : 'text-muted',
              )}
              data-testid="card-incidents"
            >
              <AlertTriangle className="size-3.5" aria-hidden />
              <span className="sr-only">Incidents:</span>
              <span className="tabular-nums">{incidents}</span>
            </Link>
          </Tooltip>
        )}
        <Tooltip content="Insights">
          <Link
            to={insightsUrl(c.id)}
            className={cn(
              'inline-flex items-center gap-1 hover:text-foreground',
              insights ? 'text-warning' : 'text-muted',
            )}
            data-testid="card-insights"
          >
            <Lightbulb className="size-3.5" aria-hidden />
            <span className="sr-only">Insights:</span>
            <span className="tabular-nums">{insights}</span>
          </Link>
        </Tooltip>
        <div className="ml-auto">
          <AvatarStack teams={c.teams ?? []} />
        </div>
      </footer>
    </article>
  );
}

function CardAgentBadge({ agent }: { agent: AgentOption | undefined }) {
  return <AgentBadge name={agent?.name} deleted={!!agent?.deleted_at} />;
}
