import { describe, expect, it } from 'vitest';
import {
  ALL_TAB,
  filterForTabs,
  groupChecks,
  groupKeyOf,
  healthCounts,
  labelCatalogue,
  labelId,
  matchesLabels,
  matchesSearch,
  NO_GROUP,
  parseLabelId,
  sortChecks,
  tabsOf,
  tabValueOf,
  visibleChecks,
} from './checkFilters';
import { LOCAL_AGENT_ID, type CheckSummary } from './types';

let n = 0;
function check(overrides: Partial<CheckSummary> = {}): CheckSummary {
  n++;
  return {
    id: `c${n}`,
    canary_id: 'k1',
    canary_name: 'web',
    canary_namespace: 'default',
    agent_id: LOCAL_AGENT_ID,
    labels: {},
    status: 'healthy',
    type: 'http',
    name: `check-${n}`,
    namespace: 'default',
    owner: null,
    severity: null,
    icon: null,
    description: null,
    endpoint: null,
    uptime: { passed: 10, failed: 0 },
    latency: { p95: 100, p97: 110, p99: 120 },
    last_runtime: null,
    last_transition_time: null,
    next_runtime: null,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    deleted_at: null,
    ...overrides,
  };
}

const names = (checks: CheckSummary[]) => checks.map((c) => c.name);

describe('search', () => {
  it('matches name, description or endpoint, ignoring case', () => {
    const c = check({ name: 'api-health', description: 'Payments API', endpoint: 'https://pay.example.com/status' });
    expect(matchesSearch(c, 'API-H')).toBe(true);
    expect(matchesSearch(c, 'payments')).toBe(true);
    expect(matchesSearch(c, 'pay.example')).toBe(true);
    expect(matchesSearch(c, '  ')).toBe(true);
    expect(matchesSearch(c, 'dns')).toBe(false);
  });
  it('does not search the canary name or labels', () => {
    expect(matchesSearch(check({ canary_name: 'payments', labels: { team: 'payments' } }), 'payments')).toBe(false);
  });
});

describe('label filters', () => {
  const prodPayments = check({ labels: { env: 'prod', team: 'payments', critical: 'true' } });
  const prodSearch = check({ labels: { env: 'prod', team: 'search' } });
  const staging = check({ labels: { env: 'staging', team: 'payments' } });
  const all = [prodPayments, prodSearch, staging];
  const keep = (filters: Record<string, 1 | -1>) => names(all.filter((c) => matchesLabels(c, filters)));

  it('lists each label key with its values, booleans marked for a toggle', () => {
    expect(labelCatalogue(all)).toEqual([
      { key: 'critical', values: ['true'], boolean: true },
      { key: 'env', values: ['prod', 'staging'], boolean: false },
      { key: 'team', values: ['payments', 'search'], boolean: false },
    ]);
  });

  it('includes any of the included values of a key, and all keys must match', () => {
    expect(keep({ [labelId('env', 'prod')]: 1 })).toEqual(names([prodPayments, prodSearch]));
    expect(keep({ [labelId('team', 'payments')]: 1, [labelId('team', 'search')]: 1 })).toEqual(names(all));
    expect(keep({ [labelId('env', 'prod')]: 1, [labelId('team', 'payments')]: 1 })).toEqual(names([prodPayments]));
  });

  it('drops checks carrying an excluded value', () => {
    expect(keep({ [labelId('team', 'payments')]: -1 })).toEqual(names([prodSearch]));
    expect(keep({ [labelId('critical', 'true')]: -1 })).toEqual(names([prodSearch, staging]));
  });

  it('reads label ids with a value containing "=" and the canary:key:value form of older links', () => {
    expect(parseLabelId('query=a=b')).toEqual({ key: 'query', value: 'a=b' });
    expect(parseLabelId('canary:env:prod')).toEqual({ key: 'env', value: 'prod' });
    expect(parseLabelId('garbage')).toBeUndefined();
    expect(keep({ 'canary:env:staging': 1 })).toEqual(names([staging]));
  });
});

describe('tabs', () => {
  it('has one tab per namespace, label value or agent, with "none" last', () => {
    const checks = [
      check({ namespace: 'prod', labels: { team: 'a' } }),
      check({ namespace: 'dev', labels: {} }),
      check({ namespace: 'prod', agent_id: 'agent-1', labels: { team: 'b' } }),
    ];
    expect(tabsOf(checks, 'namespace')).toEqual([
      { value: 'dev', count: 1 },
      { value: 'prod', count: 2 },
    ]);
    expect(tabsOf(checks, 'team')).toEqual([
      { value: 'a', count: 1 },
      { value: 'b', count: 1 },
      { value: 'none', count: 1 },
    ]);
    expect(tabsOf(checks, 'agent').map((t) => t.value)).toEqual([LOCAL_AGENT_ID, 'agent-1'].sort());
    expect(tabValueOf(check({ namespace: null, canary_namespace: '' }), 'namespace')).toBe('none');
  });
});

describe('groups', () => {
  it('groups names by what comes before the first slash', () => {
    expect(groupKeyOf(check({ name: 'demo/http/one' }), 'name')).toBe('demo');
    expect(groupKeyOf(check({ name: 'plain' }), 'name')).toBe('plain');
  });

  it('groups by canary, description, type or a label key ("none" when missing)', () => {
    const c = check({ canary_name: 'web', description: 'Front door', type: 'dns', labels: { team: 'edge' } });
    expect(groupKeyOf(c, 'canary_name')).toBe('web');
    expect(groupKeyOf(c, 'description')).toBe('Front door');
    expect(groupKeyOf(c, 'type')).toBe('dns');
    expect(groupKeyOf(c, 'team')).toBe('edge');
    expect(groupKeyOf(c, 'owner-label')).toBe('none');
  });

  it('sums the uptime counts of a group and rates it good, bad or mixed', () => {
    const groups = groupChecks(
      [
        check({ canary_name: 'a', status: 'healthy', uptime: { passed: 9, failed: 1 } }),
        check({ canary_name: 'a', status: 'unhealthy', uptime: { passed: 2, failed: 8 } }),
        check({ canary_name: 'b', status: 'healthy', uptime: { passed: 5, failed: 0 } }),
      ],
      'canary_name',
    );
    expect(groups.map((g) => [g.key, g.health, `${g.passed}/${g.total}`])).toEqual([
      ['a', 'mixed', '11/20'],
      ['b', 'good', '5/5'],
    ]);
  });

  it('puts every check in its own group without grouping', () => {
    expect(groupChecks([check(), check()], NO_GROUP)).toHaveLength(2);
  });
});

describe('sorting', () => {
  const a = check({
    name: 'a',
    status: 'healthy',
    uptime: { passed: 1, failed: 1 },
    latency: { p95: 900, p97: null, p99: null },
  });
  const b = check({
    name: 'b',
    status: 'unhealthy',
    uptime: { passed: 0, failed: 1 },
    latency: { p95: 5, p97: null, p99: null },
  });
  const c = check({
    name: 'c',
    status: null,
    uptime: { passed: 3, failed: 0 },
    latency: { p95: 50, p97: null, p99: null },
  });

  it('sorts by name, health (unhealthy first), uptime and latency, either way', () => {
    expect(names(sortChecks([c, b, a], 'name', false))).toEqual(['a', 'b', 'c']);
    expect(names(sortChecks([a, b, c], 'health', false))).toEqual(['b', 'c', 'a']);
    expect(names(sortChecks([a, b, c], 'uptime', true))).toEqual(['c', 'a', 'b']);
    expect(names(sortChecks([a, b, c], 'latency', false))).toEqual(['b', 'c', 'a']);
  });
});

describe('what the dashboard shows', () => {
  const ok = check({ name: 'ok', namespace: 'prod', labels: { team: 'a' } });
  const bad = check({ name: 'bad', status: 'unhealthy', namespace: 'prod', labels: { team: 'b' } });
  const fresh = check({ name: 'fresh', status: null, namespace: 'dev', labels: { team: 'a' } });
  const all = [ok, bad, fresh];
  const base = { query: '', hidePassing: true, labels: {}, tabBy: 'namespace', tab: ALL_TAB };

  it('hides passing checks, keeping checks that never ran', () => {
    expect(names(visibleChecks(all, base))).toEqual(['bad', 'fresh']);
    expect(names(visibleChecks(all, { ...base, hidePassing: false }))).toEqual(['ok', 'bad', 'fresh']);
  });

  it('shows one tab, and applies labels before the tabs are counted', () => {
    expect(names(visibleChecks(all, { ...base, hidePassing: false, tab: 'prod' }))).toEqual(['ok', 'bad']);
    expect(names(filterForTabs(all, { query: '', labels: { 'team=a': 1 } }))).toEqual(['ok', 'fresh']);
  });

  it('counts passing and failing checks (a check that never ran is neither)', () => {
    expect(healthCounts(all)).toEqual({ passing: 1, failing: 1 });
  });
});

describe('agent filter', () => {
  const AGENT = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
  const local = check({ agent_id: LOCAL_AGENT_ID });
  const nullAgent = check({ agent_id: null });
  const remote = check({ agent_id: AGENT, agent_name: 'edge' });
  const all = [local, nullAgent, remote];
  const base = { query: '', labels: {}, hidePassing: false, tabBy: 'namespace', tab: ALL_TAB };

  it('keeps every check for all, the local ones for local, one agent by id', () => {
    expect(visibleChecks(all, { ...base, agent: 'all' })).toHaveLength(3);
    expect(visibleChecks(all, base)).toHaveLength(3);
    expect(filterForTabs(all, { ...base, agent: 'local' }).map((c) => c.id)).toEqual([local.id, nullAgent.id]);
    expect(visibleChecks(all, { ...base, agent: AGENT }).map((c) => c.id)).toEqual([remote.id]);
  });
});
