// GET /api/canary/api/summary as a protocol: every answer (a precomputed range's view, a
// label-filtered one, a range computed now, an absolute range) carries a strong ETag and answers
// If-None-Match with a bodiless 304; format=console sends the page's columns once and rows as
// arrays, and `since` the rows changed (a run, an apply) and the ids removed (a delete), or the
// whole answer for a token it does not know. Two app instances on one database: neither serves a
// summary more than 5 s behind. And the kept answers are dropped once idle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { recordResult } from '../src/health/store.js';
import { PRECOMPUTED_RANGES, refreshSummary } from '../src/health/summary.js';
import { ConsoleStreams, consoleRow } from '../src/health/summaryConsole.js';
import { rowOf } from '../src/health/summaryItems.js';
import { SummaryViews } from '../src/health/summaryViews.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const canary = (description: string, withGamma: boolean) => `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: protocol
  namespace: team-p
  labels:
    team: p
spec:
  schedule: "@every 1h"
  http:
    - name: alpha
      url: http://127.0.0.1:9/alpha
      description: ${description}
      labels:
        tier: front
    - name: beta
      url: http://127.0.0.1:9/beta
${withGamma ? '    - name: gamma\n      url: http://127.0.0.1:9/gamma\n' : ''}`;

interface Console {
  format: string;
  version: string;
  full: boolean;
  columns: string[];
  rows: unknown[][];
  removed: string[];
}

describe.each(databaseKinds())('health summary protocol on %s', (kind) => {
  let test: TestDatabase;
  let a: Opsdeck;
  let b: Opsdeck;
  let viewer: TestUser;
  let editor: TestUser;
  let canaryId = '';
  const ids: Record<string, string> = {};

  async function get(app: Opsdeck, query: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${app.url}/api/canary/api/summary?${query}`, {
      headers: { 'accept-encoding': 'identity', ...viewer.headers, ...headers },
    });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, etag: res.headers.get('etag'), headers: res.headers, body };
  }
  const json = <T>(r: { body: Buffer }) => JSON.parse(r.body.toString()) as T;
  const named = (c: Console) => {
    const at = (k: string) => c.columns.indexOf(k);
    return Object.fromEntries(
      c.rows.map((r) => [r[at('name')] as string, Object.fromEntries(c.columns.map((k, i) => [k, r[i]]))]),
    );
  };

  async function apply(text: string) {
    const res = await fetch(`${a.url}/api/canary`, {
      method: 'POST',
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
      body: text,
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { applied: Array<{ id: string; checks: Array<{ id: string; name: string }> }> };
    canaryId = body.applied[0]!.id;
    for (const c of body.applied[0]!.checks) ids[c.name] = c.id;
  }

  const run = (name: string, pass: boolean, t = Date.now()) =>
    recordResult(
      test.db,
      ids[name]!,
      { pass, invalid: false, durationMs: 42, message: null, error: pass ? null : 'down', details: undefined },
      new Date(t),
    );

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    a = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    b = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    viewer = await createTestUser(test.db, 'viewer');
    editor = await createTestUser(test.db, 'editor');
    await apply(canary('first', true));
    await run('alpha', true, Date.now() - 60_000);
    for (const range of PRECOMPUTED_RANGES) await refreshSummary(test.db, range, 0);
  }, 120_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await test?.close();
  });

  it('answers every kind of summary with a strong ETag, and If-None-Match with a bodiless 304', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const queries = {
      precomputed: 'start=1h',
      filtered: `start=1h&labels=${encodeURIComponent('{"tier":"front"}')}`,
      live: 'start=2h',
      absolute: `start=${hourAgo}&end=${new Date(Date.now() + 3_600_000).toISOString()}`,
      console: 'start=1h&format=console',
      liveConsole: 'start=3h&format=console',
    };
    for (const [what, query] of Object.entries(queries)) {
      const first = await get(a, query);
      expect(first.status, what).toBe(200);
      expect(first.etag, what).toMatch(/^"[\w-]+"$/);
      expect(first.headers.get('cache-control'), what).toBe('private, no-cache');
      const again = await get(a, query, { 'if-none-match': first.etag! });
      expect(again.status, what).toBe(304);
      expect(again.body.length, what).toBe(0);
      expect(again.etag, what).toBe(first.etag);
      // Another tag: the whole answer.
      expect((await get(a, query, { 'if-none-match': '"other"' })).status, what).toBe(200);
    }
    const filtered = json<{ checks_summary: Array<{ name: string }> }>(await get(a, queries.filtered));
    expect(filtered.checks_summary.map((c) => c.name)).toEqual(['alpha']);
    // The gzip of an answer is another representation (its own tag) of the same data: either tag
    // revalidates either.
    const zipped = await get(a, 'start=1h', { 'accept-encoding': 'gzip' });
    expect(zipped.etag).toMatch(/-gz"$/);
    const plain = await get(a, 'start=1h');
    expect((await get(a, 'start=1h', { 'if-none-match': zipped.etag! })).status).toBe(304);
    expect((await get(a, 'start=1h', { 'accept-encoding': 'gzip', 'if-none-match': plain.etag! })).status).toBe(304);
    // A run changes the data, so the tag.
    await run('beta', false);
    const after = await get(a, 'start=1h', { 'cache-control': 'max-age=0', 'if-none-match': plain.etag! });
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(plain.etag);
  });

  it('sends the console format whole, then the rows changed by a run or an apply and the ids removed', async () => {
    const full = json<Console>(await get(a, 'start=1h&format=console'));
    expect(full).toMatchObject({ format: 'console', full: true, removed: [] });
    expect(full.columns).toEqual(expect.arrayContaining(['id', 'name', 'status', 'passed', 'failed', 'p95', 'labels']));
    expect(full.columns).not.toContain('created_at');
    const wide = json<{ checks_summary: Array<{ name: string; uptime: { passed: number; failed: number } }> }>(
      await get(a, 'start=1h'),
    );
    const rows = named(full);
    expect(Object.keys(rows).sort()).toEqual(['alpha', 'beta', 'gamma']);
    for (const c of wide.checks_summary) {
      expect(rows[c.name]).toMatchObject({ passed: c.uptime.passed, failed: c.uptime.failed });
    }
    expect(rows.alpha!.labels).toEqual({ team: 'p', tier: 'front' });
    // The console format is much smaller than the FORMATS.md shape of the same checks.
    expect(JSON.stringify(full.rows).length).toBeLessThan(JSON.stringify(wide.checks_summary).length / 2);

    // Nothing changed: a delta with no rows (and a 304 when the tag is sent).
    const same = json<Console>(await get(a, `start=1h&format=console&since=${full.version}`));
    expect(same).toMatchObject({ full: false, rows: [], removed: [], version: full.version });

    // A run (recorded behind this process's back, as another replica's engine would): only that row.
    await run('gamma', false);
    const ran = json<Console>(
      await get(a, `start=1h&format=console&since=${full.version}`, { 'cache-control': 'max-age=0' }),
    );
    expect(ran.full).toBe(false);
    expect(Object.keys(named(ran))).toEqual(['gamma']);
    expect(named(ran).gamma).toMatchObject({ status: 'unhealthy', failed: 1 });
    expect(ran.version).not.toBe(full.version);

    // An apply that changes alpha and drops gamma: alpha's row and gamma's id.
    const gamma = ids.gamma!;
    await apply(canary('second', false));
    const applied = json<Console>(await get(a, `start=1h&format=console&since=${ran.version}`));
    expect(applied.full).toBe(false);
    expect(Object.keys(named(applied))).toEqual(['alpha']);
    expect(named(applied).alpha!.description).toBe('second');
    expect(applied.removed).toEqual([gamma]);
    // From the first version: both changes at once.
    const both = json<Console>(await get(a, `start=1h&format=console&since=${full.version}`));
    expect(Object.keys(named(both)).sort()).toEqual(['alpha']);
    expect(both.removed).toEqual([gamma]);

    // A token this replica does not know (made up, or another replica's): the whole answer.
    for (const token of ['nope.3', json<Console>(await get(b, 'start=1h&format=console')).version]) {
      const whole = json<Console>(await get(a, `start=1h&format=console&since=${token}`));
      expect(whole.full).toBe(true);
      expect(Object.keys(named(whole)).sort()).toEqual(['alpha', 'beta']);
    }

    // Label-filtered console answers: their own stream.
    const labels = encodeURIComponent('{"tier":"front"}');
    const front = json<Console>(await get(a, `start=1h&format=console&labels=${labels}`));
    expect(Object.keys(named(front))).toEqual(['alpha']);
    await run('alpha', false);
    const frontRan = json<Console>(await get(a, `start=1h&format=console&labels=${labels}&since=${front.version}`));
    expect(frontRan).toMatchObject({ full: false, removed: [] });
    expect(named(frontRan).alpha).toMatchObject({ status: 'unhealthy' });

    // The canary deleted: every id removed.
    const before = json<Console>(await get(a, 'start=1h&format=console'));
    const del = await fetch(`${a.url}/api/canary/${canaryId}`, { method: 'DELETE', headers: editor.headers });
    expect(del.status).toBe(204);
    const gone = json<Console>(await get(a, `start=1h&format=console&since=${before.version}`));
    expect(gone.rows).toEqual([]);
    expect(gone.removed.sort()).toEqual([ids.alpha, ids.beta].sort());
    await apply(canary('third', true));
  });

  it('keeps every replica within 5 s of the database', async () => {
    const passedOf = async (app: Opsdeck) => {
      const c = json<Console>(await get(app, 'start=1h&format=console'));
      return Number(named(c).beta?.passed ?? 0);
    };
    const before = [await passedOf(a), await passedOf(b)];
    const t = Date.now();
    await run('beta', true);
    const seen: number[] = [];
    for (const [i, app] of [a, b].entries()) {
      while ((await passedOf(app)) === before[i]) {
        expect(Date.now() - t).toBeLessThan(5_500);
        await new Promise((r) => setTimeout(r, 100));
      }
      seen.push(Date.now() - t);
    }
    expect(Math.max(...seen)).toBeLessThanOrEqual(5_500);
    const age = (await get(b, 'start=1h')).headers.get('age');
    expect(Number(age)).toBeLessThanOrEqual(5);
  });

  it('rejects formats and tokens it does not know with a message', async () => {
    const bad = await get(a, 'start=1h&format=xml');
    expect(bad.status).toBe(400);
    expect(bad.body.toString()).toMatch(/format must be console/);
    const since = await get(a, 'start=1h&since=abc.1');
    expect(since.status).toBe(400);
    expect(since.body.toString()).toMatch(/add format=console/);
    // Times JavaScript or PostgreSQL cannot hold are refused, not a 500 from the database.
    for (const q of ['start=1h&end=99999999999999999', 'start=1h&end=8000000000000000', 'start=now-9999999y']) {
      const far = await get(a, q);
      expect(far.status, q).toBe(400);
      expect(far.body.toString(), q).toMatch(/is not a time/);
    }
  });

  it('drops the answers, items, templates and console streams nobody asked for, and keeps at most a few streams', async () => {
    const views = new SummaryViews(test.db, () => 0, { everyMs: 100, idleMs: 300 });
    try {
      const range = PRECOMPUTED_RANGES[0]!;
      await refreshSummary(test.db, range, 0);
      const view = await views.get(range);
      views.consoles.get('x').feed(
        view!,
        view!.ids,
        view!.items.map(() => '[]'),
      );
      // Items written from the templates make their console rows from the templates' parts: the
      // same text as parsing each item (so a console stream sees no change that is not one).
      expect(view!.items.length).toBeGreaterThan(0);
      expect(view!.items.map(rowOf)).toEqual(view!.items.map((it) => consoleRow(it.json.toString())));
      expect(views.kept).toMatchObject({ views: 1, ranges: 1, consoles: 1 });
      expect(views.kept.items).toBeGreaterThan(0);
      // The range's first answer wrote its items from the checks' templates, kept for later answers.
      expect(views.kept.templates).toBe(views.kept.items);
      await new Promise((r) => setTimeout(r, 900));
      expect(views.kept).toEqual({ views: 0, ranges: 0, items: 0, consoles: 0, templates: 0 });
    } finally {
      await views.close();
    }
    const streams = new ConsoleStreams(3);
    for (let i = 0; i < 10; i++) streams.get(`range ${i}`);
    expect(streams.size).toBe(3);
  });

  it('drops what a view is made of idle-time after the last request, whatever its background updates since', async () => {
    // Updated every 150 ms while watched (asked for in the last 2 s): those updates are no use. The
    // times leave room for a loaded machine: gone ~2.0–2.5 s after the request now, not before ~3.85 s
    // when the updates counted as uses (the last one starts at ≥ 1.85 s, plus 2 s idle).
    const views = new SummaryViews(test.db, () => 0, { everyMs: 150, idleMs: 2_000 });
    try {
      const range = PRECOMPUTED_RANGES[0]!;
      await refreshSummary(test.db, range, 0);
      const asked = Date.now();
      await views.get(range);
      // A refresh while the view is watched rebuilds every item in the background.
      await refreshSummary(test.db, range, 0);
      views.refreshed(range);
      while (views.kept.templates === 0 && Date.now() - asked < 1_500) await new Promise((r) => setTimeout(r, 25));
      expect(views.kept.templates).toBeGreaterThan(0);
      // Swept every 500 ms: all gone by ~2,500 ms after the request.
      const empty = () => Object.values(views.kept).every((n) => n === 0);
      while (!empty() && Date.now() - asked < 3_300) await new Promise((r) => setTimeout(r, 25));
      expect(views.kept).toEqual({ views: 0, ranges: 0, items: 0, consoles: 0, templates: 0 });
    } finally {
      await views.close();
    }
  });
});
