import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/database.js';
import { answerOf, consoleItem, deltaOf, SummaryViews, type SummaryItem } from './summary.js';

const item = (id: string, passed: number, more: Partial<SummaryItem> = {}): SummaryItem => ({
  id,
  canary_id: 'c',
  canary_name: 'web',
  canary_namespace: 'default',
  agent_id: null,
  agent_name: null,
  labels: {},
  status: 'healthy',
  type: 'http',
  name: id,
  namespace: 'default',
  owner: null,
  severity: null,
  icon: null,
  description: 'long text the table does not show',
  endpoint: null,
  uptime: { passed, failed: 0, last_pass: null, last_fail: null },
  latency: { p95: 10, p97: null, p99: null, rolling1h: null },
  last_runtime: null,
  last_transition_time: null,
  next_runtime: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  deleted_at: null,
  ...more,
});

describe('summary answers', () => {
  it('have an ETag that follows what the checks say, not when or how fast they were computed', () => {
    const a = answerOf([item('a', 1), item('b', 2)], 'full', performance.now(), 1);
    const b = answerOf([item('a', 1), item('b', 2)], 'full', performance.now() - 500, 2);
    expect(a.etag).toBe(b.etag);
    expect(answerOf([item('a', 1), item('b', 3)], 'full', 0).etag).not.toBe(a.etag);
    expect(answerOf([item('a', 1), item('b', 2)], 'console', 0).etag).not.toBe(a.etag);
    const body = JSON.parse(a.body.toString()) as { checks_summary: SummaryItem[]; duration: number };
    expect(body.checks_summary.map((c) => c.id)).toEqual(['a', 'b']);
    expect(body.duration).toBeGreaterThanOrEqual(0);
  });

  it('keep in the console format only what the page shows, without nulls', () => {
    const c = consoleItem(item('a', 4));
    expect(c).not.toHaveProperty('description');
    expect(c).not.toHaveProperty('created_at');
    expect(c).not.toHaveProperty('owner');
    expect(c).not.toHaveProperty('labels');
    expect(c).toMatchObject({ id: 'a', uptime: { passed: 4, failed: 0 }, latency: { p95: 10 } });
  });

  it('give as a delta the changed and removed checks, and the order only when it moved', () => {
    const from = answerOf([item('a', 1), item('b', 2), item('c', 3)], 'console', 0);
    const same = answerOf([item('a', 1), item('b', 5)], 'console', 0);
    const d = JSON.parse(deltaOf(from, same).toString()) as Record<string, unknown>;
    expect(d).toMatchObject({ etag: same.etag, since: from.etag, removed: ['c'] });
    expect((d.changed as Array<{ id: string }>).map((c) => c.id)).toEqual(['b']);
    expect(d.order).toEqual(['a', 'b']);
    const moved = answerOf([item('b', 2), item('a', 1), item('c', 3)], 'console', 0);
    const m = JSON.parse(deltaOf(from, moved).toString()) as Record<string, unknown>;
    expect(m.changed).toEqual([]);
    expect(m.order).toEqual(['b', 'a', 'c']);
  });
});

describe('SummaryViews', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const db = {} as Database;

  it('shares one computation, reuses it while fresh and nothing was edited, and forgets idle queries', async () => {
    vi.useFakeTimers();
    let edits = 0;
    const views = new SummaryViews(db, () => edits, { idleMs: 1_000 });
    let computed = 0;
    const compute = () => {
      computed++;
      return Promise.resolve(answerOf([item('a', computed)], 'full', 0));
    };
    const [x, y] = await Promise.all([views.get('q', compute), views.get('q', compute)]);
    expect(computed).toBe(1);
    expect(x.answer).toBe(y.answer);
    expect((await views.get('q', compute)).cached).toBe(true);
    edits++;
    expect((await views.get('q', compute)).cached).toBe(false);
    const old = (await views.get('q', compute)).answer;
    expect((await views.get('q', compute, 0, old.etag)).base?.etag).toBe(old.etag);
    for (let i = 0; i < 40; i++) await views.get(`range ${i}`, compute);
    expect(views.size).toBeLessThanOrEqual(16);
    vi.advanceTimersByTime(2_500);
    expect(views.size).toBe(0);
    await views.close();
  });
});
