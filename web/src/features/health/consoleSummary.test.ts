import { describe, expect, it } from 'vitest';
import { applyConsole, rowToCheck, type ConsoleAnswer } from './consoleSummary';

const columns = ['id', 'canary_id', 'canary_name', 'name', 'status', 'labels', 'passed', 'failed', 'p95', 'rolling1h'];
const row = (id: string, name: string, status: string | null, passed = 0, failed = 0) => [
  id,
  'c1',
  'web',
  name,
  status,
  { team: 'a' },
  passed,
  failed,
  passed ? 12 : null,
  null,
];
const answer = (over: Partial<ConsoleAnswer>): ConsoleAnswer => ({
  format: 'console',
  version: 'e.1',
  full: true,
  columns,
  rows: [],
  removed: [],
  duration: 3,
  ...over,
});

describe('the console summary copy', () => {
  it('reads a row as the summary item the page reads', () => {
    const c = rowToCheck(columns, row('a', 'alpha', 'healthy', 3, 1));
    expect(c).toMatchObject({
      id: 'a',
      canary_id: 'c1',
      canary_name: 'web',
      name: 'alpha',
      status: 'healthy',
      labels: { team: 'a' },
      uptime: { passed: 3, failed: 1 },
      latency: { p95: 12, rolling1h: null },
      description: null,
      last_runtime: null,
    });
  });

  it('replaces changed checks in place, appends new ones, drops removed ones and keeps the others', () => {
    const first = applyConsole(
      undefined,
      answer({ rows: [row('a', 'alpha', 'healthy'), row('b', 'beta', null), row('c', 'gamma', null)] }),
      '"e1"',
    );
    expect(first).toMatchObject({ version: 'e.1', etag: '"e1"' });
    expect(first.summary.checks_summary.map((c) => c.name)).toEqual(['alpha', 'beta', 'gamma']);
    const [alpha, beta] = first.summary.checks_summary;

    const next = applyConsole(
      first,
      answer({
        version: 'e.2',
        full: false,
        rows: [row('b', 'beta', 'unhealthy', 0, 1), row('d', 'delta', null)],
        removed: ['c'],
      }),
      '"e2"',
    );
    expect(next).toMatchObject({ version: 'e.2', etag: '"e2"' });
    const checks = next.summary.checks_summary;
    expect(checks.map((c) => c.name)).toEqual(['alpha', 'beta', 'delta']);
    expect(checks[0]).toBe(alpha); // unchanged: the same object
    expect(checks[1]).not.toBe(beta);
    expect(checks[1]).toMatchObject({ status: 'unhealthy', uptime: { failed: 1 } });
    // The copy it came from is left as it was.
    expect(first.summary.checks_summary.map((c) => c.name)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('takes a whole answer as it is (the server did not know the version), and an empty delta changes nothing', () => {
    const first = applyConsole(undefined, answer({ rows: [row('a', 'alpha', null), row('b', 'beta', null)] }), '"1"');
    const whole = applyConsole(first, answer({ version: 'f.1', rows: [row('b', 'beta', 'healthy')] }), '"2"');
    expect(whole.summary.checks_summary.map((c) => c.id)).toEqual(['b']);
    const same = applyConsole(whole, answer({ version: 'f.2', full: false }), '"2"');
    expect(same.summary.checks_summary).toEqual(whole.summary.checks_summary);
    expect(same.summary.checks_summary[0]).toBe(whole.summary.checks_summary[0]);
  });
});
