// The silence form (spec/3 §2, §5): one resource — a check, catalog item, component or canary,
// choosing one kind clears the others — or a namespace; how long (from now for 1h … 1w, or until a
// chosen date); a reason; recursive. Query parameters (?check_id=…) prefill it from the Silence
// buttons of other screens.
import { resourceHref } from '../ResourceCell';
import type { SilenceRow } from '../types';

export const SILENCE_RESOURCE_KINDS = [
  { value: 'check', label: 'Check', column: 'check_id', table: 'checks' },
  { value: 'config', label: 'Catalog item', column: 'config_id', table: 'config_items' },
  { value: 'component', label: 'Component', column: 'component_id', table: 'components' },
  { value: 'canary', label: 'Canary', column: 'canary_id', table: 'canaries' },
] as const;
export type SilenceResourceKind = (typeof SILENCE_RESOURCE_KINDS)[number]['value'];
export type SilenceResourceColumn = (typeof SILENCE_RESOURCE_KINDS)[number]['column'];

export const SILENCE_DURATIONS = [
  { value: '1h', label: '1 hour', ms: 3_600_000 },
  { value: '4h', label: '4 hours', ms: 4 * 3_600_000 },
  { value: '1d', label: '1 day', ms: 86_400_000 },
  { value: '3d', label: '3 days', ms: 3 * 86_400_000 },
  { value: '1w', label: '1 week', ms: 7 * 86_400_000 },
  { value: 'custom', label: 'Until a date…', ms: 0 },
] as const;
export type SilenceDuration = (typeof SILENCE_DURATIONS)[number]['value'];

export const RESOURCE_REQUIRED = 'Please select a check, catalog item, component or canary, or a namespace';
export const UNTIL_REQUIRED = 'Please choose when the silence ends';
export const UNTIL_IN_PAST = 'The silence must end in the future';

export interface SilenceFormValues {
  kind: SilenceResourceKind;
  /** The chosen resource's id (of `kind`). */
  resourceId: string;
  /** Its name when known (a picker choice), for the form to show. */
  resourceName?: string;
  namespace: string;
  duration: SilenceDuration;
  /** A datetime-local value ("2024-05-01T14:30") when duration is 'custom'. */
  until: string;
  description: string;
  recursive: boolean;
}

export const EMPTY_SILENCE_FORM: SilenceFormValues = {
  kind: 'check',
  resourceId: '',
  namespace: '',
  duration: '1h',
  until: '',
  description: '',
  recursive: false,
};

/** The row's columns a silence form writes. */
export type SilenceWrite = Pick<
  SilenceRow,
  | 'check_id'
  | 'config_id'
  | 'component_id'
  | 'canary_id'
  | 'namespace'
  | 'from'
  | 'until'
  | 'description'
  | 'recursive'
  | 'source'
>;

/** ?check_id= / ?config_id= / ?component_id= / ?canary_id= (the first one given) → the form's start. */
export function silencePrefill(params: URLSearchParams): SilenceFormValues {
  for (const k of SILENCE_RESOURCE_KINDS) {
    const id = params.get(k.column);
    if (id)
      return { ...EMPTY_SILENCE_FORM, kind: k.value, resourceId: id, resourceName: params.get('name') ?? undefined };
  }
  return { ...EMPTY_SILENCE_FORM, namespace: params.get('namespace') ?? '' };
}

/** Another kind of resource: the one chosen before is cleared. */
export function withResourceKind(values: SilenceFormValues, kind: SilenceResourceKind): SilenceFormValues {
  return kind === values.kind ? values : { ...values, kind, resourceId: '', resourceName: undefined };
}

/** "2024-05-01T14:30" in the browser's zone, for a datetime-local input. */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** When the silence ends, for the chosen duration; undefined for a custom date not (validly) set. */
export function untilOf(values: Pick<SilenceFormValues, 'duration' | 'until'>, from: Date): Date | undefined {
  const choice = SILENCE_DURATIONS.find((d) => d.value === values.duration);
  if (choice && choice.value !== 'custom') return new Date(from.getTime() + choice.ms);
  if (!values.until) return undefined;
  const d = new Date(values.until);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** The form's problems by field (`resource`, `until`), empty when it may be saved. */
export function silenceFormErrors(values: SilenceFormValues, now: Date): Partial<Record<'resource' | 'until', string>> {
  const errors: Partial<Record<'resource' | 'until', string>> = {};
  if (!values.resourceId && !values.namespace.trim()) errors.resource = RESOURCE_REQUIRED;
  const until = untilOf(values, now);
  if (!until) errors.until = UNTIL_REQUIRED;
  else if (until.getTime() <= now.getTime()) errors.until = UNTIL_IN_PAST;
  return errors;
}

/** The form → the row written through /api/db/notification_silences; `from` is now, or kept when editing. */
export function silenceRowOfForm(values: SilenceFormValues, from: Date): SilenceWrite {
  const column = SILENCE_RESOURCE_KINDS.find((k) => k.value === values.kind)!.column;
  const ids: Record<SilenceResourceColumn, string | null> = {
    check_id: null,
    config_id: null,
    component_id: null,
    canary_id: null,
  };
  if (values.resourceId) ids[column] = values.resourceId;
  return {
    ...ids,
    namespace: values.namespace.trim() || null,
    from: from.toISOString(),
    until: untilOf(values, from)!.toISOString(),
    description: values.description.trim() || null,
    recursive: values.recursive,
    source: 'UI',
  };
}

/** A stored silence → the edit form (its end shown as a date). */
export function silenceFormOfRow(row: SilenceRow): SilenceFormValues {
  const kind = SILENCE_RESOURCE_KINDS.find((k) => row[k.column]) ?? SILENCE_RESOURCE_KINDS[0];
  return {
    kind: kind.value,
    resourceId: row[kind.column] ?? '',
    resourceName: silenceResource(row)?.name ?? undefined,
    namespace: row.namespace ?? '',
    duration: 'custom',
    until: toLocalInput(new Date(row.until)),
    description: row.description ?? '',
    recursive: row.recursive,
  };
}

/** What a silence is about, for the Resource column: kind, name and where it links. */
export function silenceResource(
  row: SilenceRow,
): { kind: SilenceResourceKind; label: string; id: string; name: string; href: string } | undefined {
  const k = SILENCE_RESOURCE_KINDS.find((kind) => row[kind.column]);
  const id = k && row[k.column];
  if (!k || !id) return undefined;
  return {
    kind: k.value,
    label: k.label,
    id,
    name: row[`${k.value}_name`] ?? id,
    href: resourceHref(k.value, id)!,
  };
}

/** Whether a silence no longer applies (the view's `expired`, else by its end). */
export function isExpired(row: Pick<SilenceRow, 'until' | 'expired'>, now: Date = new Date()): boolean {
  if (typeof row.expired === 'boolean') return row.expired;
  return new Date(row.until).getTime() <= now.getTime();
}

/** A span in words: "4h", "1d 2h", "45m", "3w". */
export function humanSpan(fromIso: string, untilIso: string): string {
  let minutes = Math.max(0, Math.round((new Date(untilIso).getTime() - new Date(fromIso).getTime()) / 60_000));
  if (!Number.isFinite(minutes)) return '';
  const parts: string[] = [];
  for (const [unit, size] of [
    ['w', 10_080],
    ['d', 1_440],
    ['h', 60],
    ['m', 1],
  ] as const) {
    if (minutes >= size) {
      parts.push(`${Math.floor(minutes / size)}${unit}`);
      minutes %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ') || '0m';
}
