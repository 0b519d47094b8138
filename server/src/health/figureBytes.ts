// An item's figures (its `uptime` and `latency` objects) written as bytes straight into a summary
// answer's buffer, between its template's parts (summaryTemplates.ts): the same text as
// figuresText, without a string per item. Those strings were 16 of the ~36 MB a server's first
// answer allocated on the JS heap at 10,000 checks, and they lived till the answer was written, so
// each scavenge of the young generation copied them.
import type { RangeFigures } from './edgeFigures.js';
import { utcDayPrefix } from './itemBytes.js';

const DAY_MS = 86_400_000;
const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
/** Milliseconds as PostgreSQL writes a fraction of a second: none, or trailing zeros left out. */
const FRACTION = Array.from({ length: 1000 }, (_, i) => (i ? `.${String(i).padStart(3, '0').replace(/0+$/, '')}` : ''));

/**
 * A time (ms since the epoch) in PostgreSQL's JSON form of a timestamptz in UTC, as row_to_json
 * writes it (the form of the items' other times), quoted; null as null.
 */
export function pgTimestamp(ms: number | null): string {
  if (ms === null) return 'null';
  const day = Math.floor(ms / DAY_MS);
  const t = ms - day * DAY_MS;
  const s = Math.floor(t / 1000);
  return `"${utcDayPrefix(day)}${TWO[Math.floor(s / 3600)]}:${TWO[Math.floor(s / 60) % 60]}:${TWO[s % 60]}${FRACTION[t % 1000]}+00:00"`;
}

/** A figure as JSON (null when there is none). */
export const num = (v: number | null | undefined) => (v === null || v === undefined ? 'null' : String(v));

/** The figures of a check the range has no runs of. */
export const NO_FIGURES = `,"uptime":{"passed":0,"failed":0,"last_pass":null,"last_fail":null},"latency":{"p95":null,"p97":null,"p99":null,"rolling1h":null},`;

/** The figures of the i-th check of `f` as text (undefined: none in the range), as writeFigures writes them. */
export function figuresText(f: RangeFigures, i: number | undefined): string {
  return i === undefined
    ? NO_FIGURES
    : `,"uptime":{"passed":${f.passed[i]},"failed":${f.failed[i]},"last_pass":${pgTimestamp(f.last_pass[i]!)},"last_fail":${pgTimestamp(f.last_fail[i]!)}},"latency":{"p95":${num(f.p95[i])},"p97":${num(f.p97[i])},"p99":${num(f.p99[i])},"rolling1h":${num(f.rolling1h[i])}},`;
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const KEYS = [
  ',"uptime":{"passed":',
  ',"failed":',
  ',"last_pass":',
  ',"last_fail":',
  '},"latency":{"p95":',
  ',"p97":',
  ',"p99":',
  ',"rolling1h":',
  '},',
].map(ascii);
const KEYS_LENGTH = KEYS.reduce((n, k) => n + k.length, 0);
const NO_FIGURES_BYTES = ascii(NO_FIGURES);
const NULL = ascii('null');
const ZONE = ascii('+00:00"');
/** Whole numbers written digit by digit; anything else (rare: a fraction, a huge count) as String(v). */
const plain = (v: number) => Number.isSafeInteger(v);

function digits(v: number): number {
  let n = v < 0 ? 2 : 1;
  for (let x = Math.abs(v); x >= 10; x = Math.floor(x / 10)) n++;
  return n;
}

const numSize = (v: number | null | undefined) =>
  v === null || v === undefined ? 4 : plain(v) ? digits(v) : String(v).length;

/** A time's length as pgTimestamp writes it (null: 4). */
function timeSize(ms: number | null): number {
  if (ms === null) return 4;
  const day = Math.floor(ms / DAY_MS);
  return 1 + utcDayPrefix(day).length + 8 + FRACTION[(ms - day * DAY_MS) % 1000]!.length + ZONE.length;
}

/** How many bytes writeFigures writes for the i-th check of `f` (undefined: none in the range). */
export function figuresSize(f: RangeFigures, i: number | undefined): number {
  if (i === undefined) return NO_FIGURES_BYTES.length;
  return (
    KEYS_LENGTH +
    numSize(f.passed[i]) +
    numSize(f.failed[i]) +
    timeSize(f.last_pass[i]!) +
    timeSize(f.last_fail[i]!) +
    numSize(f.p95[i]) +
    numSize(f.p97[i]) +
    numSize(f.p99[i]) +
    numSize(f.rolling1h[i])
  );
}

function put(b: Buffer, p: number, src: Uint8Array): number {
  for (let i = 0; i < src.length; i++) b[p++] = src[i]!;
  return p;
}

function putText(b: Buffer, p: number, s: string): number {
  for (let i = 0; i < s.length; i++) b[p++] = s.charCodeAt(i);
  return p;
}

function putNum(b: Buffer, p: number, v: number | null | undefined): number {
  if (v === null || v === undefined) return put(b, p, NULL);
  if (!plain(v)) return putText(b, p, String(v));
  if (v < 0) {
    b[p++] = 0x2d; // -
    v = -v;
  }
  const end = p + digits(v);
  for (let q = end - 1; q >= p; q--) {
    b[q] = 0x30 + (v % 10);
    v = Math.floor(v / 10);
  }
  return end;
}

function putTwo(b: Buffer, p: number, n: number): number {
  b[p] = 0x30 + Math.floor(n / 10);
  b[p + 1] = 0x30 + (n % 10);
  return p + 2;
}

function putTime(b: Buffer, p: number, ms: number | null): number {
  if (ms === null) return put(b, p, NULL);
  const day = Math.floor(ms / DAY_MS);
  const t = ms - day * DAY_MS;
  const s = Math.floor(t / 1000);
  b[p++] = 0x22; // "
  p = putText(b, p, utcDayPrefix(day));
  p = putTwo(b, p, Math.floor(s / 3600));
  b[p++] = 0x3a; // :
  p = putTwo(b, p, Math.floor(s / 60) % 60);
  b[p++] = 0x3a;
  p = putTwo(b, p, s % 60);
  p = putText(b, p, FRACTION[t % 1000]!);
  return put(b, p, ZONE);
}

/** Writes the i-th check's figures of `f` into b at p (figuresSize bytes); answers where they end. */
export function writeFigures(b: Buffer, p: number, f: RangeFigures, i: number | undefined): number {
  if (i === undefined) return put(b, p, NO_FIGURES_BYTES);
  p = put(b, p, KEYS[0]!);
  p = putNum(b, p, f.passed[i]);
  p = put(b, p, KEYS[1]!);
  p = putNum(b, p, f.failed[i]);
  p = put(b, p, KEYS[2]!);
  p = putTime(b, p, f.last_pass[i]!);
  p = put(b, p, KEYS[3]!);
  p = putTime(b, p, f.last_fail[i]!);
  p = put(b, p, KEYS[4]!);
  p = putNum(b, p, f.p95[i]);
  p = put(b, p, KEYS[5]!);
  p = putNum(b, p, f.p97[i]);
  p = put(b, p, KEYS[6]!);
  p = putNum(b, p, f.p99[i]);
  p = put(b, p, KEYS[7]!);
  p = putNum(b, p, f.rolling1h[i]);
  return put(b, p, KEYS[8]!);
}
