// Notifications (spec/3 §2-§5, §9; FORMATS.md Notification, NotificationSilence): the Notification and
// NotificationSilence resources as mission-control writes them, the events a rule may name, send
// statuses, and the duration fields stored in nanoseconds. Shared by the server (apply, /api/db guard)
// and the console's forms, so both refuse the same input with the same words.
import { z } from 'zod';

/** The events a rule may name (spec/3 §9, plus the incident and playbook events the engines emit). */
export const NOTIFICATION_EVENTS = [
  'check.failed',
  'check.passed',
  'component.healthy',
  'component.unhealthy',
  'component.unknown',
  'component.warning',
  'config.created',
  'config.deleted',
  'config.healthy',
  'config.unhealthy',
  'config.unknown',
  'config.updated',
  'config.warning',
  'incident.created',
  'incident.status.open',
  'incident.status.mitigated',
  'incident.status.resolved',
  'incident.status.closed',
  'incident.status.cancelled',
  'playbook.approval.inserted',
  'playbook.spec.approval.updated',
  'playbook.run.completed',
  'playbook.run.failed',
  'playbook.run.cancelled',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export function isNotificationEvent(name: string): name is NotificationEvent {
  return (NOTIFICATION_EVENTS as readonly string[]).includes(name);
}

/** The kind of resource an event is about: the part of its name before the first dot. */
export function eventResourceType(
  event: string,
): 'check' | 'component' | 'config' | 'incident' | 'playbook' | undefined {
  const kind = event.split('.')[0];
  return kind === 'check' || kind === 'component' || kind === 'config' || kind === 'incident' || kind === 'playbook'
    ? kind
    : undefined;
}

/** notification_send_history.status (spec/3 §4; FORMATS.md adds inhibited and grouped). */
export const SEND_STATUSES = [
  'sent',
  'error',
  'pending',
  'cancelled',
  'repeated',
  'silenced',
  'inhibited',
  'grouped',
] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];
export const SEND_STATUS_LABELS: Record<SendStatus, string> = {
  sent: 'Sent',
  error: 'Error',
  pending: 'Pending',
  cancelled: 'Cancelled',
  repeated: 'Repeated',
  silenced: 'Silenced',
  inhibited: 'Inhibited',
  grouped: 'Grouped',
};
/** Send history filter by resource type (spec/3 §2). */
export const SEND_RESOURCE_TYPES = ['canary', 'check', 'component', 'config'] as const;

// Durations: "90s", "5m", "1h30m", "1d", "1w", "1mo" (30 days); stored as nanoseconds.
const NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
  d: 86_400e9,
  w: 604_800e9,
  mo: 2_592_000e9,
  y: 31_536_000e9,
};
const DURATION = /^(\d+(?:\.\d+)?(?:ns|us|µs|ms|mo|s|m|h|d|w|y))+$/;

/** Nanoseconds of a duration text ("0" is zero, as in Go); undefined when it is not one. */
export function parseDurationNs(text: string): number | undefined {
  const t = text.trim().replace(/µs/g, 'us');
  if (t === '0') return 0;
  if (!DURATION.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(ns|us|ms|mo|s|m|h|d|w|y)/g)) total += Number(m[1]) * NS[m[2]!]!;
  return Math.round(total);
}

/** The shortest text of a duration in nanoseconds: 3600e9 → "1h", 5400e9 → "1h30m". */
export function formatDurationNs(ns: number): string {
  if (ns <= 0) return '0s';
  const parts: string[] = [];
  let rest = ns;
  for (const unit of ['w', 'd', 'h', 'm', 's'] as const) {
    const size = NS[unit]!;
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest >= 1e6) parts.push(`${Math.floor(rest / 1e6)}ms`);
  return parts.join('') || `${ns}ns`;
}

export const MIN_NOTIFICATION_DURATION_NS = 60e9;
export const DURATION_TOO_SHORT = 'Duration must be greater than 1 minute';
/** spec/3 §5. */
export const WAIT_FOR_CHOICES = ['3m', '5m', '10m', '15m', '30m', '1h', '4h', '8h', '1d', '3d', '7d'] as const;
/** spec/3 §5; "1m" is one month here (the list ascends, and a repeat under a minute is refused). */
export const REPEAT_INTERVAL_CHOICES = [
  { label: '1h', value: '1h' },
  { label: '2h', value: '2h' },
  { label: '3h', value: '3h' },
  { label: '6h', value: '6h' },
  { label: '1d', value: '1d' },
  { label: '1w', value: '1w' },
  { label: '1m', value: '1mo' },
] as const;

/** The duration-field rule (spec/3 §5): a message, or undefined when the value is fine. */
export function durationFieldError(text: string | undefined, required = false): string | undefined {
  if (text === undefined || text.trim() === '') return required ? 'This field is required' : undefined;
  const ns = parseDurationNs(text);
  if (ns === undefined) return `"${text}" is not a duration (e.g. 5m, 1h, 1d)`;
  if (ns < MIN_NOTIFICATION_DURATION_NS) return DURATION_TOO_SHORT;
  return undefined;
}

const NOT_A_DURATION = 'must be a duration such as 5m, 1h or 1d';
const duration = z.string().refine((v) => parseDurationNs(v) !== undefined, { message: NOT_A_DURATION });
/** One message per value: not a duration, or under a minute. */
const minuteOrMore = z.string().superRefine((v, ctx) => {
  const ns = parseDurationNs(v);
  if (ns === undefined) ctx.addIssue({ code: 'custom', message: NOT_A_DURATION });
  else if (ns < MIN_NOTIFICATION_DURATION_NS) ctx.addIssue({ code: 'custom', message: DURATION_TOO_SHORT });
});

/** The kinds of recipient a rule names (`to`, `fallback`), one per rule. */
export const RECIPIENT_KINDS = ['person', 'team', 'email', 'connection', 'url', 'playbook'] as const;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];

/** The recipient kinds set in a `to` (empty strings do not count). */
export function recipientKinds(to: Partial<Record<RecipientKind, unknown>>): RecipientKind[] {
  return RECIPIENT_KINDS.filter((k) => to[k] !== undefined && to[k] !== null && to[k] !== '');
}

/** Property values as written (strings, numbers or booleans), kept as strings. */
const textMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String));

const recipientFields = {
  person: z.string().optional(),
  team: z.string().optional(),
  email: z.string().optional(),
  connection: z.string().optional(),
  url: z.string().optional(),
  playbook: z.string().optional(),
  properties: textMap.optional(),
};

/** A recipient: exactly one kind (mission-control resolves only the first; naming two is a mistake). */
function checkOneRecipient(to: Partial<Record<RecipientKind, unknown>>, ctx: z.RefinementCtx): void {
  const kinds = recipientKinds(to);
  if (kinds.length === 0)
    ctx.addIssue({ code: 'custom', message: 'needs one recipient: person, team, email, connection, url or playbook' });
  else if (kinds.length > 1)
    ctx.addIssue({ code: 'custom', message: `give one recipient, not ${kinds.join(' and ')}` });
}

export const recipientSchema = z.looseObject(recipientFields).superRefine(checkOneRecipient);
export type Recipient = z.infer<typeof recipientSchema>;

/** A resource type or several: mission-control writes `from` as one type, Opsdeck accepts a list too. */
const typeList = z.union([
  z
    .string()
    .min(1)
    .transform((t) => [t]),
  z.array(z.string().min(1)),
]);

export const inhibitionSchema = z.looseObject({
  direction: z.enum(['outgoing', 'incoming', 'all']).default('all'),
  depth: z.number().int().min(0).max(10).optional(),
  soft: z.boolean().optional(),
  from: typeList.refine((l) => l.length > 0, 'from names at least one resource type'),
  to: typeList.refine((l) => l.length > 0, 'to names at least one resource type'),
});
export type Inhibition = z.infer<typeof inhibitionSchema>;

/** mission-control writes the fallback recipient inline next to `delay`; `to: {...}` is read too. */
export const fallbackSchema = z
  .looseObject({ ...recipientFields, to: z.looseObject(recipientFields).optional(), delay: duration.optional() })
  .superRefine((f, ctx) => {
    if (f.to && recipientKinds(f).length)
      ctx.addIssue({ code: 'custom', message: 'give the fallback recipient inline or under to, not both' });
    else checkOneRecipient(f.to ?? f, ctx);
  });

/** The fallback's recipient, wherever it was written. */
export function fallbackRecipient(f: z.infer<typeof fallbackSchema>): Recipient {
  const { to, delay: _delay, ...inline } = f;
  return (to ?? inline) as Recipient;
}

/** A Notification resource's spec (mission-control.flanksource.com/v1, field names unchanged). */
export const notificationSpecSchema = z.looseObject({
  events: z
    .array(z.string())
    .min(1, 'events is required')
    .superRefine((events, ctx) => {
      events.forEach((e, i) => {
        if (!isNotificationEvent(e))
          ctx.addIssue({
            code: 'custom',
            path: [i],
            message: `unknown event "${e}" (one of ${NOTIFICATION_EVENTS.join(', ')})`,
          });
      });
    }),
  title: z.string().optional(),
  template: z.string().optional(),
  filter: z.string().optional(),
  to: recipientSchema,
  repeatInterval: minuteOrMore.optional(),
  waitFor: duration.optional(),
  waitForEvalPeriod: duration.optional(),
  groupBy: z.array(z.string()).optional(),
  groupByInterval: duration.optional(),
  /** mission-control's name for inhibitions; `inhibitions` is read too. */
  inhibit: z.array(inhibitionSchema).optional(),
  inhibitions: z.array(inhibitionSchema).optional(),
  fallback: fallbackSchema.optional(),
  /** Flap damping (Opsdeck): more than `flaps` state changes within `window` send one "flapping" message. */
  flapping: z.looseObject({ flaps: z.number().int().min(2).optional(), window: duration.optional() }).optional(),
});
export type NotificationSpec = z.infer<typeof notificationSpecSchema>;

/** The id columns a silence may name; one at most (spec/3 §5: choosing one kind clears the others). */
export const SILENCE_RESOURCE_FIELDS = ['check_id', 'canary_id', 'component_id', 'config_id'] as const;

/**
 * A silence's time: RFC3339 or a date-time ("2025-06-01 20:00"), "now", "now+2h" / "now-30m", or a
 * bare duration counted from `base` ("2h" after from). undefined when it is none of these.
 */
export function parseSilenceTime(text: string, now: Date, base: Date = now): Date | undefined {
  const t = text.trim();
  if (t === 'now') return new Date(now);
  const relative = /^now\s*([+-])\s*(.+)$/.exec(t);
  if (relative) {
    const ns = parseDurationNs(relative[2]!);
    return ns === undefined ? undefined : new Date(now.getTime() + (relative[1] === '-' ? -1 : 1) * (ns / 1e6));
  }
  const ns = parseDurationNs(t);
  if (ns !== undefined) return new Date(base.getTime() + ns / 1e6);
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(t)) return undefined;
  const ms = Date.parse(t.replace(' ', 'T'));
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

const NOT_A_TIME = 'is not a time (RFC3339 such as 2025-06-01T20:00:00Z, or now+2h)';
const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** A NotificationSilence resource's spec: one resource, a namespace, selectors or a filter; from/until. */
export const silenceSpecSchema = z
  .looseObject({
    description: z.string().optional(),
    from: z.string().optional(),
    until: z.string().optional(),
    duration: duration.optional(),
    recursive: z.boolean().optional(),
    filter: z.string().optional(),
    namespace: z.string().optional(),
    config_id: z.string().optional(),
    check_id: z.string().optional(),
    canary_id: z.string().optional(),
    component_id: z.string().optional(),
    selectors: z.array(z.looseObject({})).optional(),
  })
  .superRefine((s, ctx) => {
    const ids = SILENCE_RESOURCE_FIELDS.filter((k) => present(s[k]));
    if (ids.length > 1)
      ctx.addIssue({ code: 'custom', path: [ids[1]!], message: `give one resource, not ${ids.join(' and ')}` });
    if (!ids.length && !['filter', 'namespace', 'selectors'].some((k) => present(s[k])))
      ctx.addIssue({
        code: 'custom',
        message: 'a silence needs a resource (check, canary, component or config), a namespace, selectors or a filter',
      });
    if (s.until === undefined && s.duration === undefined)
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'until (or duration) is required' });
    const now = new Date();
    const from = s.from === undefined ? now : parseSilenceTime(s.from, now);
    if (!from) ctx.addIssue({ code: 'custom', path: ['from'], message: `"${s.from}" ${NOT_A_TIME}` });
    const until = s.until === undefined ? undefined : parseSilenceTime(s.until, now, from ?? now);
    if (s.until !== undefined && !until)
      ctx.addIssue({ code: 'custom', path: ['until'], message: `"${s.until}" ${NOT_A_TIME}` });
    if (from && until && until <= from)
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be after from' });
  });
export type SilenceSpec = z.infer<typeof silenceSpecSchema>;

/** A silence's from and until as times (defaults: from now; until from + duration). */
export function silenceWindow(s: SilenceSpec, now = new Date()): { from: Date; until: Date } | undefined {
  const from = s.from === undefined ? now : parseSilenceTime(s.from, now);
  if (!from) return undefined;
  const until =
    s.until !== undefined
      ? parseSilenceTime(s.until, now, from)
      : new Date(from.getTime() + (parseDurationNs(s.duration ?? '') ?? NaN) / 1e6);
  return until && !Number.isNaN(until.getTime()) ? { from, until } : undefined;
}

export interface FieldProblem {
  field: string;
  message: string;
}

const nsField = (row: Record<string, unknown>, field: string, problems: FieldProblem[]) => {
  const v = row[field];
  if (v === undefined || v === null) return;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    problems.push({ field, message: 'must be a duration in nanoseconds (a whole number)' });
  else if (n < MIN_NOTIFICATION_DURATION_NS) problems.push({ field, message: DURATION_TOO_SHORT });
};

/**
 * The rule-form checks of a notifications row (what needs no server): name, events known, the
 * nanosecond durations, exactly one recipient kind. An update is checked merged with the stored row.
 */
export function notificationRowProblems(row: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (typeof row.name !== 'string' || !row.name.trim())
    problems.push({ field: 'name', message: 'This field is required' });
  const events = row.events;
  if (!Array.isArray(events) || events.length === 0) problems.push({ field: 'events', message: 'events is required' });
  else
    for (const e of events)
      if (typeof e !== 'string' || !isNotificationEvent(e))
        problems.push({
          field: 'events',
          message: `unknown event "${String(e)}" (one of ${NOTIFICATION_EVENTS.join(', ')})`,
        });
  nsField(row, 'repeat_interval', problems);
  nsField(row, 'wait_for', problems);
  const kinds = (['person_id', 'team_id', 'custom_services'] as const).filter((k) => present(row[k]));
  if (kinds.length === 0)
    problems.push({ field: 'person_id', message: 'choose one recipient: a person, a team or another service' });
  else if (kinds.length > 1)
    problems.push({ field: kinds[1]!, message: `choose one recipient, not ${kinds.join(' and ')}` });
  const services = row.custom_services;
  if (present(services)) {
    if (!Array.isArray(services)) problems.push({ field: 'custom_services', message: 'must be a list' });
    else
      services.forEach((svc: unknown, i) => {
        const entry = (svc ?? {}) as Record<string, unknown>;
        const set = ['connection', 'url', 'email', 'playbook'].filter((k) => present(entry[k]));
        if (set.length !== 1)
          problems.push({
            field: `custom_services[${i}]`,
            message: 'needs exactly one of connection, url, email or playbook',
          });
      });
  }
  return problems;
}

/** The silence-form checks of a notification_silences row: what it silences, and until after from. */
export function silenceRowProblems(row: Record<string, unknown>, now = new Date()): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const ids = SILENCE_RESOURCE_FIELDS.filter((k) => present(row[k]));
  if (ids.length > 1) problems.push({ field: ids[1]!, message: `choose one resource, not ${ids.join(' and ')}` });
  if (!ids.length && !['namespace', 'filter', 'selectors'].some((k) => present(row[k])))
    problems.push({
      field: 'check_id',
      message: 'choose what to silence: a check, canary, component or catalog item, a namespace or a filter',
    });
  const time = (v: unknown) => (typeof v === 'string' ? parseSilenceTime(v, now) : undefined);
  const from = present(row.from) ? time(row.from) : now;
  if (!from) problems.push({ field: 'from', message: `"${String(row.from)}" ${NOT_A_TIME}` });
  if (!present(row.until)) problems.push({ field: 'until', message: 'This field is required' });
  else {
    const until = typeof row.until === 'string' ? parseSilenceTime(row.until, now, from ?? now) : undefined;
    if (!until) problems.push({ field: 'until', message: `"${String(row.until)}" ${NOT_A_TIME}` });
    else if (from && until <= from) problems.push({ field: 'until', message: 'must be after from' });
  }
  return problems;
}
