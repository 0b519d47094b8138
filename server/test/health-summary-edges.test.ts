// The health summary's figures from the edges (migration 0031, health/edges.ts, edgeFigures.ts)
// against brute force (issue 20): 10 days of runs written straight into check_statuses, rolled up,
// the raw runs older than 4 days deleted (as retention does: the first edge job builds that part
// from the hourly roll-ups' sketches), a check created mid-range, a deleted check, runs recorded
// after the edges were built (late, and a backfill 3 days back), and runs after the latest edge.
// For the usual ranges and custom ones, every check's counts and last pass/failure must be exact
// over the range the figures say they cover, and p95/p97/p99 within the sketch's stated error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollupCheckStatuses } from '../src/health/rollup.js';
import { EDGE_STEP_MS, readEdges } from '../src/health/edges.js';
import { buildSketchEdges } from '../src/health/edgeJob.js';
import { edgeFigures, type RangeFigures } from '../src/health/edgeFigures.js';
import { FIGURES_SUMMARY_SQL, figuresParams } from '../src/health/summary.js';
import { SummaryTemplates } from '../src/health/summaryTemplates.js';
import { consoleRowOf } from '../src/health/summaryConsole.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { random } from './helpers/random.js';
import {
  bruteForce,
  createSummaryChecks,
  summaryHistory,
  writeRuns,
  DAY,
  expectFigures,
  HOUR,
  MIN,
  runsEvery,
  type Figures,
  type Run,
} from './helpers/summaryFigures.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function figuresOf(f: RangeFigures, id: string): Figures {
  const i = f.check_id.indexOf(id);
  if (i < 0) return { passed: 0, failed: 0, last_pass: null, last_fail: null, p95: null, p97: null, p99: null };
  return {
    passed: f.passed[i]!,
    failed: f.failed[i]!,
    last_pass: iso(f.last_pass[i]!),
    last_fail: iso(f.last_fail[i]!),
    p95: f.p95[i]!,
    p97: f.p97[i]!,
    p99: f.p99[i]!,
  };
}

describe.each(databaseKinds())('health summary from edges against brute force on %s', (kind) => {
  let test: TestDatabase;
  const runs: Record<string, Run[]> = { steady: [], bimodal: [], late: [], gone: [] };
  const ids: Record<string, string> = {};
  const now = Date.now();
  const rnd = random(31);
  const jobs: Array<Awaited<ReturnType<typeof buildSketchEdges>>> = [];

  async function write(name: string, items: Run[]) {
    await writeRuns(test.db, ids[name]!, items);
    runs[name]!.push(...items);
  }

  const history = (from: number, to: number, every: number, duration: () => number, failEvery = 37) =>
    runsEvery(rnd, from, to, every, duration, failEvery);

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    Object.assign(ids, await createSummaryChecks(test.db, 'edges'));
    const upTo = now - 20 * MIN;
    for (const [name, items] of Object.entries(summaryHistory(rnd, now, upTo))) await write(name, items);
    await rollupCheckStatuses(test.db, new Date(now - 11 * DAY));
    // Retention kept the raw runs of the last 4 days (from a whole hour): older ones are in the roll-ups.
    const kept = Math.floor((now - 4 * DAY) / HOUR) * HOUR;
    await test.db.query(`DELETE FROM check_statuses WHERE time < $1`, [new Date(kept)]);
    jobs.push(await buildSketchEdges(test.db));
    // Recorded after the edges were built: runs since (some timed before the latest edge), a
    // backfill three days back, and the deleted check.
    await write(
      'steady',
      history(upTo + 1_000, now - 2_000, 2 * MIN, () => 9_000),
    );
    await write(
      'late',
      history(upTo + 1_000, now - 2_000, 3 * MIN, () => 0),
    );
    await write(
      'bimodal',
      history(now - 3 * DAY, now - 3 * DAY + 2 * HOUR, 4 * MIN, () => 7_777, 3),
    );
    await test.db.query(`UPDATE checks SET deleted_at = now() WHERE id = $1`, [ids.gone]);
    jobs.push(await buildSketchEdges(test.db));
  }, 180_000);

  afterAll(async () => {
    await test?.close();
  });

  it('built the history from roll-ups and raw runs, then folded the late runs in', async () => {
    expect(jobs[0]!.ran).toBe(true);
    expect(jobs[0]!.points).toBeGreaterThan(8 + 3 * 24);
    expect(jobs[1]!.ran).toBe(true);
    // The backfill (30 runs) and the runs timed before the latest edge.
    expect(jobs[1]!.late).toBeGreaterThanOrEqual(30);
    const { rows } = await test.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM job_history WHERE name = 'CheckSketchEdges'`,
    );
    expect(rows[0]!.n).toBe(2);
  });

  const ranges: Array<[string, number, number | null]> = [
    ['1h', now - HOUR, null],
    ['24h', now - DAY, null],
    ['7d', now - 7 * DAY, null],
    ['30d', now - 30 * DAY, null],
    ['custom 3d−17m … 1d5h3m', now - 3 * DAY - 17 * MIN, now - DAY - 5 * HOUR - 3 * MIN],
    ['custom 9d2h … 8d3h (daily edges, from roll-ups)', now - 9 * DAY - 2 * HOUR, now - 8 * DAY - 3 * HOUR],
    ['custom 6d … 5d (hourly edges, from roll-ups)', now - 6 * DAY, now - 5 * DAY],
    ['custom 2h30m … 1h10m (5-minute edges)', now - 150 * MIN, now - 70 * MIN],
    ['custom 13m … 4m (1-minute edges)', now - 13 * MIN, now - 4 * MIN],
  ];

  it.each(ranges)('counts exactly and within the error over %s', async (what, s, e) => {
    const end = e ?? Date.now();
    const f = await edgeFigures(test.db, new Date(s), new Date(end));
    expect(f, 'the edges answer').toBeDefined();
    const from = f!.from.getTime();
    const to = f!.to.getTime();
    // The ends move to the nearest edge: at most half a grid step (1 or 5 min, an hour, a day).
    const step = (t: number) =>
      now - t <= 14 * MIN ? EDGE_STEP_MS : now - t <= 3 * HOUR ? 5 * MIN : now - t <= 8 * DAY ? HOUR : DAY;
    if (s > now - 10 * DAY)
      expect(Math.abs(from - s), `${what}: start ${f!.from.toISOString()}`).toBeLessThanOrEqual(step(s) / 2);
    if (e !== null) expect(Math.abs(to - e), `${what}: end`).toBeLessThanOrEqual(step(e) / 2);
    else expect(to).toBe(end);
    for (const name of ['steady', 'bimodal', 'late']) {
      expectFigures(figuresOf(f!, ids[name]!), bruteForce(runs[name]!, from, to, e === null), `${what} ${name}`);
    }
  });

  it('reads the same figures by binary COPY (PostgreSQL; PGlite: to a blob) as packed in base64', async () => {
    // A Queryable without binary COPY takes the base64 path.
    const plain = { query: test.db.query.bind(test.db) };
    expect(!!(kind === 'postgres' ? test.db.copyOut : test.db.copyOutBlob)).toBe(true);
    // Runs after the latest edge, some failing, some after the end of a range (read raw).
    const { rows } = await test.db.query<{ built_to: string }>(`SELECT built_to FROM check_sketch_state`);
    const after = new Date(rows[0]!.built_to).getTime() + 1;
    const upTo = Date.now() - 1;
    await write(
      'bimodal',
      Array.from({ length: 6 }, (_, i) => ({
        t: Math.round(after + ((upTo - after) * i) / 6),
        ok: i % 3 !== 1,
        d: 50 + 75 * i,
      })),
    );
    const middle = Math.round(after + (upTo - after) / 2);
    for (const [, s, e] of [...ranges, ['raw split', now - HOUR, middle] as const]) {
      const end = new Date(e ?? upTo + 1);
      const [a, b] = await Promise.all([test.db, plain].map((db) => edgeFigures(db, new Date(s), end)));
      expect(a!.check_id.length).toBeGreaterThan(0);
      expect(b).toEqual(a);
    }
    const f = (await edgeFigures(test.db, new Date(now - HOUR), new Date(upTo + 1)))!;
    expectFigures(figuresOf(f, ids.bimodal!), bruteForce(runs.bimodal!, f.from.getTime(), f.to.getTime(), true), 'raw');
  });

  it('computes the same figures for ranges asked at the same time as one after another', async () => {
    const sequential: RangeFigures[] = [];
    for (const [, s, e] of ranges) sequential.push((await edgeFigures(test.db, new Date(s), new Date(e ?? now)))!);
    expect(sequential.every((f) => f.check_id.length > 0)).toBe(true);
    const together = await Promise.all(ranges.map(([, s, e]) => edgeFigures(test.db, new Date(s), new Date(e ?? now))));
    expect(together).toEqual(sequential);
  });

  it("reads an instant's edges by binary COPY as from the packed value, as they are stored", async () => {
    const plain = { query: test.db.query.bind(test.db) };
    const { rows } = await test.db.query<{ at: string }>(`SELECT built_to AS at FROM check_sketch_state`);
    const at = new Date(rows[0]!.at);
    const [a, b] = await Promise.all([readEdges(test.db, at), readEdges(plain, at)]);
    expect(a.size).toBeGreaterThanOrEqual(3);
    expect(b).toEqual(a);
    const { rows: stored } = await test.db.query<Record<string, string | null>>(
      `SELECT check_id, total::text, passed::text, failed::text, duration_sum::text, last_pass, last_fail, octet_length(sketch) AS bytes
       FROM check_sketch_edges WHERE at = $1`,
      [at],
    );
    expect(stored).toHaveLength(a.size);
    for (const r of stored) {
      const e = a.get(r.check_id!)!;
      expect([e.total, e.passed, e.failed, e.durationSum]).toEqual(
        [r.total, r.passed, r.failed, r.duration_sum].map(Number),
      );
      const ms = (t: string | null) => (t === null ? null : new Date(t).getTime());
      expect([e.lastPass, e.lastFail]).toEqual([ms(r.last_pass), ms(r.last_fail)]);
      expect(e.sketch.len > 0).toBe(Number(r.bytes) > 0 && e.total > 0);
    }
  });

  it('answers the summary from the figures, without the deleted check', async () => {
    const f = (await edgeFigures(test.db, new Date(now - DAY), new Date()))!;
    const { rows } = await test.db.query<{ checks: string }>(FIGURES_SUMMARY_SQL, [null, ...figuresParams(f)]);
    const items = JSON.parse(rows[0]!.checks) as Array<{ id: string; uptime: { passed: number; failed: number } }>;
    expect(items.map((i) => i.id).sort()).toEqual([ids.steady, ids.bimodal, ids.late].sort());
    const steady = items.find((i) => i.id === ids.steady)!;
    expect(steady.uptime.passed).toBe(figuresOf(f, ids.steady!).passed);
  });

  it('builds the same answer from kept item templates as the JSON built in SQL, and its console rows', async () => {
    const f = (await edgeFigures(test.db, new Date(now - 7 * DAY), new Date()))!;
    const { rows } = await test.db.query<{ checks: string }>(FIGURES_SUMMARY_SQL, [null, ...figuresParams(f)]);
    const templates = new SummaryTemplates(60_000);
    const first = await templates.answer(test.db, null, f);
    expect(first.rebuilt).toBe(3);
    const normal = (text: string) =>
      JSON.stringify(JSON.parse(text), (_, v: unknown) =>
        typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) ? new Date(v).toISOString() : v,
      );
    expect(normal(first.text())).toBe(normal(rows[0]!.checks));
    // The bytes the server sends are the same JSON, written straight into a buffer.
    expect(first.bytes().equals(Buffer.from(first.text()))).toBe(true);
    const items = JSON.parse(first.text()) as Parameters<typeof consoleRowOf>[0][];
    const parsed = (rows: string[]) => rows.map((r) => JSON.parse(r) as unknown);
    expect(parsed(first.rows())).toEqual(parsed(items.map(consoleRowOf)));
    expect(first.ids).toEqual(items.map((i) => i.id));
    // Kept: a second answer rebuilds nothing until a check changes; a label filter narrows it.
    expect((await templates.answer(test.db, null, f)).rebuilt).toBe(0);
    // A value that looks like the item's own keys survives the parts around the figures and the
    // console row (cut here while the figures are read, as a console answer asks).
    const tricky = 'changed ","status":"fake","endpoint":"x\\", {"labels": 1} — é ✓ 🚀';
    await test.db.query(`UPDATE checks SET description = $2, updated_at = now() WHERE id = $1`, [ids.steady, tricky]);
    const third = await templates.answer(test.db, null, f, { rows: true });
    expect(third.rebuilt).toBe(1);
    expect(third.text()).toContain('"description":"changed');
    expect(third.bytes().equals(Buffer.from(third.text()))).toBe(true);
    const thirdItems = JSON.parse(third.text()) as Parameters<typeof consoleRowOf>[0][];
    expect(thirdItems.find((i) => i.id === ids.steady)!.description).toBe(tricky);
    expect(parsed(third.rows())).toEqual(parsed(thirdItems.map(consoleRowOf)));
    // A server's first answer reads every item at once (by binary COPY on PostgreSQL): the same answer.
    const cold = await new SummaryTemplates(60_000).answer(test.db, null, f, { rows: true });
    expect(cold.rebuilt).toBe(3);
    expect(cold.bytes().equals(third.bytes())).toBe(true);
    expect(cold.rows()).toEqual(third.rows());
    const none = await templates.answer(test.db, JSON.stringify({ nope: 'x' }), f);
    expect(none.text()).toBe('[]');
    expect(none.bytes().toString()).toBe('[]');
    templates.sweep(Date.now() + 61_000);
    expect(templates.size).toBe(0);
  });

  it('builds a first answer filtered by labels from one query, and the other checks when an unfiltered one asks', async () => {
    const f = (await edgeFigures(test.db, new Date(now - DAY), new Date()))!;
    await test.db.query(`UPDATE checks SET labels = $2::jsonb, updated_at = now() WHERE id = $1`, [
      ids.bimodal,
      JSON.stringify({ tier: "gold's $& $1 \\", note: 'a "quoted", {braced} ünïcode\\value' }),
    ]);
    const templates = new SummaryTemplates(60_000);
    // The filter goes into the first answer's COPY as an SQL literal: its quote and dollars stay text.
    const gold = await templates.answer(test.db, JSON.stringify({ tier: "gold's $& $1 \\" }), f);
    expect(gold.rebuilt).toBe(1);
    expect(gold.ids).toEqual([ids.bimodal]);
    expect(templates.size).toBe(1);
    const all = await templates.answer(test.db, null, f);
    expect(all.rebuilt).toBe(2);
    const { rows } = await test.db.query<{ checks: string }>(FIGURES_SUMMARY_SQL, [null, ...figuresParams(f)]);
    const items = JSON.parse(rows[0]!.checks) as Parameters<typeof consoleRowOf>[0][];
    expect(JSON.parse(all.text())).toEqual(JSON.parse(rows[0]!.checks));
    // The console rows (cut from the kept JSON on first use) are the rows of the items.
    const parsed = (rows: string[]) => rows.map((r) => JSON.parse(r) as unknown);
    expect(parsed(all.rows())).toEqual(parsed(items.map(consoleRowOf)));
    expect(parsed(gold.rows())).toEqual(parsed(items.filter((i) => i.id === ids.bimodal).map(consoleRowOf)));
  });

  it("writes a server's first answer's items from their columns byte for byte as PostgreSQL's JSON of them", async () => {
    const f = (await edgeFigures(test.db, new Date(now - DAY), new Date()))!;
    const before = (
      await test.db.query<Record<string, unknown>>(
        `SELECT id, description, icon, owner, labels, last_runtime, next_runtime, last_transition_time, created_at
           FROM checks WHERE id = $1`,
        [ids.steady],
      )
    ).rows[0]!;
    // Every control character, quotes and backslashes, multi-byte UTF-8; labels jsonb keeps
    // numbers, nesting and spacing its own way; empty and null strings; times to the
    // microsecond, with trailing zeros, before 2000 and before 1970.
    const controls = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c))
      .join('')
      .slice(1);
    await test.db.query(
      `UPDATE checks SET description = $2, icon = '', owner = NULL, labels = $3::jsonb,
           last_runtime = '2026-11-26 17:23:04.123456+00', next_runtime = '2026-11-26 17:24:00.1+00',
           last_transition_time = '1969-07-20 20:17:40.05+00', created_at = '1999-12-31 23:59:59.999999+00',
           updated_at = now()
         WHERE id = $1`,
      [
        ids.steady,
        `a "quoted" \\ back\\slash / ${controls} \u007f é ✓ 🚀`,
        JSON.stringify({ 'ü k': 'v "q"', n: 1.5, big: 1e21, t: true, nested: { a: [1, 'b', null] }, e: '' }),
      ],
    );
    try {
      // A Queryable without binary COPY reads the items' JSON built by PostgreSQL.
      expect(!!(test.db.copyOut ?? test.db.copyOutBlob)).toBe(true);
      const plain = { query: test.db.query.bind(test.db) };
      const fromSql = await new SummaryTemplates(60_000).answer(plain, null, f, { rows: true });
      const written = await new SummaryTemplates(60_000).answer(test.db, null, f, { rows: true });
      expect(written.ids).toEqual(fromSql.ids);
      expect(written.bytes().toString()).toBe(fromSql.bytes().toString());
      expect(written.rows()).toEqual(fromSql.rows());
      const steady = (JSON.parse(written.text()) as Array<Record<string, unknown>>).find((i) => i.id === ids.steady)!;
      expect(steady.description).toContain(controls);
      expect(steady.labels).toEqual({
        'ü k': 'v "q"',
        n: 1.5,
        big: 1e21,
        t: true,
        nested: { a: [1, 'b', null] },
        e: '',
      });
      expect(new Date(steady.last_transition_time as string).toISOString()).toBe('1969-07-20T20:17:40.050Z');
      // The same for a label filter written into the COPY as an SQL literal.
      const filter = JSON.stringify({ 'ü k': 'v "q"' });
      const one = await new SummaryTemplates(60_000).answer(test.db, filter, f);
      expect(one.ids).toEqual([ids.steady]);
      expect(one.text()).toBe((await new SummaryTemplates(60_000).answer(plain, filter, f)).text());
    } finally {
      await test.db.query(
        `UPDATE checks SET description = $2, icon = $3, owner = $4, labels = $5::jsonb, last_runtime = $6,
             next_runtime = $7, last_transition_time = $8, created_at = $9, updated_at = now() WHERE id = $1`,
        [
          ids.steady,
          before.description,
          before.icon,
          before.owner,
          JSON.stringify(before.labels),
          before.last_runtime,
          before.next_runtime,
          before.last_transition_time,
          before.created_at,
        ],
      );
    }
  });

  it('records a failed run in job history and leaves the edges as they were', async () => {
    const before = await test.db.query<{ s: string }>(`SELECT built_to::text AS s FROM check_sketch_state`);
    await test.db.query(`ALTER TABLE check_sketch_edges RENAME TO check_sketch_edges_away`);
    try {
      await expect(buildSketchEdges(test.db)).rejects.toThrow(/check_sketch_edges/);
    } finally {
      await test.db.query(`ALTER TABLE check_sketch_edges_away RENAME TO check_sketch_edges`);
    }
    const { rows } = await test.db.query<{ status: string; error: string }>(
      `SELECT status, details->>'error' AS error FROM job_history WHERE name = 'CheckSketchEdges' ORDER BY time_start DESC LIMIT 1`,
    );
    expect(rows[0]!.status).toBe('FAILED');
    expect(rows[0]!.error).toMatch(/check_sketch_edges/);
    const after = await test.db.query<{ s: string }>(`SELECT built_to::text AS s FROM check_sketch_state`);
    expect(after.rows[0]!.s).toBe(before.rows[0]!.s);
  });

  it('runs the job on one replica at a time', async () => {
    const both = await Promise.all([buildSketchEdges(test.db), buildSketchEdges(test.db)]);
    expect(both.filter((r) => r.ran).length).toBeLessThanOrEqual(1);
    // And the latest edges do not change when nothing new was recorded.
    const latest = `SELECT count(*)::int AS n, sum(total)::text AS s FROM check_sketch_edges
      WHERE at = (SELECT built_to FROM check_sketch_state)`;
    const before = await test.db.query<{ n: number; s: string }>(latest);
    const again = await buildSketchEdges(test.db);
    const after = await test.db.query<{ n: number; s: string }>(latest);
    if (again.points === 0) expect(after.rows[0]).toEqual(before.rows[0]);
    else expect(after.rows[0]!.n).toBeGreaterThanOrEqual(before.rows[0]!.n);
    expect(Number(before.rows[0]!.s)).toBeGreaterThan(0);
  });

  it("keeps each instant's pack (what ranges read) the same as its rows, late runs and backfill included", async () => {
    const { rows } = await test.db.query<{ instants: number; packs: number; differ: number; empty: number }>(
      `SELECT (SELECT count(*)::int FROM check_sketch_edge_times) AS instants,
              (SELECT count(*)::int FROM check_sketch_edge_packs) AS packs,
              (SELECT count(*)::int FROM check_sketch_edge_packs p, check_sketch_edge_pack(p.at) q
                WHERE p.heads <> q.heads OR p.sketches <> q.sketches) AS differ,
              (SELECT count(*)::int FROM check_sketch_edge_packs WHERE octet_length(heads) = 0) AS empty`,
    );
    expect(rows[0]!.instants).toBeGreaterThan(8 + 3 * 24);
    expect(rows[0]!).toEqual({ instants: rows[0]!.instants, packs: rows[0]!.instants, differ: 0, empty: 0 });
  });

  it('merges the checks whose first runs came after the latest edge with the others, in check_id order', async () => {
    const range = [new Date(now - DAY), new Date()] as const;
    const before = (await edgeFigures(test.db, ...range))!;
    const { rows: st } = await test.db.query<{ built_to: string }>(`SELECT built_to FROM check_sketch_state`);
    const after = new Date(st[0]!.built_to).getTime() + 1;
    const { rows: canary } = await test.db.query<{ id: string }>(`SELECT canary_id::text AS id FROM checks LIMIT 1`);
    const fresh: Record<string, Run[]> = {};
    // Two new checks fall between the others in check_id order by construction (random ids need
    // not: with few checks before, 12 random ones all fell outside once); the rest are random.
    const lo = before.check_id[0]!;
    const mid = uuidBetween(lo, before.check_id.at(-1)!);
    const between2 = [mid, uuidBetween(lo, mid)];
    for (let i = 0; i < 12; i++) {
      const { rows } = await test.db.query<{ id: string }>(
        `INSERT INTO checks (id, canary_id, type, name) VALUES (coalesce($3::uuid, gen_random_uuid()), $1, 'http', $2)
         RETURNING id::text`,
        [canary[0]!.id, `fresh-${i}`, between2[i] ?? null],
      );
      const items = [0, 1, 2].map((k) => ({ t: after + 997 * k + i, ok: (i + k) % 4 !== 0, d: 40 + 13 * k + i }));
      await writeRuns(test.db, rows[0]!.id, items);
      fresh[rows[0]!.id] = items;
    }
    const end = new Date(Math.max(Date.now(), after + 3_000));
    const [f, viaBase64] = await Promise.all(
      [test.db, { query: test.db.query.bind(test.db) }].map((db) => edgeFigures(db, range[0], end)),
    );
    expect(viaBase64).toEqual(f);
    const order = f!.check_id;
    expect([...order].sort()).toEqual(order);
    const ids12 = Object.keys(fresh);
    const between = ids12.filter((id) => id > before.check_id[0]! && id < before.check_id.at(-1)!);
    expect(between.length, 'some new checks sort between the others').toBeGreaterThanOrEqual(2);
    for (const [id, items] of Object.entries(fresh))
      expectFigures(figuresOf(f!, id), bruteForce(items, f!.from.getTime(), f!.to.getTime(), true), `fresh ${id}`);
    for (const id of before.check_id) expect(figuresOf(f!, id), id).toEqual(figuresOf(before, id));
  });
});

/** A UUID strictly between two others in PostgreSQL's uuid order (bytewise, as their hex text sorts). */
function uuidBetween(a: string, b: string): string {
  const n = (u: string) => BigInt(`0x${u.replace(/-/g, '')}`);
  const hex = ((n(a) + n(b)) / 2n).toString(16).padStart(32, '0');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  if (!(id > a && id < b)) throw new Error(`no uuid between ${a} and ${b}`);
  return id;
}
