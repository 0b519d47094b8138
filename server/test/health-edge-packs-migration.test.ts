// Upgrading a database that already has the summary's edges (migration 0036): every edge instant
// gets its pack, built from its rows, in the form the summary reads (edgePacks.ts), and the ranges
// read from the packs give the figures the rows hold; the edge job then keeps them up to date.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '../src/db/database.js';
import { loadMigrations, migrate } from '../src/db/migrate.js';
import { RANGE_FIELDS, RangeField, readRangeEdges } from '../src/health/edgePacks.js';
import { buildSketchEdges } from '../src/health/edgeJob.js';
import { addDuration, emptySketch, encodeSketch } from '../src/health/sketchDense.js';
import { createPostgresDatabase, databaseKinds } from './helpers/databases.js';

const MIN = 60_000;

interface EdgeRow {
  check_id: string;
  total: number;
  passed: number;
  failed: number;
  duration_sum: number;
  last_pass: number | null;
  last_fail: number | null;
  sketch: Buffer;
}

describe.each(databaseKinds())('the edge packs of an existing database on %s', (kind) => {
  let db: Database;
  let drop = async () => {};
  const instants: number[] = [];
  const rows = new Map<number, EdgeRow[]>();

  beforeAll(async () => {
    if (kind === 'pglite') db = await openPglite(undefined);
    else {
      const created = await createPostgresDatabase();
      drop = created.drop;
      db = await openPostgres(created.url, 2);
    }
    await migrate(
      db,
      loadMigrations().filter((m) => m.name < '0036'),
    );
    const { rows: canary } = await db.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec) VALUES ('packs', 'team-p', '{}') RETURNING id::text`,
    );
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const { rows: c } = await db.query<{ id: string }>(
        `INSERT INTO checks (canary_id, type, name) VALUES ($1, 'http', $2) RETURNING id::text`,
        [canary[0]!.id, `check-${i}`],
      );
      ids.push(c[0]!.id);
    }
    // Edges as the job wrote them before: cumulative figures at a few instants, a check with no
    // runs yet at the first, one that never failed, one with an empty sketch (durations unknown).
    // A minute apart or more within the last 15 minutes (the grid keeps them all), the latest a
    // minute or more ago (the job has a new instant to write).
    const latest = Math.floor(Date.now() / MIN) * MIN - MIN;
    for (let k = 0; k < 4; k++) instants.push(latest - (3 - k) * 3 * MIN);
    for (const [k, at] of instants.entries()) {
      const edges: EdgeRow[] = [];
      ids.forEach((id, i) => {
        if (i === 0 && k === 0) return;
        const total = 10 * (k + 1) + i;
        const failed = i === 1 ? 0 : k + (i % 3);
        const sketch = emptySketch();
        if (i !== 2) for (let d = 0; d < total; d++) addDuration(sketch, 20 + ((d * 37 + i) % 400));
        edges.push({
          check_id: id,
          total,
          passed: total - failed,
          failed,
          duration_sum: 1_000 * total + i,
          last_pass: at - 1_000 - i,
          last_fail: failed ? at - 90_000 - i : null,
          sketch: encodeSketch(sketch),
        });
      });
      rows.set(at, edges);
      await db.query(`INSERT INTO check_sketch_edge_times (at) VALUES ($1)`, [new Date(at)]);
      for (const e of edges)
        await db.query(
          `INSERT INTO check_sketch_edges (at, check_id, total, passed, failed, duration_sum, last_pass, last_fail, sketch)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            new Date(at),
            e.check_id,
            e.total,
            e.passed,
            e.failed,
            e.duration_sum,
            e.last_pass === null ? null : new Date(e.last_pass),
            e.last_fail === null ? null : new Date(e.last_fail),
            e.sketch,
          ],
        );
    }
    await db.query(`UPDATE check_sketch_state SET built_to = $1, origin = $2, seq = 0`, [
      new Date(latest),
      new Date(instants[0]! - MIN),
    ]);
    expect(await migrate(db)).toEqual(
      loadMigrations()
        .filter((m) => m.name >= '0036')
        .map((m) => m.name),
    );
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await drop();
  });

  it('gives every instant a pack that reads back as its rows', async () => {
    const { rows: packs } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM check_sketch_edge_packs`);
    expect(packs[0]!.n).toBe(instants.length);
    for (const [k, at] of instants.entries()) {
      const start = k > 0 ? new Date(instants[k - 1]!) : null;
      const read = (await readRangeEdges(db, { end: new Date(at), start, latest: null, hour: null }))!;
      const expected = [...rows.get(at)!].sort((a, b) => (a.check_id < b.check_id ? -1 : 1));
      expect(read.ids).toEqual(expected.map((e) => e.check_id));
      const before = new Map((start ? rows.get(start.getTime())! : []).map((e) => [e.check_id, e]));
      expected.forEach((e, i) => {
        const n = Array.from(read.n.subarray(i * RANGE_FIELDS, (i + 1) * RANGE_FIELDS));
        const s = before.get(e.check_id);
        expect(n[RangeField.Passed], e.check_id).toBe(e.passed);
        expect(n[RangeField.Failed]).toBe(e.failed);
        expect(n[RangeField.LastPass]).toBe(e.last_pass);
        expect(n[RangeField.LastFail]).toBe(e.last_fail ?? -1);
        expect(n[RangeField.StartPassed]).toBe(s?.passed ?? 0);
        expect(n[RangeField.StartFailed]).toBe(s?.failed ?? 0);
        // The end is the latest: its own total and duration sum.
        expect([n[RangeField.LatestTotal], n[RangeField.LatestSum]]).toEqual([e.total, e.duration_sum]);
        const sketchAt = (j: number, len: number) => (j < 0 ? Buffer.alloc(0) : read.b.subarray(j, j + len));
        expect(sketchAt(read.at[2 * i]!, e.sketch.length)).toEqual(e.sketch.length ? e.sketch : Buffer.alloc(0));
        if (s)
          expect(sketchAt(read.at[2 * i + 1]!, s.sketch.length)).toEqual(s.sketch.length ? s.sketch : Buffer.alloc(0));
        else expect(read.at[2 * i + 1]).toBe(-1);
      });
    }
  });

  it('keeps the packs with their rows when the edge job writes the next instants', async () => {
    const { rows: ids } = await db.query<{ id: string }>(`SELECT id::text FROM checks ORDER BY name LIMIT 1`);
    const { rows: st } = await db.query<{ built_to: string }>(`SELECT built_to FROM check_sketch_state`);
    await db.query(`INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, $2, true, 42)`, [
      ids[0]!.id,
      new Date(new Date(st[0]!.built_to).getTime() + 1_000),
    ]);
    const job = await buildSketchEdges(db);
    expect(job.ran).toBe(true);
    expect(job.points).toBeGreaterThan(0);
    const { rows: check } = await db.query<{ times: number; packs: number; differ: number }>(
      `SELECT (SELECT count(*)::int FROM check_sketch_edge_times) AS times,
              (SELECT count(*)::int FROM check_sketch_edge_packs) AS packs,
              (SELECT count(*)::int FROM check_sketch_edge_packs p, check_sketch_edge_pack(p.at) q
                WHERE p.heads <> q.heads OR p.sketches <> q.sketches) AS differ`,
    );
    expect(check[0]!.packs).toBe(check[0]!.times);
    expect(check[0]!.times).toBeGreaterThan(instants.length);
    expect(check[0]!.differ).toBe(0);
  }, 120_000);
});
