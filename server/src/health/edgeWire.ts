// Reading many edges (or runs) fast: PostgreSQL packs every row into one bytea (string_agg of the
// columns' binary send forms), which arrives as one buffer instead of 10,000 rows of text for the
// driver to parse; the server walks it with a DataView. Measured at 10,000 checks: one edge
// instant in ~20 ms instead of ~150 ms row by row (bench/README.md, health-sketch).
import type { Queryable } from '../db/database.js';
import { decodeSketch, emptySketch } from './sketchDense.js';
import type { EdgeState } from './edges.js';

/** A uuid's 16 bytes as its text form. */
function uuidAt(b: Uint8Array, p: number): string {
  let h = '';
  for (let i = 0; i < 16; i++) {
    h += HEX[b[p + i]!]!;
    if (i === 3 || i === 5 || i === 7 || i === 9) h += '-';
  }
  return h;
}
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

const bytesOf = (v: unknown): Uint8Array => (v instanceof Uint8Array ? v : new Uint8Array(0));
const msOrNull = (v: number) => (v < 0 ? null : v);
/** A timestamptz as whole milliseconds since the epoch (-1 for null), int8send'able. */
const msSql = (col: string) => `int8send(coalesce(floor(extract(epoch FROM ${col}) * 1000)::int8, -1))`;

/**
 * The edges at one instant: with their sketches decoded (`sketch`), kept as stored bytes to walk
 * (`packed`, edgeFigures), or without (`scalars`).
 */
export async function readEdgesPacked(
  db: Queryable,
  at: Date,
  mode: 'sketch' | 'packed' | 'scalars',
): Promise<Map<string, EdgeState>> {
  const scalars = mode === 'scalars';
  const { rows } = await db.query<{ b: unknown }>(
    `SELECT string_agg(uuid_send(check_id) || int8send(total) || int8send(passed) || int8send(failed)
       || int8send(duration_sum) || ${msSql('last_pass')} || ${msSql('last_fail')}
       || ${scalars ? `int4send(0)` : `int4send(octet_length(sketch)) || sketch`}, ''::bytea) AS b
     FROM check_sketch_edges WHERE at = $1`,
    [at],
  );
  const b = bytesOf(rows[0]?.b);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = new Map<string, EdgeState>();
  let p = 0;
  while (p < b.length) {
    const id = uuidAt(b, p);
    p += 16;
    const n = (k: number) => Number(v.getBigInt64(p + 8 * k));
    const e: EdgeState = {
      total: n(0),
      passed: n(1),
      failed: n(2),
      durationSum: n(3),
      lastPass: msOrNull(n(4)),
      lastFail: msOrNull(n(5)),
      sketch: emptySketch(),
    };
    p += 48;
    const len = v.getInt32(p);
    p += 4;
    if (len > 0 && mode === 'sketch') e.sketch = decodeSketch(b.subarray(p, p + len));
    else if (len > 0) e.packed = b.subarray(p, p + len);
    p += len;
    out.set(id, e);
  }
  return out;
}

export interface PackedRun {
  check_id: string;
  time: number;
  status: boolean;
  duration: number;
}

/** The runs timed at or after `from` (all checks). */
export async function readRunsPacked(db: Queryable, from: Date): Promise<PackedRun[]> {
  const { rows } = await db.query<{ b: unknown }>(
    `SELECT string_agg(uuid_send(check_id) || ${msSql('time')} || CASE WHEN status THEN '\\x01'::bytea ELSE '\\x00'::bytea END
       || int4send(duration), ''::bytea) AS b
     FROM check_statuses WHERE time >= $1`,
    [from],
  );
  const b = bytesOf(rows[0]?.b);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: PackedRun[] = [];
  for (let p = 0; p < b.length; p += 29) {
    out.push({
      check_id: uuidAt(b, p),
      time: Number(v.getBigInt64(p + 16)),
      status: b[p + 24] === 1,
      duration: v.getInt32(p + 25),
    });
  }
  return out;
}
