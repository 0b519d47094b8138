// The JSON of the summary's items written here from their columns in PostgreSQL's binary forms
// (a binary COPY of the checks, summary.ts rawItemsCopy), byte for byte what row_to_json writes
// (summary.ts TEMPLATE_ITEMS) with the session in UTC: the fields before the figures and after
// them, as summaryTemplates.ts keeps them. A server's first answer reads 10,000 checks: building
// their JSON in PostgreSQL took ~50 of its ~64 ms there, on the cores that also read the figures.
//
// Strings are escaped as PostgreSQL's escape_json does (", \, \b \f \n \r \t, other control
// characters as \u00xx; everything else, UTF-8 included, as it is); uuids in their 36 characters;
// jsonb as its text (binary jsonb is a version byte and the text jsonb_out writes); a timestamptz
// as row_to_json writes it in UTC, to the microsecond without trailing zeros.
import { CopyReader } from '../db/copyOut.js';
import { ITEM_HEAD_KEYS, ITEM_TAIL_KEYS } from './summary.js';
import type { Template } from './summaryTemplates.js';
import { rowPartsOfValues } from './summaryRows.js';

type Kind = 'uuid' | 'text' | 'jsonb' | 'time';

/**
 * Each item column's type, by key (summary.ts ITEM_HEAD, ITEM_TAIL); any other is text. A column of
 * another type added there must be added here (health-summary-edges.test.ts compares the bytes).
 */
const KINDS: Record<string, Kind> = {
  id: 'uuid',
  canary_id: 'uuid',
  agent_id: 'uuid',
  labels: 'jsonb',
  last_runtime: 'time',
  last_transition_time: 'time',
  next_runtime: 'time',
  created_at: 'time',
  updated_at: 'time',
  deleted_at: 'time',
};
const kindOf = (key: string): Kind => KINDS[key] ?? 'text';

interface Field {
  kind: Kind;
  /** `"key":`, with the comma before it unless first. */
  key: Buffer;
}
const fieldsOf = (keys: readonly string[]): Field[] =>
  keys.map((k, i) => ({ kind: kindOf(k), key: Buffer.from(`${i ? ',' : ''}"${k}":`) }));
const HEAD = fieldsOf(ITEM_HEAD_KEYS);
const TAIL = fieldsOf(ITEM_TAIL_KEYS);
/** The columns of rawItemsCopy: id (text), v, k, then the head's and the tail's. */
export const RAW_COLUMNS = 3 + HEAD.length + TAIL.length;

/** The two hexadecimal digits of each byte value, as ASCII (2 bytes each). */
const HEX = new Uint8Array(512);
for (let i = 0; i < 256; i++) HEX.set(Buffer.from(i.toString(16).padStart(2, '0')), 2 * i);
/** For each byte: 0 as it is, 1 escaped with a letter (ESCAPE_LETTER), 2 as \u00xx. */
const ESCAPE = new Uint8Array(256);
const ESCAPE_LETTER = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) ESCAPE[c] = 2;
for (const [c, l] of [
  [0x08, 'b'],
  [0x0c, 'f'],
  [0x0a, 'n'],
  [0x0d, 'r'],
  [0x09, 't'],
  [0x22, '"'],
  [0x5c, '\\'],
] as const) {
  ESCAPE[c] = 1;
  ESCAPE_LETTER[c] = l.charCodeAt(0);
}
const NULL = Buffer.from('null');

/** Microseconds from the Unix epoch to PostgreSQL's (2000-01-01). */
const PG_EPOCH_US = 946_684_800_000_000;
const DAY_US = 86_400_000_000;
const dayPrefixes = new Map<number, string>();

/**
 * `YYYY-MM-DDT` of a day (days since the Unix epoch), kept for the days met lately: the date part
 * of every time an answer writes (here, and figureBytes.ts).
 */
export function utcDayPrefix(day: number): string {
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size > 400) dayPrefixes.clear();
    prefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  return prefix;
}
const TIME_ZONE = Buffer.from('+00:00"');

function two(b: Buffer, p: number, n: number): number {
  b[p] = 0x30 + Math.floor(n / 10);
  b[p + 1] = 0x30 + (n % 10);
  return p + 2;
}

/**
 * A time (microseconds since the Unix epoch) written into b at p as row_to_json writes a
 * timestamptz in UTC, quoted: to the microsecond, trailing zeros left out. Answers where it ends.
 * The items' times (here) and their figures' (figureBytes.ts).
 */
export function writeUtcTime(b: Buffer, p: number, us: number): number {
  const day = Math.floor(us / DAY_US);
  const prefix = utcDayPrefix(day);
  b[p++] = 0x22; // "
  for (let i = 0; i < prefix.length; i++) b[p++] = prefix.charCodeAt(i);
  const t = us - day * DAY_US;
  const s = Math.floor(t / 1_000_000);
  p = two(b, p, Math.floor(s / 3600));
  b[p++] = 0x3a; // :
  p = two(b, p, Math.floor(s / 60) % 60);
  b[p++] = 0x3a;
  p = two(b, p, s % 60);
  let frac = t % 1_000_000;
  if (frac) {
    b[p++] = 0x2e; // .
    let digits = 6;
    while (frac % 10 === 0) {
      frac /= 10;
      digits--;
    }
    for (let i = digits - 1; i >= 0; i--) {
      b[p + i] = 0x30 + (frac % 10);
      frac = Math.floor(frac / 10);
    }
    p += digits;
  }
  for (let i = 0; i < TIME_ZONE.length; i++) b[p++] = TIME_ZONE[i]!;
  return p;
}

/** Writes into chunks of at least CHUNK bytes; an item's two parts are always in one chunk. */
const CHUNK = 1 << 20;

class Writer {
  b = Buffer.allocUnsafe(CHUNK);
  w = 0;

  /** Makes room for `n` more bytes (a new chunk when needed: call it between items). */
  room(n: number): void {
    if (this.w + n <= this.b.length) return;
    this.b = Buffer.allocUnsafe(Math.max(CHUNK, 2 * n));
    this.w = 0;
  }

  /** Bytes src[s, e) (a loop: faster than a call to copy or set for the few bytes of a key or value). */
  set(src: Uint8Array, s = 0, e = src.length): void {
    const b = this.b;
    let w = this.w;
    for (let p = s; p < e; p++) b[w++] = src[p]!;
    this.w = w;
  }

  /** A JSON string of the UTF-8 bytes src[s, e), escaped as escape_json does. */
  string(src: Buffer, s: number, e: number): void {
    const b = this.b;
    let w = this.w;
    b[w++] = 0x22;
    for (let p = s; p < e; p++) {
      const c = src[p]!;
      const x = ESCAPE[c];
      if (x === 0) b[w++] = c;
      else if (x === 1) {
        b[w++] = 0x5c;
        b[w++] = ESCAPE_LETTER[c]!;
      } else {
        b[w++] = 0x5c;
        b[w++] = 0x75; // u
        b[w++] = 0x30;
        b[w++] = 0x30;
        b[w++] = HEX[2 * c]!;
        b[w++] = HEX[2 * c + 1]!;
      }
    }
    b[w++] = 0x22;
    this.w = w;
  }

  /** A uuid from its 16 bytes at src[p], quoted. */
  uuid(src: Buffer, p: number): void {
    const b = this.b;
    let w = this.w;
    b[w++] = 0x22;
    for (let i = 0; i < 16; i++) {
      const x = src[p + i]!;
      b[w++] = HEX[2 * x]!;
      b[w++] = HEX[2 * x + 1]!;
      if (i === 3 || i === 5 || i === 7 || i === 9) b[w++] = 0x2d;
    }
    b[w++] = 0x22;
    this.w = w;
  }

  /**
   * A timestamptz from its binary form (microseconds since 2000, as a number: exact for 285 years
   * either side) as row_to_json writes it in UTC (writeUtcTime).
   */
  time(usSince2000: number): void {
    this.w = writeUtcTime(this.b, this.w, usSince2000 + PG_EPOCH_US);
  }
}

/** The 4-byte big-endian integer at d[p]. */
const int4 = (d: Buffer, p: number) => (d[p]! << 24) | (d[p + 1]! << 16) | (d[p + 2]! << 8) | d[p + 3]!;

/** Writes one field's value: d[p, p + len) (len -1: null) as `kind`. */
function value(out: Writer, d: Buffer, p: number, len: number, kind: Kind): void {
  if (len < 0) return out.set(NULL);
  switch (kind) {
    case 'uuid':
      return out.uuid(d, p);
    case 'jsonb':
      return out.set(d, p + 1, p + len);
    case 'time':
      return out.time(int4(d, p) * 4294967296 + (int4(d, p + 4) >>> 0));
    default:
      return out.string(d, p, p + len);
  }
}

/**
 * The templates of a binary COPY of rawItemsCopy and their checks' ids, in its order: each item's JSON written from its
 * columns. Room per item: its columns' bytes six times over (every byte escaped as \u00xx), the
 * keys, and the times and uuids at their longest. `rows` (a console answer): each template's console
 * row parts cut too, from where its values were written (no scan of the JSON for them).
 */
export function templatesOfRawCopy(data: Buffer, rows = false): { ids: string[]; templates: Template[] } {
  const r = new CopyReader(data);
  const out = new Writer();
  const ids: string[] = [];
  const templates: Template[] = [];
  const starts = new Int32Array(RAW_COLUMNS);
  const lens = new Int32Array(RAW_COLUMNS);
  /** With `rows`, where each written value starts and ends (summaryRows.ts rowPartsOfValues). */
  const values = rows ? new Int32Array(2 * (HEAD.length + TAIL.length)) : undefined;
  let p = r.p;
  while (p + 2 <= data.length && ((data[p]! << 8) | data[p + 1]!) === RAW_COLUMNS) {
    p += 2;
    let size = 512;
    for (let i = 0; i < RAW_COLUMNS; i++) {
      const len = int4(data, p);
      starts[i] = p + 4;
      lens[i] = len;
      p += 4 + Math.max(len, 0);
      size += 6 * Math.max(len, 0) + 48;
    }
    const id = data.toString('latin1', starts[0], starts[0]! + lens[0]!);
    const v = data.toString('latin1', starts[1], starts[1]! + lens[1]!);
    const k = data.toString('utf8', starts[2], starts[2]! + lens[2]!);
    out.room(size);
    const head = out.w;
    out.b[out.w++] = 0x7b; // {
    let c = 3;
    for (const f of HEAD) {
      out.set(f.key);
      if (values) values[2 * (c - 3)] = out.w;
      value(out, data, starts[c]!, lens[c++]!, f.kind);
      if (values) values[2 * (c - 3) - 1] = out.w;
    }
    const headEnd = out.w;
    for (const f of TAIL) {
      out.set(f.key);
      if (values) values[2 * (c - 3)] = out.w;
      value(out, data, starts[c]!, lens[c++]!, f.kind);
      if (values) values[2 * (c - 3) - 1] = out.w;
    }
    out.b[out.w++] = 0x7d; // }
    // The head is written without its `}` and the tail without its `{`: the figures go between.
    const t: Template = { v, k, b: out.b, head, headEnd, tail: headEnd, tailEnd: out.w };
    // Its console row cut now, from where its values were written (a console answer asked for it).
    if (values) t.row = rowPartsOfValues(out.b, values);
    ids.push(id);
    templates.push(t);
  }
  return { ids, templates };
}
