// The summary's edge job on several replicas (PostgreSQL: two connection pools stand for two
// replicas): a run that outlasts its lease is not joined by another replica. The run holds the
// state row locked in its transaction and a claim skips a locked row, so late runs (recorded after
// the latest edge, timed before it) are folded into the edges once, never twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../src/db/database.js';
import { buildSketchEdges } from '../src/health/edgeJob.js';
import { openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { createSummaryChecks, MIN, writeRuns, type Run } from './helpers/summaryFigures.js';

describe.skipIf(!process.env.TEST_DATABASE_URL)('the edge job on two replicas (PostgreSQL)', () => {
  let test: TestDatabase;
  let a: Database;
  let b: Database;
  let ids: Record<string, string>;
  const now = Date.now();

  beforeAll(async () => {
    test = await openTestDatabase('postgres');
    a = await openPostgres(test.url!, 3);
    b = await openPostgres(test.url!, 3);
    ids = await createSummaryChecks(test.db, 'lease');
    const runs: Run[] = [];
    for (let t = now - 30 * MIN; t < now - 2 * MIN; t += MIN) runs.push({ t, ok: true, d: 100 });
    await writeRuns(test.db, ids.steady!, runs);
    expect((await buildSketchEdges(test.db)).ran).toBe(true);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await test?.close();
  });

  /** The latest edge's run count of a check. */
  async function latestTotal(id: string): Promise<number> {
    const { rows } = await test.db.query<{ total: string }>(
      `SELECT total::text FROM check_sketch_edges WHERE check_id = $1 ORDER BY at DESC LIMIT 1`,
      [id],
    );
    return Number(rows[0]?.total ?? 0);
  }

  it('keeps a second replica out of a run whose lease ran out, and folds the late runs in once', async () => {
    const before = await latestTotal(ids.steady!);
    expect(before).toBeGreaterThan(20);
    // Ten runs recorded now but timed before the latest edge (an agent's buffered results).
    const late: Run[] = Array.from({ length: 10 }, (_, i) => ({
      t: now - 25 * MIN + 500 + i * 1_000,
      ok: false,
      d: 300,
    }));
    await writeRuns(test.db, ids.steady!, late);

    // Hold the edges' table so replica A's run stops inside its transaction, with a lease of 1 ms.
    const hold = await openPostgres(test.url!, 1);
    try {
      let first: Promise<Awaited<ReturnType<typeof buildSketchEdges>>> | undefined;
      await hold.transaction(async (tx) => {
        await tx.query(`LOCK TABLE check_sketch_edges IN SHARE ROW EXCLUSIVE MODE`);
        first = buildSketchEdges(a, 730, 1);
        await expect
          .poll(
            async () =>
              (
                await test.db.query<{ n: number }>(
                  `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'check_sketch_edges'::regclass`,
                )
              ).rows[0]!.n,
            { timeout: 10_000 },
          )
          .toBeGreaterThan(0);
        // A's lease has run out; replica B tries while A is still running.
        const second = await buildSketchEdges(b, 730);
        expect(second.ran).toBe(false);
      });
      const done = await first!;
      expect(done.ran).toBe(true);
      expect(done.late).toBe(10);
    } finally {
      await hold.close();
    }
    // Counted once: the latest edge has the ten late runs once.
    expect(await latestTotal(ids.steady!)).toBe(before + 10);
    // And once A is done, B runs as usual (nothing late left to fold).
    const after = await buildSketchEdges(b, 730);
    expect(after.late).toBe(0);
    expect(await latestTotal(ids.steady!)).toBe(before + 10);
  });
});
