// The console row of an item template (summaryTemplates.ts), cut from the bytes PostgreSQL wrote:
// the row's columns before the figures and after them, as the text consoleRowOf writes
// (summaryConsole.ts), without parsing the item. A server's first console answer cuts 10,000 of
// them; JSON.parse of each item and JSON.stringify of its columns took most of that answer's time.
//
// row_to_json writes the item's keys in a fixed order (summary.ts ITEM_HEAD_KEYS, ITEM_TAIL_KEYS)
// and its strings escaped as JSON.stringify escapes them (", \, \b \f \n \r \t, other control
// characters as \u00xx), so a column's value is the item's bytes as they are. The labels (jsonb)
// are written with a space after each `:` and `,`, which is dropped; labels holding anything but
// strings (numbers are written as jsonb keeps them, `1.0`) are parsed and written again. An item
// the scan does not recognise (keys other than expected) is parsed instead (rowPartsParsed).
import { CONSOLE_COLUMNS, type Item } from './summaryConsole.js';
import { ITEM_HEAD_KEYS, ITEM_TAIL_KEYS } from './summary.js';

/** The console columns the figures fill: passed, failed, p95, rolling1h, in that order (summaryTemplates.ts rowAt). */
const FIRST_FIGURE_COLUMN = CONSOLE_COLUMNS.indexOf('passed');
const FIGURE_COLUMNS = CONSOLE_COLUMNS.indexOf('rolling1h') + 1 - FIRST_FIGURE_COLUMN;

export interface RowParts {
  /** The row up to its first figure: `[id,…,endpoint,`. */
  head: string;
  /** The row after its last figure: `,last_runtime,…]`. */
  tail: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const HEAD_KEYS = ITEM_HEAD_KEYS.map((k) => Buffer.from(k));
const TAIL_KEYS = ITEM_TAIL_KEYS.map((k) => Buffer.from(k));
/** For each column before the figures, the index of its key among the head's; after them, the tail's. */
const HEAD_PICK = CONSOLE_COLUMNS.slice(0, FIRST_FIGURE_COLUMN).map((c) => ITEM_HEAD_KEYS.indexOf(c));
const TAIL_PICK = CONSOLE_COLUMNS.slice(FIRST_FIGURE_COLUMN + FIGURE_COLUMNS).map((c) => ITEM_TAIL_KEYS.indexOf(c));
const LABELS = ITEM_HEAD_KEYS.indexOf('labels');
/** Whether every console column is one of the item's keys (else every row is parsed). */
const SCANNABLE = HEAD_PICK.every((i) => i >= 0) && TAIL_PICK.every((i) => i >= 0);

/** Where each value starts and ends (pairs), for the head's keys and then the tail's. */
const at = new Int32Array(2 * (HEAD_KEYS.length + TAIL_KEYS.length));
/** The bytes of the part being written (grown when an item needs more). */
let out = Buffer.allocUnsafe(16 * 1024);

/** The end of the string whose content starts at p (after its opening quote), or -1. */
function stringEnd(b: Buffer, p: number, end: number): number {
  while (p < end) {
    const c = b[p++];
    if (c === QUOTE) return p;
    if (c === BACKSLASH) p++;
  }
  return -1;
}

/** The end of the JSON value that starts at p, or -1. */
function valueEnd(b: Buffer, p: number, end: number): number {
  const c = b[p];
  if (c === QUOTE) return stringEnd(b, p + 1, end);
  if (c === OPEN || c === OPEN_ARRAY) {
    let depth = 0;
    while (p < end) {
      const d = b[p++];
      if (d === QUOTE) {
        p = stringEnd(b, p, end);
        if (p < 0) return -1;
      } else if (d === OPEN || d === OPEN_ARRAY) depth++;
      else if ((d === CLOSE || d === CLOSE_ARRAY) && --depth === 0) return p;
    }
    return -1;
  }
  while (p < end && b[p] !== COMMA && b[p] !== CLOSE) p++;
  return p;
}

/** Reads `"key":value` for each of `keys`, comma-separated, from p; their values' ends into `at` from slot `k0`. */
function fields(b: Buffer, p: number, end: number, keys: Buffer[], k0: number): number {
  for (let k = 0; k < keys.length; k++) {
    if (k && b[p++] !== COMMA) return -1;
    const key = keys[k]!;
    if (b[p++] !== QUOTE) return -1;
    for (let i = 0; i < key.length; i++) if (b[p + i] !== key[i]) return -1;
    p += key.length;
    if (b[p] !== QUOTE || b[p + 1] !== COLON) return -1;
    p += 2;
    at[2 * (k0 + k)] = p;
    p = valueEnd(b, p, end);
    if (p < 0) return -1;
    at[2 * (k0 + k) + 1] = p;
  }
  return p;
}

/** Room for n more bytes in `out` from w. */
function room(w: number, n: number): void {
  if (w + n <= out.length) return;
  const grown = Buffer.allocUnsafe(Math.max(2 * out.length, w + n));
  out.copy(grown, 0, 0, w);
  out = grown;
}

/** Copies b[s, e) into `out` at w; the new end. */
function copy(b: Buffer, s: number, e: number, w: number): number {
  room(w, e - s);
  // Short values byte by byte; longer ones by memcpy (a native call costs about 30 bytes' worth).
  if (e - s > 32) return w + b.copy(out, w, s, e);
  for (let i = s; i < e; i++) out[w++] = b[i]!;
  return w;
}

/**
 * The labels' jsonb text b[s, e) into `out` at w as JSON.stringify writes it (no space after `:`
 * and `,`), or -1 when it holds a value other than a string or an object (written by parsing).
 */
function copyLabels(b: Buffer, s: number, e: number, w: number): number {
  room(w, e - s);
  let i = s;
  while (i < e) {
    const c = b[i++]!;
    if (c === QUOTE) {
      const q = stringEnd(b, i, e);
      if (q < 0) return -1;
      out[w++] = c;
      for (; i < q; i++) out[w++] = b[i]!;
    } else if (c === SPACE) {
      const prev = b[i - 2];
      if (prev !== COLON && prev !== COMMA) return -1;
    } else if (c === OPEN || c === CLOSE || c === COLON || c === COMMA || c === OPEN_ARRAY || c === CLOSE_ARRAY)
      out[w++] = c;
    else if (i - 1 === s && c === 0x6e /* n */ && e - s === 4)
      return copy(b, s, e, w); // null
    else return -1;
  }
  return w;
}

/**
 * The console row parts of an item whose fields before the figures are `b[head, headEnd)` (an
 * object without its `}`) and after them `b[tail, tailEnd)` (without its `{`), or undefined when
 * the bytes are not the expected keys in order.
 */
export function rowPartsOfBytes(b: Buffer, head: number, headEnd: number, tail: number, tailEnd: number) {
  if (!SCANNABLE || b[head] !== OPEN) return undefined;
  if (fields(b, head + 1, headEnd, HEAD_KEYS, 0) !== headEnd) return undefined;
  if (fields(b, tail, tailEnd, TAIL_KEYS, HEAD_KEYS.length) !== tailEnd - 1 || b[tailEnd - 1] !== CLOSE)
    return undefined;
  return partsAt(b);
}

/**
 * The console row parts of an item whose values are where `values` says in b (start and end pairs:
 * the values of ITEM_HEAD_KEYS, then of ITEM_TAIL_KEYS), as the item's writer knows them
 * (itemBytes.ts): what rowPartsOfBytes makes, without looking for the values first.
 */
export function rowPartsOfValues(b: Buffer, values: Int32Array): RowParts | undefined {
  if (!SCANNABLE) return undefined;
  at.set(values);
  return partsAt(b);
}

/** The row parts of the item in b whose values `at` holds. */
function partsAt(b: Buffer): RowParts {
  let w = 0;
  room(0, 1);
  out[w++] = OPEN_ARRAY;
  for (const k of HEAD_PICK) {
    const s = at[2 * k]!;
    const e = at[2 * k + 1]!;
    if (k === LABELS) {
      const n = copyLabels(b, s, e, w);
      w = n >= 0 ? n : copyText(JSON.stringify(JSON.parse(b.toString('utf8', s, e))), w);
    } else w = copy(b, s, e, w);
    room(w, 1);
    out[w++] = COMMA;
  }
  const rowHead = out.toString('utf8', 0, w);
  w = 0;
  for (const k of TAIL_PICK) {
    room(w, 1);
    out[w++] = COMMA;
    w = copy(b, at[2 * (HEAD_KEYS.length + k)]!, at[2 * (HEAD_KEYS.length + k) + 1]!, w);
  }
  room(w, 1);
  out[w++] = CLOSE_ARRAY;
  return { head: rowHead, tail: out.toString('utf8', 0, w) };
}

function copyText(text: string, w: number): number {
  const bytes = Buffer.from(text);
  return copy(bytes, 0, bytes.length, w);
}

/** The same by parsing the item (an item the scan does not recognise). */
export function rowPartsParsed(b: Buffer, head: number, headEnd: number, tail: number, tailEnd: number): RowParts {
  const item = JSON.parse(
    `${b.toString('utf8', head, headEnd)},"uptime":null,"latency":null,${b.toString('utf8', tail, tailEnd)}`,
  ) as Item;
  const cols = CONSOLE_COLUMNS.map((col) => item[col] ?? null);
  const before = JSON.stringify(cols.slice(0, FIRST_FIGURE_COLUMN));
  const after = JSON.stringify(cols.slice(FIRST_FIGURE_COLUMN + FIGURE_COLUMNS));
  return { head: `${before.slice(0, -1)},`, tail: after === '[]' ? ']' : `,${after.slice(1)}` };
}
