// A range's edges from the packs of its instants (migration 0036): each instant's edges as two
// values in check_id order, `heads` (64 bytes per check) and `sketches`, so a range reads three or
// four rows whatever the number of checks, and merges them here on the checks' uuids. At 10,000
// checks a custom range's edges arrived in 10–14 ms instead of 38–49 ms as joined rows, both by
// binary COPY (bench/README.md, health-sketch, nineteenth session).
import type { Queryable } from '../db/database.js';
import { CopyReader, timestampLiteral } from '../db/copyOut.js';
import { bytesOf, copyOut, int8, uuidAt } from './edgeWire.js';

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
  /** Where each check's uuid is in `b` (they are in check_id order). */
  uuid: Int32Array;
  n: Float64Array;
  at: Int32Array;
  b: Buffer;
}

/**
 * A range's edges: at `end`, at `start` (null: from the first run), at `latest` (the latest edge;
 * null: the end is the latest) and at `hour`, from their instants' packs (migration 0036: the
 * sketches of the two ends only), merged here on the checks' uuids (each pack is in check_id
 * order). Undefined when an asked instant has no pack (pruned since the caller read the instants).
 */
export async function readRangeEdges(db: Queryable, i: RangeInstants): Promise<RangeEdges | undefined> {
  const asked = [i.end, i.start, i.latest, i.hour];
  const { b, at } = await readPacks(db, asked, 2);
  if (asked.some((t, k) => t !== null && at[4 * k]! < 0)) return undefined;
  const count = Math.max(0, (at[1]! - at[0]!) / HEAD);
  const ids: string[] = new Array<string>(count);
  const uuid = new Int32Array(count);
  const n = new Float64Array(count * RANGE_FIELDS);
  const sk = new Int32Array(2 * count);
  const end = new PackCursor(b, at, 0);
  const start = new PackCursor(b, at, 1);
  const latest = new PackCursor(b, at, 2);
  const hour = new PackCursor(b, at, 3);
  for (let k = 0; k < count; k++) {
    const p = end.h;
    ids[k] = uuidAt(b, p);
    uuid[k] = p;
    const o = k * RANGE_FIELDS;
    n[o + RangeField.Passed] = int8(b, p + Head.Passed);
    n[o + RangeField.Failed] = int8(b, p + Head.Failed);
    n[o + RangeField.LastPass] = int8(b, p + Head.LastPass);
    n[o + RangeField.LastFail] = int8(b, p + Head.LastFail);
    const s = start.seek(p);
    n[o + RangeField.StartPassed] = s ? int8(b, start.h + Head.Passed) : 0;
    n[o + RangeField.StartFailed] = s ? int8(b, start.h + Head.Failed) : 0;
    const l = i.latest ? (latest.seek(p) ? latest.h : -1) : p;
    n[o + RangeField.LatestTotal] = l < 0 ? 0 : int8(b, l + Head.Total);
    n[o + RangeField.LatestSum] = l < 0 ? 0 : int8(b, l + Head.DurationSum);
    const h = hour.seek(p);
    n[o + RangeField.HourTotal] = h ? int8(b, hour.h + Head.Total) : 0;
    n[o + RangeField.HourSum] = h ? int8(b, hour.h + Head.DurationSum) : 0;
    sk[2 * k] = end.sketch();
    sk[2 * k + 1] = s ? start.sketch() : -1;
    end.next();
  }
  return { ids, uuid, n, at: sk, b };
}

/** The edge instants a range's figures read (see readRangeEdges). */
export interface RangeInstants {
  end: Date;
  start: Date | null;
  latest: Date | null;
  hour: Date | null;
}

/** A pack's head per check (migration 0036): its uuid, then six int8 at these offsets. */
const HEAD = 64;
const enum Head {
  Total = 16,
  Passed = 24,
  Failed = 32,
  DurationSum = 40,
  LastPass = 48,
  LastFail = 56,
}

/** The uuids at a[p] and b[q] compared as PostgreSQL orders them (their bytes): <0, 0 or >0. */
export function compareUuid(a: Buffer, p: number, b: Buffer, q: number): number {
  for (let i = 0; i < 16; i += 4) {
    const d = a.readUInt32BE(p + i) - b.readUInt32BE(q + i);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * A walk along one instant's pack (readPacks' k-th), for checks asked in increasing uuid order:
 * `h` is the current head, and its sketch (when read) is at `s` (length, then bytes).
 */
class PackCursor {
  h: number;
  private readonly hEnd: number;
  private s: number;

  constructor(
    private readonly b: Buffer,
    at: Int32Array,
    k: number,
  ) {
    this.h = at[4 * k]!;
    this.hEnd = this.h < 0 ? -1 : at[4 * k + 1]!;
    this.s = at[4 * k + 2]!;
  }

  /** To the next check. */
  next(): void {
    this.h += HEAD;
    if (this.s >= 0) this.s += 4 + this.b.readInt32BE(this.s);
  }

  /** Whether this pack has the check whose uuid is at b[q] (then at `h`). */
  seek(q: number): boolean {
    while (this.h < this.hEnd) {
      const d = compareUuid(this.b, this.h, this.b, q);
      if (d === 0) return true;
      if (d > 0) return false;
      this.next();
    }
    return false;
  }

  /** Where the current check's sketch starts, -1 when it is empty. */
  sketch(): number {
    return this.b.readInt32BE(this.s) > 0 ? this.s + 4 : -1;
  }
}

/**
 * The packs of some instants in one buffer, and where each lies in it: `at[4k]`, `at[4k + 1]`: the
 * k-th instant's heads [start, end), `at[4k + 2]`, `at[4k + 3]`: its sketches, read for the first
 * `withSketches` instants (-1: no instant, no pack or not read). On PostgreSQL by binary COPY, on
 * PGlite by its COPY to a blob, else (a connection without either) as base64.
 */
async function readPacks(
  db: Queryable,
  instants: ReadonlyArray<Date | null>,
  withSketches: number,
): Promise<{ b: Buffer; at: Int32Array }> {
  const list = instants.map((t) => (t ? timestampLiteral(t) : 'NULL::timestamptz')).join(', ');
  const from = `FROM unnest(ARRAY[${list}]) WITH ORDINALITY AS u(at, k) JOIN check_sketch_edge_packs p ON p.at = u.at`;
  const sketches = `CASE WHEN u.k <= ${withSketches} THEN p.sketches END`;
  const at = new Int32Array(4 * instants.length).fill(-1);
  const sql = `COPY (SELECT u.k::int4, p.heads, ${sketches} ${from}) TO STDOUT (FORMAT binary)`;
  const data = db.copyOut ? await copyOut(db, 'range', sql) : db.copyOutBlob ? await db.copyOutBlob(sql) : undefined;
  if (data) {
    const r = new CopyReader(data);
    while (r.tuple() >= 0) {
      const k = r.int4(r.field())! - 1;
      for (let c = 0; c < 2; c++) {
        const len = r.field();
        if (len < 0) continue;
        at[4 * k + 2 * c] = r.p;
        at[4 * k + 2 * c + 1] = r.p + len;
      }
    }
    return { b: data, at };
  }
  const { rows } = await db.query<{ k: number; h: unknown; s: unknown }>(
    `SELECT u.k::int4 AS k, encode(p.heads, 'base64') AS h, encode(${sketches}, 'base64') AS s ${from}`,
  );
  const parts: Buffer[] = [];
  let p = 0;
  for (const r of rows) {
    for (const [c, v] of [r.h, r.s].entries()) {
      if (typeof v !== 'string') continue;
      const part = bytesOf(v);
      parts.push(part);
      at[4 * (r.k - 1) + 2 * c] = p;
      p += part.length;
      at[4 * (r.k - 1) + 2 * c + 1] = p;
    }
  }
  return { b: Buffer.concat(parts), at };
}
