// Reading many edges (or runs) fast, as binary instead of 10,000 rows of text for the driver to
// parse. On PostgreSQL the rows come by binary COPY (db/copyOut.ts: int8, timestamptz and bytea in
// their binary forms); PGlite, which has no COPY to a client, packs every row into one bytea
// (string_agg of the columns' send forms) sent as base64. Both are walked in place. Measured at
// 10,000 checks: a range's edges in 80–88 ms by COPY, 112–133 ms as base64, ~150 ms row by row
// (bench/README.md, health-sketch).
import type { Queryable } from '../db/database.js';
import { CopyReader, timestampLiteral } from '../db/copyOut.js';
import { decodeSketch, emptySketch } from './sketchDense.js';
import { keyOf } from './sketch.js';
import type { EdgeState } from './edges.js';
import { Slices } from '../jobs/slices.js';

/** A uuid's 16 bytes (at p) as its text form. */
function uuidAt(b: Buffer, p: number): string {
  const h = b.toString('hex', p, p + 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The packed bytes, sent as base64 text (a third smaller than bytea's hex; newlines are skipped). */
const bytesOf = (v: unknown): Buffer => (typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0));
/** The sketch of the runs since the latest edge, which are read as keys instead (never changed). */
const NO_SKETCH = emptySketch();
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

async function copyOut(db: Queryable, kind: keyof typeof lastBytes, sql: string): Promise<Buffer> {
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

/** The runs since the latest edge, per check: all of them (for rolling1h), and those up to a range's end. */
export interface RecentRuns {
  n: number;
  durationSum: number;
  /** The runs timed at or before the range's end, as figures to add to its end edge. */
  inRange: EdgeState;
  /** Their duration bins, highest first (a sketch source, sketchDense.ts). */
  keys: number[];
}

/** The runs timed at or after `from`, per check, those after `end` counted only in n and durationSum. */
export function readRecentRuns(
  db: Queryable,
  from: Date,
  end: Date,
  slices = new Slices(),
): Promise<Map<string, RecentRuns>> {
  return db.copyOut ? readRecentCopy(db, from, end, slices) : readRecentBase64(db, from, end, slices);
}

/** One check's runs since the latest edge, from its counts and its in-range durations (4 bytes each at b[q]). */
function recentRuns(
  n: number,
  durationSum: number,
  inN: number,
  passed: number,
  lastPass: number,
  lastFail: number,
  b: Buffer,
  q: number,
): RecentRuns {
  const keys: number[] = [];
  let durationIn = 0;
  for (let i = 0; i < inN; i++) {
    const d = b.readInt32BE(q + 4 * i);
    durationIn += d;
    keys.push(keyOf(d));
  }
  keys.sort((x, y) => y - x);
  return {
    n,
    durationSum,
    inRange: {
      total: inN,
      passed,
      failed: inN - passed,
      durationSum: durationIn,
      lastPass: msOrNull(lastPass),
      lastFail: msOrNull(lastFail),
      sketch: NO_SKETCH,
    },
    keys,
  };
}

async function readRecentCopy(db: Queryable, from: Date, end: Date, slices: Slices): Promise<Map<string, RecentRuns>> {
  const upTo = `time <= ${timestampLiteral(end)}`;
  const r = new CopyReader(
    await copyOut(
      db,
      'recent',
      `COPY (SELECT check_id::text, count(*)::int8, coalesce(sum(duration), 0)::int8,
         (count(*) FILTER (WHERE ${upTo}))::int8, (count(*) FILTER (WHERE ${upTo} AND status))::int8,
         max(time) FILTER (WHERE ${upTo} AND status), max(time) FILTER (WHERE ${upTo} AND NOT status),
         string_agg(int4send(duration), ''::bytea) FILTER (WHERE ${upTo})
       FROM check_statuses WHERE time >= ${timestampLiteral(from)} GROUP BY check_id) TO STDOUT (FORMAT binary)`,
    ),
  );
  const out = new Map<string, RecentRuns>();
  while (r.tuple() >= 0) {
    if (slices.due()) await slices.pause();
    const id = r.text(r.field());
    const n = r.int8(r.field(), 0);
    const sum = r.int8(r.field(), 0);
    const inN = r.int8(r.field(), 0);
    const passed = r.int8(r.field(), 0);
    const lastPass = r.ms(r.field());
    const lastFail = r.ms(r.field());
    r.field();
    out.set(id, recentRuns(n, sum, inN, passed, lastPass, lastFail, r.b, r.p));
  }
  return out;
}

async function readRecentBase64(
  db: Queryable,
  from: Date,
  end: Date,
  slices: Slices,
): Promise<Map<string, RecentRuns>> {
  const upTo = `time <= $2`;
  const { rows } = await db.query<{ ids: unknown; b: unknown }>(
    `SELECT string_agg(id, ',') AS ids, encode(string_agg(x, ''::bytea), 'base64') AS b FROM (
       SELECT check_id::text AS id, int4send(count(*)::int) || int8send(coalesce(sum(duration), 0)::int8)
         || int4send((count(*) FILTER (WHERE ${upTo}))::int) || int4send((count(*) FILTER (WHERE ${upTo} AND status))::int)
         || ${msSql(`max(time) FILTER (WHERE ${upTo} AND status)`)} || ${msSql(`max(time) FILTER (WHERE ${upTo} AND NOT status)`)}
         || coalesce(string_agg(int4send(duration), ''::bytea) FILTER (WHERE ${upTo}), ''::bytea) AS x
       FROM check_statuses WHERE time >= $1 GROUP BY check_id
     ) t`,
    [from, end],
  );
  const ids = idsOf(rows[0]?.ids);
  const b = bytesOf(rows[0]?.b);
  const out = new Map<string, RecentRuns>();
  let p = 0;
  for (const id of ids) {
    if (slices.due()) await slices.pause();
    const inN = b.readInt32BE(p + 12);
    const q = p + 36;
    out.set(
      id,
      recentRuns(b.readInt32BE(p), int8(b, p + 4), inN, b.readInt32BE(p + 16), int8(b, p + 20), int8(b, p + 28), b, q),
    );
    p = q + 4 * inN;
  }
  return out;
}

/**
 * The ids of the checks in a packed read, in the buffer's order: one text column aggregated beside
 * the bytes (both aggregates read the rows in one order), split once instead of 10,000 uuids
 * formatted from bytes.
 */
const idsOf = (v: unknown): string[] => (typeof v === 'string' && v ? v.split(',') : []);

/** The numbers of a check in RangeEdges.n, in this order. */
export const enum RangeField {
  /** The end edge's passed, failed, last pass and last failure (ms, -1: none). */
  Passed,
  Failed,
  LastPass,
  LastFail,
  /** The start edge's passed and failed (0: no start edge). */
  StartPassed,
  StartFailed,
  /** Total and duration sum at the latest edge, and at the edge an hour ago (for rolling1h). */
  LatestTotal,
  LatestSum,
  HourTotal,
  HourSum,
}
export const RANGE_FIELDS = 10;

/**
 * A range's edges, one entry per check that has an end edge: `n` holds RANGE_FIELDS numbers per
 * check (RangeField), `at` the offsets in `b` of its end and start sketches (-1: none or empty).
 */
export interface RangeEdges {
  ids: string[];
  n: Float64Array;
  at: Int32Array;
  b: Buffer;
}

/**
 * A range's edges: at `end`, at `start` (null: from the first run), at `latest` (the latest edge;
 * null: the end is the latest) and at `hour`. On PostgreSQL one binary COPY of the joined rows; on
 * PGlite one packed base64 value (no COPY there).
 */
export function readRangeEdges(db: Queryable, at: RangeInstants): Promise<RangeEdges> {
  return db.copyOut ? readRangeCopy(db, at) : readRangeBase64(db, at);
}

/** The edge instants a range's figures read (see readRangeEdges). */
export interface RangeInstants {
  end: Date;
  start: Date | null;
  latest: Date | null;
  hour: Date | null;
}

async function readRangeCopy(db: Queryable, { end, start, latest, hour }: RangeInstants): Promise<RangeEdges> {
  const join = (alias: string, at: Date | null) =>
    at
      ? `LEFT JOIN check_sketch_edges ${alias} ON ${alias}.at = ${timestampLiteral(at)} AND ${alias}.check_id = e.check_id`
      : '';
  const data = await copyOut(
    db,
    'range',
    `COPY (SELECT e.check_id::text, e.passed, e.failed, e.last_pass, e.last_fail,
       ${start ? 's.passed, s.failed' : 'NULL::int8, NULL::int8'},
       ${latest ? 'l.total, l.duration_sum' : 'e.total, e.duration_sum'},
       ${hour ? 'h.total, h.duration_sum' : 'NULL::int8, NULL::int8'},
       e.sketch, ${start ? 's.sketch' : 'NULL::bytea'}
     FROM check_sketch_edges e ${join('s', start)} ${join('l', latest)} ${join('h', hour)}
     WHERE e.at = ${timestampLiteral(end)}) TO STDOUT (FORMAT binary)`,
  );
  const r = new CopyReader(data);
  const ids: string[] = [];
  let n = new Float64Array(RANGE_FIELDS * 1024);
  let at = new Int32Array(2 * 1024);
  for (let i = 0; r.tuple() >= 0; i++) {
    if (ids.length * RANGE_FIELDS >= n.length) {
      const grownN = new Float64Array(n.length * 2);
      grownN.set(n);
      n = grownN;
      const grownAt = new Int32Array(at.length * 2);
      grownAt.set(at);
      at = grownAt;
    }
    ids.push(r.text(r.field()));
    const o = i * RANGE_FIELDS;
    n[o + RangeField.Passed] = r.int8(r.field(), 0);
    n[o + RangeField.Failed] = r.int8(r.field(), 0);
    n[o + RangeField.LastPass] = r.ms(r.field());
    n[o + RangeField.LastFail] = r.ms(r.field());
    for (let k = RangeField.StartPassed; k <= RangeField.HourSum; k++) n[o + k] = r.int8(r.field(), 0);
    for (let k = 0; k < 2; k++) at[2 * i + k] = r.field() > 0 ? r.p : -1;
  }
  return { ids, n: n.subarray(0, ids.length * RANGE_FIELDS), at: at.subarray(0, ids.length * 2), b: data };
}

async function readRangeBase64(db: Queryable, { end, start, latest, hour }: RangeInstants): Promise<RangeEdges> {
  const { rows } = await db.query<{ ids: unknown; b: unknown }>(
    `SELECT string_agg(e.check_id::text, ',') AS ids, encode(string_agg(int8send(e.passed) || int8send(e.failed)
       || ${msSql('e.last_pass')} || ${msSql('e.last_fail')}
       || int8send(coalesce(s.passed, 0)) || int8send(coalesce(s.failed, 0))
       || int8send(CASE WHEN $3::timestamptz IS NULL THEN e.total ELSE coalesce(l.total, 0) END)
       || int8send(CASE WHEN $3::timestamptz IS NULL THEN e.duration_sum ELSE coalesce(l.duration_sum, 0) END)
       || int8send(coalesce(h.total, 0)) || int8send(coalesce(h.duration_sum, 0))
       || int4send(octet_length(e.sketch)) || e.sketch
       || int4send(coalesce(octet_length(s.sketch), 0)) || coalesce(s.sketch, ''::bytea), ''::bytea), 'base64') AS b
     FROM check_sketch_edges e
     LEFT JOIN check_sketch_edges s ON s.at = $2 AND s.check_id = e.check_id
     LEFT JOIN check_sketch_edges l ON l.at = $3 AND l.check_id = e.check_id
     LEFT JOIN check_sketch_edges h ON h.at = $4 AND h.check_id = e.check_id
     WHERE e.at = $1`,
    [end, start, latest, hour],
  );
  const ids = idsOf(rows[0]?.ids);
  const b = bytesOf(rows[0]?.b);
  const n = new Float64Array(ids.length * RANGE_FIELDS);
  const at = new Int32Array(ids.length * 2);
  let p = 0;
  for (let i = 0; i < ids.length; i++) {
    for (let k = 0; k < RANGE_FIELDS; k++) n[i * RANGE_FIELDS + k] = int8(b, p + 8 * k);
    p += 8 * RANGE_FIELDS;
    for (let k = 0; k < 2; k++) {
      const len = b.readInt32BE(p);
      at[2 * i + k] = len > 0 ? p + 4 : -1;
      p += 4 + len;
    }
  }
  return { ids, n, at, b };
}

export { int8, msOrNull };
