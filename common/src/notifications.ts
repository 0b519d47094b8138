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
const DURATION = /^(\d+(?:\.\d+)?(?:ns|us|ms|mo|s|m|h|d|w|y))+$/;

/** Nanoseconds of a duration text; undefined when it is not one. */
export function parseDurationNs(text: string): number | undefined {
  const t = text.trim();
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

const duration = z.string().refine((v) => parseDurationNs(v) !== undefined, {
  message: 'must be a duration such as 5m, 1h or 1d',
});
const minuteOrMore = duration.refine((v) => (parseDurationNs(v) ?? 0) >= MIN_NOTIFICATION_DURATION_NS, {
  message: DURATION_TOO_SHORT,
});

/** A recipient (`to`, `fallback.to`): exactly one kind. */
export const recipientSchema = z
  .looseObject({
    person: z.string().min(1).optional(),
    team: z.string().min(1).optional(),
    email: z.string().min(1).optional(),
    connection: z.string().min(1).optional(),
    url: z.string().min(1).optional(),
    playbook: z.string().min(1).optional(),
    properties: z.record(z.string(), z.string()).optional(),
  })
  .refine((to) => ['person', 'team', 'email', 'connection', 'url', 'playbook'].some((k) => k in to && to[k]), {
    message: 'needs one recipient: person, team, email, connection, url or playbook',
  });
export type Recipient = z.infer<typeof recipientSchema>;

export const inhibitionSchema = z.looseObject({
  direction: z.enum(['outgoing', 'incoming', 'all']).default('all'),
  depth: z.number().int().min(1).max(10).optional(),
  soft: z.boolean().optional(),
  from: z.array(z.string()).min(1, 'from names at least one resource type'),
  to: z.array(z.string()).min(1, 'to names at least one resource type'),
});

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
  inhibitions: z.array(inhibitionSchema).optional(),
  fallback: z.looseObject({ to: recipientSchema.optional(), delay: duration.optional() }).optional(),
  /** Flap damping (Opsdeck): more than `flaps` state changes within `window` send one "flapping" message. */
  flapping: z.looseObject({ flaps: z.number().int().min(2).optional(), window: duration.optional() }).optional(),
});
export type NotificationSpec = z.infer<typeof notificationSpecSchema>;

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
  .refine(
    (s) =>
      ['filter', 'namespace', 'config_id', 'check_id', 'canary_id', 'component_id', 'selectors'].some(
        (k) => s[k] !== undefined && s[k] !== '',
      ),
    { message: 'a silence needs a resource (check, canary, component or config), a namespace, selectors or a filter' },
  )
  .refine((s) => s.until !== undefined || s.duration !== undefined, { message: 'until (or duration) is required' });
export type SilenceSpec = z.infer<typeof silenceSpecSchema>;
