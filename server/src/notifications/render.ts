// Renders one notification: the rule's `title` and `template` (Go templates) over the row's
// body_payload, or good defaults per event kind when the rule gives none; a group leader's message
// names every member. Pure: no database, no clock. Markdown body, HTML for email, the firing/resolved
// state and the dedup key PagerDuty and Opsgenie use to close what they opened.
import { renderTemplate } from '../expr/index.js';
import { escapeHtml, markdownToHtml } from './senders/markdown.js';
import type { NotificationMessage } from './senders/sender.js';

/** The template environment the consumer stores in body_payload (see README.md). */
export type Payload = Record<string, unknown> & {
  event?: { name?: string; properties?: Record<string, unknown> };
  permalink?: string;
  flapping?: 'flapping' | 'settled';
};

export interface RenderRule {
  id: string;
  title: string | null;
  template: string | null;
  events: string[];
  properties: Record<string, string> | null;
}

/** The parts of a send-history row rendering reads. */
export interface RenderRow {
  source_event: string;
  resource_id: string | null;
  resource_type: string | null;
  resource: Record<string, unknown> | null;
  body_payload: Payload | null;
  dedup_key: string | null;
}

export interface GroupMember {
  name: string;
  status?: string;
}

export type RenderedMessage = Omit<NotificationMessage, 'properties'>;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;

/** The event's resource in the environment (check, component, config, incident, playbook). */
function subject(row: RenderRow, env: Payload): Obj {
  const kind = row.source_event.split('.')[0]!;
  return obj(env[kind]) ?? obj(row.resource) ?? {};
}

export function resourceName(row: RenderRow): string {
  const env = row.body_payload ?? {};
  const s = subject(row, env);
  return str(s.name) ?? str(s.title) ?? str(row.resource?.name) ?? row.resource_id ?? 'resource';
}

/** What the event says happened, after the resource's name: "has failed", "is unhealthy", "was created". */
function happened(event: string): string {
  const parts = event.split('.');
  const last = parts[parts.length - 1]!;
  if (event === 'check.failed') return 'has failed';
  if (event === 'check.passed') return 'has passed';
  if (['created', 'updated', 'deleted'].includes(last) && parts[0] === 'config') return `was ${last}`;
  if (event === 'incident.created') return 'was opened';
  if (parts[0] === 'incident' && parts[1] === 'status') return `is ${last}`;
  if (event === 'playbook.approval.inserted') return 'is waiting for approval';
  if (event === 'playbook.spec.approval.updated') return 'approval was updated';
  if (parts[0] === 'playbook' && parts[1] === 'run') return `run ${last}`;
  return `is ${last}`;
}

const KIND_LABEL: Record<string, string> = {
  check: 'Check',
  component: 'Component',
  config: 'Config',
  incident: 'Incident',
  playbook: 'Playbook',
};

/** The default title as a Go template, e.g. "Check {{.check.name}} has failed". */
export function defaultTitleTemplate(event: string, flapping?: string): string {
  const kind = event.split('.')[0]!;
  const label = KIND_LABEL[kind] ?? kind;
  const name =
    kind === 'config'
      ? '{{.config.type}} {{.config.name}}'
      : kind === 'incident'
        ? 'Incident {{.incident.incident_id}} ({{.incident.title}})'
        : `${label} {{.${kind}.name}}`;
  if (flapping === 'flapping') return `${name} is flapping`;
  if (flapping === 'settled') return `${name} has settled`;
  return `${name} ${happened(event)}`;
}

function labelsLine(labels: unknown): string | undefined {
  const entries = Object.entries(obj(labels) ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== '');
  if (!entries.length) return undefined;
  return `**Labels:** ${entries.map(([k, v]) => `\`${k}=${String(v)}\``).join(' ')}`;
}

/** The default Markdown body: what failed and why, labels, and the link back to the console. */
export function defaultBody(row: RenderRow, env: Payload): string {
  const kind = row.source_event.split('.')[0]!;
  const s = subject(row, env);
  const props = obj(env.event?.properties) ?? {};
  const lines: (string | undefined)[] = [];
  const field = (label: string, value: unknown) => {
    const v = str(value);
    if (v) lines.push(`**${label}:** ${v}`);
  };
  if (env.flapping === 'flapping') lines.push('It keeps changing state; further changes are held until it settles.');
  if (kind === 'check') {
    const canary = obj(env.canary);
    if (canary) field('Canary', str(canary.namespace) ? `${str(canary.name)} (${str(canary.namespace)})` : canary.name);
    field('Type', s.type);
    field('Error', props.error ?? s.error);
    field('Message', props.message ?? s.message);
    field('Description', s.description);
  } else if (kind === 'component') {
    field('Type', s.type);
    field('Health', s.health);
    field('Status', str(s.status_reason) ? `${str(s.status)} — ${str(s.status_reason)}` : s.status);
  } else if (kind === 'config') {
    field('Type', s.type);
    field('Health', s.health);
    field('Status', s.status);
    field('Description', s.description);
  } else if (kind === 'incident') {
    field('Severity', s.severity);
    field('Status', s.status);
    field('Description', s.description);
  } else if (kind === 'playbook') {
    const run = obj(env.run);
    field('Status', run?.status ?? props.status);
    field('Error', run?.error ?? props.error);
  }
  const agent = obj(env.agent);
  if (agent && str(agent.name) && agent.name !== 'local') field('Agent', agent.name);
  lines.push(labelsLine(s.labels ?? row.resource?.labels));
  const tags = obj(s.tags);
  if (tags && Object.keys(tags).length) lines.push(labelsLine(tags)?.replace('**Labels:**', '**Tags:**'));
  if (env.permalink) lines.push('', `[View ${(KIND_LABEL[kind] ?? kind).toLowerCase()} in Opsdeck](${env.permalink})`);
  return lines.filter((l) => l !== undefined).join('\n');
}

const PLURAL: Record<string, string> = {
  check: 'checks',
  component: 'components',
  config: 'configs',
  incident: 'incidents',
  playbook: 'playbooks',
};

/** "3 checks of payments failed: a, b, c" for a group leader and its members. */
function groupTitle(row: RenderRow, env: Payload, names: string[]): string {
  const kind = row.source_event.split('.')[0]!;
  const of = kind === 'check' ? str(obj(env.component)?.name) : undefined;
  const verb = happened(row.source_event).replace(/^has /, '').replace(/^is /, 'are ').replace(/^was /, 'were ');
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? '…' : '');
  return `${names.length} ${PLURAL[kind] ?? `${kind}s`}${of ? ` of ${of}` : ''} ${verb}: ${shown}`;
}

function groupList(members: { name: string; status?: string }[]): string {
  return [
    `**Grouped with this notification (${members.length}):**`,
    ...members.map((m) => `- ${m.name}${m.status ? ` — ${m.status}` : ''}`),
  ].join('\n');
}

/** A whole HTML mail: the title as heading, the body below, plain styling mail clients keep. */
export function htmlDocument(title: string, markdownBody: string): string {
  const t = escapeHtml(title);
  return [
    `<!doctype html><html><head><meta charset="utf-8"><title>${t}</title></head>`,
    '<body style="font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; font-size: 14px; color: #1f2328;">',
    `<h2 style="font-size: 18px; margin: 0 0 12px;">${t}</h2>`,
    markdownToHtml(markdownBody),
    '</body></html>',
  ].join('\n');
}

const GOOD = /^(check\.passed|(component|config)\.healthy|incident\.status\.(resolved|closed|cancelled))$/;
const BAD = /^(check\.failed|(component|config)\.(unhealthy|warning)|incident\.(created|status\.open))$/;

/**
 * A recovery event closes what the same rule's failure event opened (PagerDuty resolve, Opsgenie
 * close): `resolved` when the rule also sends a failure event of that resource kind.
 */
export function messageState(event: string, ruleEvents: string[]): 'firing' | 'resolved' {
  if (!GOOD.test(event)) return 'firing';
  const kind = event.split('.')[0];
  return ruleEvents.some((e) => e.split('.')[0] === kind && BAD.test(e)) ? 'resolved' : 'firing';
}

function severityOf(row: RenderRow, env: Payload): NotificationMessage['severity'] {
  const event = row.source_event;
  if (GOOD.test(event)) return 'info';
  const s = subject(row, env);
  const declared = str(s.severity)?.toLowerCase();
  if (declared === 'critical' || declared === 'blocker') return 'critical';
  if (declared === 'high') return 'error';
  if (declared === 'medium' || declared === 'low' || declared === 'warning') return 'warning';
  if (declared === 'info') return 'info';
  if (event.endsWith('.warning')) return 'warning';
  if (BAD.test(event) || event === 'playbook.run.failed') return 'error';
  return 'info';
}

/**
 * Renders a row for sending. `members` are the rows grouped under this leader (empty otherwise).
 * Throws an ExpressionError when the rule's title or template does not render.
 */
export function renderMessage(rule: RenderRule, row: RenderRow, members: GroupMember[] = []): RenderedMessage {
  const payload: Payload = { ...(row.body_payload ?? {}) };
  // The raw destination may hold a token: never within a template's reach.
  delete payload.recipient;
  const grouped = members.length > 0;
  const names = [resourceName(row), ...members.map((m) => m.name)];
  const env: Payload = grouped ? { ...payload, groupedResources: names } : payload;
  let title: string;
  if (rule.title?.trim()) title = renderTemplate(rule.title, env);
  else if (grouped) title = groupTitle(row, env, names);
  else title = renderTemplate(defaultTitleTemplate(row.source_event, env.flapping), env).replace(/<no value>/g, '');
  title = title.replace(/\s+/g, ' ').trim() || row.source_event;
  let body = rule.template?.trim() ? renderTemplate(rule.template, env).trim() : defaultBody(row, env);
  if (grouped) {
    const self = { name: resourceName(row), status: str(row.resource?.status) };
    body += `\n\n${groupList([self, ...members])}`;
  }
  const kind = row.resource_type ?? row.source_event.split('.')[0]!;
  return {
    title,
    body,
    html: htmlDocument(title, body),
    permalink: str(env.permalink),
    state: messageState(row.source_event, rule.events),
    severity: severityOf(row, env),
    dedupKey: row.dedup_key ?? `${rule.id}:${row.resource_id ?? 'none'}`,
    resource: row.resource_id ? { type: kind, id: row.resource_id, name: resourceName(row) } : undefined,
  };
}
