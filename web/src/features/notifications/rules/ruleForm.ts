// The rule form (spec/3 §2, §5) ↔ a `notifications` row ↔ the Notification resource of the Code
// tab. The form edits name, title, events, filter, one recipient (Person, Team, or Others: a
// connection, a service URL or an email address), repeat interval and wait-for (text, stored as
// nanoseconds), template and properties (a JSON object).
import { z } from 'zod';
import { NOTIFICATION_EVENTS } from '@opsdeck/common/notifications';
import type { CustomService, NotificationRuleRow } from '../types';
import {
  durationError,
  durationNsOfText,
  durationTextOfNs,
  REPEAT_INTERVAL_OPTIONS,
  WAIT_FOR_OPTIONS,
} from './durationField';

export const REQUIRED = 'This field is required';
export const PROPERTIES_NOT_OBJECT = 'Properties must be a JSON object';
export const NOTIFICATION_API_VERSION = 'mission-control.flanksource.com/v1';

export const RECIPIENT_KINDS = [
  { value: 'person', label: 'Person' },
  { value: 'team', label: 'Team' },
  { value: 'others', label: 'Others' },
] as const;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number]['value'];

/** What "Others" sends to. */
export const OTHER_KINDS = [
  { value: 'connection', label: 'Connection' },
  { value: 'url', label: 'Service URL' },
  { value: 'email', label: 'Email' },
] as const;
export type OtherKind = (typeof OTHER_KINDS)[number]['value'];

/** An optional duration field: empty, or a duration of a minute or more. */
const optionalDuration = z.string().superRefine((v, ctx) => {
  const message = durationError(v);
  if (message) ctx.addIssue({ code: 'custom', message });
});

export const ruleFormSchema = z
  .object({
    name: z.string().trim().min(1, REQUIRED),
    title: z.string(),
    events: z.array(z.enum(NOTIFICATION_EVENTS)).min(1, REQUIRED),
    filter: z.string(),
    recipientKind: z.enum(['person', 'team', 'others']),
    personId: z.string(),
    teamId: z.string(),
    otherKind: z.enum(['connection', 'url', 'email']),
    connection: z.string(),
    url: z.string(),
    email: z.string(),
    repeatInterval: optionalDuration,
    waitFor: optionalDuration,
    template: z.string(),
    properties: z.string(),
  })
  .superRefine((v, ctx) => {
    const need = (path: keyof RuleFormValues, value: string) => {
      if (!value.trim()) ctx.addIssue({ code: 'custom', message: REQUIRED, path: [path] });
    };
    if (v.recipientKind === 'person') need('personId', v.personId);
    else if (v.recipientKind === 'team') need('teamId', v.teamId);
    else need(v.otherKind, v[v.otherKind]);
    if (v.properties.trim() && propertiesOf(v.properties) === undefined)
      ctx.addIssue({ code: 'custom', message: PROPERTIES_NOT_OBJECT, path: ['properties'] });
  });

export type RuleFormValues = z.infer<typeof ruleFormSchema>;

/** The columns the form writes (update payloads leave person, team and the timestamps alone). */
export type RuleWrite = Pick<
  NotificationRuleRow,
  | 'name'
  | 'title'
  | 'events'
  | 'filter'
  | 'person_id'
  | 'team_id'
  | 'custom_services'
  | 'repeat_interval'
  | 'wait_for'
  | 'template'
  | 'properties'
  | 'source'
>;

export const EMPTY_RULE_FORM: RuleFormValues = {
  name: '',
  title: '',
  events: [],
  filter: '',
  recipientKind: 'person',
  personId: '',
  teamId: '',
  otherKind: 'connection',
  connection: '',
  url: '',
  email: '',
  repeatInterval: '',
  waitFor: '',
  template: '',
  properties: '',
};

/** A JSON object's text → the object; '' → null; anything else → undefined (refused). */
export function propertiesOf(text: string): Record<string, unknown> | null | undefined {
  if (!text.trim()) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const knownEvents = (events: readonly string[]) =>
  events.filter((e): e is RuleFormValues['events'][number] => (NOTIFICATION_EVENTS as readonly string[]).includes(e));

/** A stored rule → the form's values. */
export function ruleFormOfRow(row: NotificationRuleRow): RuleFormValues {
  const other: CustomService = row.custom_services?.[0] ?? {};
  const recipientKind: RecipientKind = row.person_id ? 'person' : row.team_id ? 'team' : 'others';
  const otherKind: OtherKind = other.url ? 'url' : other.email ? 'email' : 'connection';
  return {
    name: row.name,
    title: row.title ?? '',
    events: knownEvents(row.events ?? []),
    filter: row.filter ?? '',
    recipientKind,
    personId: row.person_id ?? '',
    teamId: row.team_id ?? '',
    otherKind,
    connection: other.connection ?? '',
    url: other.url ?? '',
    email: other.email ?? '',
    repeatInterval: durationTextOfNs(row.repeat_interval, REPEAT_INTERVAL_OPTIONS),
    waitFor: durationTextOfNs(row.wait_for, WAIT_FOR_OPTIONS),
    template: row.template ?? '',
    properties: row.properties && Object.keys(row.properties).length ? JSON.stringify(row.properties, null, 2) : '',
  };
}

const orNull = (text: string) => (text.trim() ? text : null);

/** The form's values → the row written through /api/db/notifications. */
export function ruleRowOfForm(v: RuleFormValues): RuleWrite {
  const others = v.recipientKind === 'others';
  return {
    name: v.name.trim(),
    title: orNull(v.title.trim()),
    events: [...v.events],
    filter: orNull(v.filter.trim()),
    person_id: v.recipientKind === 'person' ? v.personId : null,
    team_id: v.recipientKind === 'team' ? v.teamId : null,
    custom_services: others ? [{ [v.otherKind]: v[v.otherKind].trim() }] : null,
    repeat_interval: durationNsOfText(v.repeatInterval),
    wait_for: durationNsOfText(v.waitFor),
    template: orNull(v.template),
    properties: propertiesOf(v.properties) ?? null,
    source: 'UI',
  };
}

/** Names of the chosen person and team, for the resource's `to` (the row holds only ids). */
export interface RecipientNames {
  person?: string;
  team?: string;
}

/** The form's values → the Notification resource of the Code tab, applied by POST /api/notification. */
export function notificationResourceOf(v: RuleFormValues, names: RecipientNames = {}, namespace = 'default') {
  const to: Record<string, unknown> =
    v.recipientKind === 'person'
      ? { person: names.person ?? v.personId }
      : v.recipientKind === 'team'
        ? { team: names.team ?? v.teamId }
        : { [v.otherKind]: v[v.otherKind].trim() };
  // Properties travel with the recipient (`to.properties`), as the server reads them.
  const properties = propertiesOf(v.properties);
  if (properties) to.properties = properties;
  const spec: Record<string, unknown> = { events: [...v.events] };
  if (v.title.trim()) spec.title = v.title.trim();
  if (v.filter.trim()) spec.filter = v.filter.trim();
  spec.to = to;
  if (v.repeatInterval.trim()) spec.repeatInterval = v.repeatInterval.trim();
  if (v.waitFor.trim()) spec.waitFor = v.waitFor.trim();
  if (v.template.trim()) spec.template = v.template;
  return {
    apiVersion: NOTIFICATION_API_VERSION,
    kind: 'Notification',
    metadata: { name: v.name.trim(), namespace },
    spec,
  };
}

/** A rule is edited here only when it was made here (source UI or empty; spec/3 §2). */
export function isEditableRule(row: Pick<NotificationRuleRow, 'source'> | undefined): boolean {
  return !row?.source || row.source === 'UI';
}
