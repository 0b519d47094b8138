// Durations shared by all expression languages.
//
// Representation: a duration (an HTTP check's `elapsed`, a certificate's `sslAge`, ...) is put in
// the variables as a `Duration` (this module's subclass of the CEL `google.protobuf.Duration`
// class of @marcbachmann/cel-js: seconds + nanoseconds). Build one with `durationFromMs(ms)` or
// `parseDuration('7d')`. Each language then sees it the way its users expect:
//   - CEL: a native duration, so `sslAge > Duration('7d')` and `elapsed < duration('500ms')`
//     compare durations; `elapsed.getMilliseconds()` gives an int. As a bridge for callers that
//     pass plain numbers, comparing a duration with a number reads the number as milliseconds.
//   - Go templates: printed like Go's time.Duration ("1h30m0s", "1.5ms"); `.Hours`, `.Minutes`,
//     `.Seconds`, `.Milliseconds`, `.String` work as in Go.
//   - JavaScript: a number of milliseconds (JavaScript has no duration type).
//   - Script results turned into text (toJSON, toJson, display of a list/map): the Go string.
//   - Plain JSON.stringify of variables (e.g. a check's stored details): milliseconds (toJSON).
// Why: canary-checker passes Go time.Duration values, which CEL sees as durations and templates
// print in Go form; one class that converts at each language's edge keeps user scripts
// unchanged and avoids guessing units from bare numbers.
//
// `parseDuration` accepts Go syntax ("1h30m", "1.5s", "300ms", "2us", "-5m") plus the day, week
// and year units of canary-checker ("7d", "2w", "1y" = 365 days).

import { Duration as CelDuration } from '@marcbachmann/cel-js/evaluator';

export { CelDuration };

/**
 * A duration to put in script variables. It is a CEL duration (cel.ts hands cel-js the base
 * class) that JSON.stringify writes as a number of milliseconds.
 */
export class Duration extends CelDuration {
  toJSON(): number {
    return this.valueOf();
  }
}

const NANOS_PER_SECOND = 1_000_000_000n;
const NANOS_PER_MS = 1_000_000n;

const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: NANOS_PER_MS,
  s: NANOS_PER_SECOND,
  m: 60n * NANOS_PER_SECOND,
  h: 3_600n * NANOS_PER_SECOND,
  d: 86_400n * NANOS_PER_SECOND,
  w: 7n * 86_400n * NANOS_PER_SECOND,
  y: 365n * 86_400n * NANOS_PER_SECOND,
};

/** True for a duration: ours, or one computed by CEL (`Duration('7d')`, `age(t)`, `a - b`). */
export function isDuration(value: unknown): value is CelDuration {
  return value instanceof CelDuration;
}

/** A duration of `ms` milliseconds (fractions keep sub-millisecond precision down to 1 ns). */
export function durationFromMs(ms: number): Duration {
  if (!Number.isFinite(ms)) throw new RangeError(`duration must be a finite number of milliseconds, got ${ms}`);
  return durationFromNanos(BigInt(Math.trunc(ms * 1_000_000)));
}

/** A duration of exactly `nanos` nanoseconds. */
export function durationFromNanos(nanos: bigint): Duration {
  // BigInt division truncates toward zero, so seconds and nanos share the sign (cel-js convention).
  return new Duration(nanos / NANOS_PER_SECOND, Number(nanos % NANOS_PER_SECOND));
}

/** Total nanoseconds of a duration. */
export function durationToNanos(duration: CelDuration): bigint {
  return duration.seconds * NANOS_PER_SECOND + BigInt(duration.nanos);
}

/** Milliseconds of a duration, as a (possibly fractional) number. */
export function durationToMs(duration: CelDuration): number {
  return duration.valueOf();
}

/**
 * Parse a Go-style duration ("1h30m", "1.5s", "-300ms") with the extra units d (24h), w (7d)
 * and y (365d). Throws a RangeError naming the input when it is not a duration.
 */
export function parseDuration(text: string): Duration {
  return durationFromNanos(parseDurationNanos(text));
}

function parseDurationNanos(original: string): bigint {
  const invalid = (why: string) => new RangeError(`invalid duration "${original}": ${why}`);
  let s = original.trim();
  if (s === '') throw invalid('empty string');
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid('no number');
  let total = 0n;
  const part = /^(\d*)(?:\.(\d*))?([a-zµμ]*)/i;
  while (s !== '') {
    const match = part.exec(s);
    const whole = match?.[1] ?? '';
    const fraction = match?.[2] ?? '';
    const unitText = match?.[3] ?? '';
    if (!match || (whole === '' && fraction === '')) throw invalid(`expected a number at "${s}"`);
    if (unitText === '') throw invalid(`missing unit after "${match[0]}" (use ns, us, ms, s, m, h, d, w or y)`);
    const unit = UNIT_NANOS[unitText];
    if (unit === undefined) throw invalid(`unknown unit "${unitText}" (use ns, us, ms, s, m, h, d, w or y)`);
    total += BigInt(whole || '0') * unit;
    if (fraction !== '') total += (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    s = s.slice(match[0].length);
  }
  return negative ? -total : total;
}

/**
 * Go's time.Duration.String(): "0s", "1.5ms", "2µs", "45s", "1m30s", "72h0m0s". Accepts a
 * Duration or a number of milliseconds.
 */
export function formatDuration(value: CelDuration | number): string {
  let nanos = typeof value === 'number' ? durationToNanos(durationFromMs(value)) : durationToNanos(value);
  const negative = nanos < 0n;
  if (negative) nanos = -nanos;
  let text: string;
  if (nanos === 0n) return '0s';
  if (nanos < NANOS_PER_SECOND) {
    // Below one second Go switches to the largest sub-second unit with a fraction.
    const [prec, unit] = nanos < 1_000n ? [0, 'ns'] : nanos < NANOS_PER_MS ? [3, 'µs'] : [6, 'ms'];
    const [frac, whole] = fractionDigits(nanos, prec);
    text = `${whole}${frac}${unit}`;
  } else {
    const [frac, wholeSeconds] = fractionDigits(nanos, 9);
    const seconds = wholeSeconds % 60n;
    const totalMinutes = wholeSeconds / 60n;
    text = `${seconds}${frac}s`;
    if (totalMinutes > 0n) {
      text = `${totalMinutes % 60n}m${text}`;
      const hours = totalMinutes / 60n;
      if (hours > 0n) text = `${hours}h${text}`;
    }
  }
  return negative ? `-${text}` : text;
}

/** Split `value` into the integer part of value/10^prec and its fraction ".123" without trailing zeros. */
function fractionDigits(value: bigint, prec: number): [string, bigint] {
  let digits = '';
  let printing = false;
  let v = value;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    printing ||= digit !== 0n;
    if (printing) digits = `${digit}${digits}`;
    v /= 10n;
  }
  return [printing ? `.${digits}` : '', v];
}
