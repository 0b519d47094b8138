// The duration fields of a rule (spec/3 §5): repeat interval and wait-for, chosen from the spec's
// lists or typed ("90m", "2d"), stored in nanoseconds. A stored value shows as its choice when it
// equals one (30 days → "1mo", the "1m" of the repeat list), else as its shortest text.
import {
  formatDurationNs,
  parseDurationNs,
  REPEAT_INTERVAL_CHOICES,
  WAIT_FOR_CHOICES,
} from '@opsdeck/common/notifications';

export interface DurationChoice {
  label: string;
  value: string;
}

export const WAIT_FOR_OPTIONS: readonly DurationChoice[] = WAIT_FOR_CHOICES.map((v) => ({ label: v, value: v }));
export const REPEAT_INTERVAL_OPTIONS: readonly DurationChoice[] = REPEAT_INTERVAL_CHOICES;

/** The field's text for a stored duration; '' when there is none. */
export function durationTextOfNs(ns: number | null | undefined, choices: readonly DurationChoice[] = []): string {
  if (ns === null || ns === undefined || !Number.isFinite(ns) || ns <= 0) return '';
  return choices.find((c) => parseDurationNs(c.value) === ns)?.value ?? formatDurationNs(ns);
}

/** The nanoseconds to store for the field's text: null when empty (or not a duration: the form refuses it first). */
export function durationNsOfText(text: string | undefined): number | null {
  const t = text?.trim();
  if (!t) return null;
  return parseDurationNs(t) ?? null;
}

/** The label of a field's text: a choice's label ("1m" for a month on the repeat list), else the text. */
export function durationLabel(text: string, choices: readonly DurationChoice[]): string {
  return choices.find((c) => c.value === text)?.label ?? text;
}

/** Whether the text is one of the offered choices (else the field shows it as a custom entry). */
export function isDurationChoice(text: string, choices: readonly DurationChoice[]): boolean {
  return choices.some((c) => c.value === text);
}

/** A stored duration for a table cell: "1h", "1mo", "1h30m"; '' when unset. */
export function formatStoredDuration(ns: number | null | undefined): string {
  return durationTextOfNs(ns, [...REPEAT_INTERVAL_OPTIONS, ...WAIT_FOR_OPTIONS]);
}

/** The field's message ('This field is required', 'Duration must be greater than 1 minute'), if any. */
export { durationFieldError as durationError } from '@opsdeck/common/notifications';
