// An item's figures (its `uptime` and `latency` objects) written as bytes straight into a summary
// answer's buffer, between its template's parts (summaryTemplates.ts), with no string per item:
// those strings were 16 of the ~36 MB a server's first answer allocated on the JS heap at 10,000
// checks, and they lived till the answer was written, so each scavenge of the young generation
// copied them. Times as row_to_json writes them in UTC (itemBytes.ts writeUtcTime).
import type { RangeFigures } from './edgeFigures.js';
import { utcDayPrefix, writeUtcTime } from './itemBytes.js';

const DAY_MS = 86_400_000;

/** A figure as JSON (null when there is none). */
export const num = (v: number | null | undefined) => (v === null || v === undefined ? 'null' : String(v));

/** The figures of a check the range has no runs of (writeFigures writes the others in this shape). */
export const NO_FIGURES = `,"uptime":{"passed":0,"failed":0,"last_pass":null,"last_fail":null},"latency":{"p95":null,"p97":null,"p99":null,"rolling1h":null},`;

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
/** `+00:00"` */
const ZONE_LENGTH = 7;
/** Whole numbers written digit by digit; anything else (rare: a fraction, a huge count) as String(v). */
const plain = (v: number) => Number.isSafeInteger(v);

function digits(v: number): number {
  let n = v < 0 ? 2 : 1;
  for (let x = Math.abs(v); x >= 10; x = Math.floor(x / 10)) n++;
  return n;
}

const numSize = (v: number | null | undefined) =>
  v === null || v === undefined ? 4 : plain(v) ? digits(v) : String(v).length;

/** A time's length as writeUtcTime writes it, to the millisecond (null: 4). */
function timeSize(ms: number | null): number {
  if (ms === null) return 4;
  const day = Math.floor(ms / DAY_MS);
  let frac = (ms - day * DAY_MS) % 1000;
  let fraction = 0;
  if (frac) {
    fraction = 4; // .123
    for (; frac % 10 === 0; frac /= 10) fraction--;
  }
  return 1 + utcDayPrefix(day).length + 8 + fraction + ZONE_LENGTH;
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

function putTime(b: Buffer, p: number, ms: number | null): number {
  return ms === null ? put(b, p, NULL) : writeUtcTime(b, p, ms * 1000);
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
