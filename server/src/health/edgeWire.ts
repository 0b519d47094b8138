// Reading many edges (or runs) fast, as binary instead of 10,000 rows of text for the driver to
// parse. On PostgreSQL the rows come by binary COPY (db/copyOut.ts: int8, timestamptz and bytea in
// their binary forms) and are walked in place; a connection without it (PGlite's, and the tests'
// check of the COPY path) gets every row packed into one bytea (string_agg of the columns' send
// forms) sent as base64. Here: an instant's edges for the edge job, and the runs since the latest
// edge for a range's figures; a range's edges are read from the instants' packs (edgePacks.ts).
import type { Queryable } from '../db/database.js';
import { CopyReader, timestampLiteral } from '../db/copyOut.js';
import { decodeSketch, emptySketch } from './sketchDense.js';
import { keyOf } from './sketch.js';
import type { EdgeState } from './edges.js';
import { Slices } from '../jobs/slices.js';

const HEX = Buffer.from('0123456789abcdef');
const UUID_TEXT = Buffer.alloc(36, '-');
/** A uuid's 16 bytes (at p) as its text form, written into one scratch buffer (one string made). */
function uuidAt(b: Buffer, p: number): string {
  let o = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) o++;
    const x = b[p + i]!;
    UUID_TEXT[o++] = HEX[x >> 4]!;
    UUID_TEXT[o++] = HEX[x & 15]!;
  }
  return UUID_TEXT.toString('latin1', 0, 36);
}

/** The packed bytes, sent as base64 text (a third smaller than bytea's hex; newlines are skipped). */
const bytesOf = (v: unknown): Buffer => (typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0));
const msOrNull = (v: number) => (v < 0 ? null : v);
/** An int8send value as a number (exact below 2^53), without a BigInt. */
const int8 = (b: Buffer, p: number) => b.readInt32BE(p) * 4294967296 + b.readUInt32BE(p + 4);
/** A timestamptz as whole milliseconds since the epoch (-1 for null), int8send'able. */
const msSql = (col: string) => `int8send(coalesce(floor(extract(epoch FROM ${col}) * 1000)::int8, -1))`;

/** The edges at one instant, with their sketches decoded (the job adds the runs since to them). */
export function readEdges(db: Queryable, at: Date, slices = new Slices()): Promise<Map<string, EdgeState>> {
  return db.copyOut ? readEdgesCopy(db, at, slices) : readEdgesBase64(db, at, slices);
}

/** How many bytes each kind of binary COPY read was the last time: the next one's buffer is sized so. */
const lastBytes = { edges: 0, recent: 0, range: 0 };

export async function copyOut(db: Queryable, kind: keyof typeof lastBytes, sql: string): Promise<Buffer> {
  const data = await db.copyOut!(sql, lastBytes[kind]);
  lastBytes[kind] = data.length;
  return data;
}

async function readEdgesCopy(db: Queryable, at: Date, slices: Slices): Promise<Map<string, EdgeState>> {
  const r = new CopyReader(
    await copyOut(
      db,
      'edges',
      `COPY (SELECT check_id::text, total, passed, failed, duration_sum, last_pass, last_fail, sketch
       FROM check_sketch_edges WHERE at = ${timestampLiteral(at)}) TO STDOUT (FORMAT binary)`,
    ),
  );
  const out = new Map<string, EdgeState>();
  while (r.tuple() >= 0) {
    if (slices.due()) await slices.pause();
    const id = r.text(r.field());
    const e: EdgeState = {
      total: r.int8(r.field(), 0),
      passed: r.int8(r.field(), 0),
      failed: r.int8(r.field(), 0),
      durationSum: r.int8(r.field(), 0),
      lastPass: msOrNull(r.ms(r.field())),
      lastFail: msOrNull(r.ms(r.field())),
      sketch: r.field() > 0 ? decodeSketch(r.b, r.p) : emptySketch(),
    };
    out.set(id, e);
  }
  return out;
}

async function readEdgesBase64(db: Queryable, at: Date, slices: Slices): Promise<Map<string, EdgeState>> {
  const { rows } = await db.query<{ b: unknown }>(
    `SELECT encode(string_agg(uuid_send(check_id) || int8send(total) || int8send(passed) || int8send(failed)
       || int8send(duration_sum) || ${msSql('last_pass')} || ${msSql('last_fail')}
       || int4send(octet_length(sketch)) || sketch, ''::bytea), 'base64') AS b
     FROM check_sketch_edges WHERE at = $1`,
    [at],
  );
  const b = bytesOf(rows[0]?.b);
  const out = new Map<string, EdgeState>();
  let p = 0;
  while (p < b.length) {
    if (slices.due()) await slices.pause();
    const id = uuidAt(b, p);
    p += 16;
    const e: EdgeState = {
      total: int8(b, p),
      passed: int8(b, p + 8),
      failed: int8(b, p + 16),
      durationSum: int8(b, p + 24),
      lastPass: msOrNull(int8(b, p + 32)),
      lastFail: msOrNull(int8(b, p + 40)),
      sketch: emptySketch(),
    };
    p += 48;
    const len = b.readInt32BE(p);
    p += 4;
    if (len > 0) e.sketch = decodeSketch(b, p);
    p += len;
    out.set(id, e);
  }
  return out;
}

/**
 * The runs since the latest edge, per check in check_id order (as in the packs), as columns: all of
 * them (`n`, `durationSum`: for rolling1h) and those timed up to a range's end (`in*`: added to its
 * end edge). Check k's uuid is at b[uuid[k]]; the bins of its in-range durations, highest first (a
 * sketch source, sketchDense.ts), are keys[keyAt[k]] up to keys[keyAt[k + 1]].
 */
export interface RecentRuns {
  count: number;
  b: Buffer;
  uuid: Int32Array;
  n: Float64Array;
  durationSum: Float64Array;
  inN: Float64Array;
  inPassed: Float64Array;
  /** Milliseconds since the epoch, -1: none. */
  inLastPass: Float64Array;
  inLastFail: Float64Array;
  keyAt: Int32Array;
  keys: Int32Array;
}

/** The runs timed at or after `from`, per check, those after `end` counted only in n and durationSum. */
export async function readRecentRuns(db: Queryable, from: Date, end: Date): Promise<RecentRuns> {
  const upTo = `time <= ${timestampLiteral(end)}`;
  const sql = `COPY (SELECT check_id, count(*)::int8, coalesce(sum(duration), 0)::int8,
       (count(*) FILTER (WHERE ${upTo}))::int8, (count(*) FILTER (WHERE ${upTo} AND status))::int8,
       max(time) FILTER (WHERE ${upTo} AND status), max(time) FILTER (WHERE ${upTo} AND NOT status),
       string_agg(int4send(duration), ''::bytea) FILTER (WHERE ${upTo})
     FROM check_statuses WHERE time >= ${timestampLiteral(from)} GROUP BY check_id ORDER BY check_id) TO STDOUT (FORMAT binary)`;
  const data = db.copyOut ? await copyOut(db, 'recent', sql) : db.copyOutBlob ? await db.copyOutBlob(sql) : undefined;
  if (data) {
    // Once to count (the columns' sizes), once to fill them.
    let r = new CopyReader(data);
    let count = 0;
    let durations = 0;
    while (r.tuple() >= 0) {
      count++;
      for (let f = 0; f < 8; f++) {
        const len = r.field();
        if (f === 7 && len > 0) durations += len / 4;
      }
    }
    const out = recentColumns(data, count, durations);
    r = new CopyReader(data);
    for (let k = 0; r.tuple() >= 0; k++) {
      r.field();
      out.uuid[k] = r.p;
      out.n[k] = r.int8(r.field(), 0);
      out.durationSum[k] = r.int8(r.field(), 0);
      out.inN[k] = r.int8(r.field(), 0);
      out.inPassed[k] = r.int8(r.field(), 0);
      out.inLastPass[k] = r.ms(r.field());
      out.inLastFail[k] = r.ms(r.field());
      const len = r.field();
      addDurations(out, k, r.b, r.p, Math.max(len, 0) / 4);
    }
    return out;
  }
  // A connection without binary COPY: the same as one packed value, each check's numbers at fixed
  // offsets (RECENT_HEAD below) then its in-range durations.
  const upToParam = `time <= $2`;
  const { rows } = await db.query<{ b: unknown }>(
    `SELECT encode(string_agg(x, ''::bytea ORDER BY id), 'base64') AS b FROM (
       SELECT check_id AS id, uuid_send(check_id) || int4send(count(*)::int) || int8send(coalesce(sum(duration), 0)::int8)
         || int4send((count(*) FILTER (WHERE ${upToParam}))::int) || int4send((count(*) FILTER (WHERE ${upToParam} AND status))::int)
         || ${msSql(`max(time) FILTER (WHERE ${upToParam} AND status)`)} || ${msSql(`max(time) FILTER (WHERE ${upToParam} AND NOT status)`)}
         || coalesce(string_agg(int4send(duration), ''::bytea) FILTER (WHERE ${upToParam}), ''::bytea) AS x
       FROM check_statuses WHERE time >= $1 GROUP BY check_id
     ) t`,
    [from, end],
  );
  const b = bytesOf(rows[0]?.b);
  let count = 0;
  let durations = 0;
  for (let p = 0; p < b.length; p += RECENT_HEAD + 4 * b.readInt32BE(p + 28)) {
    count++;
    durations += b.readInt32BE(p + 28);
  }
  const out = recentColumns(b, count, durations);
  for (let k = 0, p = 0; k < count; k++) {
    const inN = b.readInt32BE(p + 28);
    out.uuid[k] = p;
    out.n[k] = b.readInt32BE(p + 16);
    out.durationSum[k] = int8(b, p + 20);
    out.inN[k] = inN;
    out.inPassed[k] = b.readInt32BE(p + 32);
    out.inLastPass[k] = int8(b, p + 36);
    out.inLastFail[k] = int8(b, p + 44);
    addDurations(out, k, b, p + RECENT_HEAD, inN);
    p += RECENT_HEAD + 4 * inN;
  }
  return out;
}

/** A check's numbers in the packed form of readRecentRuns: uuid, n, sum, in-range n and passed, two times. */
const RECENT_HEAD = 16 + 4 + 8 + 4 + 4 + 8 + 8;

function recentColumns(b: Buffer, count: number, durations: number): RecentRuns {
  const col = () => new Float64Array(count);
  return {
    count,
    b,
    uuid: new Int32Array(count),
    n: col(),
    durationSum: col(),
    inN: col(),
    inPassed: col(),
    inLastPass: col(),
    inLastFail: col(),
    keyAt: new Int32Array(count + 1),
    keys: new Int32Array(durations),
  };
}

/** Check k's in-range durations (`count` int4 at b[p]) as their bins, highest first. */
function addDurations(out: RecentRuns, k: number, b: Buffer, p: number, count: number): void {
  const from = out.keyAt[k]!;
  for (let i = 0; i < count; i++) {
    const d = b.readInt32BE(p + 4 * i);
    // Insertion, highest first (a check has a minute or two of runs here).
    const key = keyOf(d);
    let j = from + i;
    while (j > from && out.keys[j - 1]! < key) {
      out.keys[j] = out.keys[j - 1]!;
      j--;
    }
    out.keys[j] = key;
  }
  out.keyAt[k + 1] = from + count;
}

export { bytesOf, int8, msOrNull, uuidAt };
