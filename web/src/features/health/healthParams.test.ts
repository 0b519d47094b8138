import { describe, expect, it } from 'vitest';
import { readHealthView, summaryStart, writeHealthView } from './healthParams';

describe('health dashboard query string', () => {
  it('defaults to the table grouped by canary, tabbed by namespace, passing checks hidden', () => {
    const v = readHealthView(new URLSearchParams());
    expect(v).toMatchObject({
      timeRange: undefined,
      layout: 'table',
      groupBy: 'canary_name',
      tabBy: 'namespace',
      tab: 'all',
      hidePassing: true,
      sortBy: 'name',
      sortDesc: false,
      labels: {},
      query: '',
      checkId: undefined,
    });
  });

  it('reads every parameter of a shared link', () => {
    const v = readHealthView(
      new URLSearchParams(
        'timeRange=1w&layout=card&checkId=abc&labels=%7B%22env%3Dprod%22%3A1%2C%22team%3Dx%22%3A-1%7D&agent=local&query=api' +
          '&sortBy=uptime&sortDesc=true&groupBy=type&tabBy=team&tab=payments&hidePassing=false&pivotBy=labels&pivotLabel=env&pivotCellType=uptime',
      ),
    );
    expect(v).toEqual({
      timeRange: '1w',
      layout: 'card',
      checkId: 'abc',
      labels: { 'env=prod': 1, 'team=x': -1 },
      agent: 'local',
      query: 'api',
      sortBy: 'uptime',
      sortDesc: true,
      groupBy: 'type',
      tabBy: 'team',
      tab: 'payments',
      hidePassing: false,
      pivotBy: 'labels',
      pivotLabel: 'env',
      pivotCellType: 'uptime',
    });
  });

  it('ignores values it does not know', () => {
    const v = readHealthView(new URLSearchParams('timeRange=7 days&layout=grid&sortBy=colour&labels=[1]'));
    expect(v.timeRange).toBeUndefined();
    expect(v.layout).toBe('table');
    expect(v.sortBy).toBe('name');
    expect(v.labels).toEqual({});
  });

  it('writes changes, dropping defaults and empty values, and keeps other parameters', () => {
    const start = new URLSearchParams('checkId=abc&groupBy=type&hidePassing=false');
    const next = writeHealthView(start, {
      groupBy: 'canary_name',
      hidePassing: true,
      query: 'dns',
      labels: { 'a=b': 1 },
    });
    expect(Object.fromEntries(next)).toEqual({ checkId: 'abc', query: 'dns', labels: '{"a=b":1}' });
    expect(writeHealthView(next, { labels: {}, query: '' }).toString()).toBe('checkId=abc');
  });

  it('forgets the selected tab when Tab By changes', () => {
    const next = writeHealthView(new URLSearchParams('tabBy=team&tab=payments'), { tabBy: 'agent' });
    expect(Object.fromEntries(next)).toEqual({ tabBy: 'agent' });
  });
});

describe('summary time range', () => {
  it('sends durations the server reads, months and years as minutes', () => {
    expect(summaryStart('15m')).toBe('15m');
    expect(summaryStart('1h')).toBe('1h');
    expect(summaryStart('2w')).toBe('2w');
    expect(summaryStart('1mo')).toBe('43200m');
    expect(summaryStart('1y')).toBe('525600m');
  });

  it('keeps the Agent filter in the URL (all is the default)', () => {
    expect(readHealthView(new URLSearchParams()).agent).toBe('all');
    expect(readHealthView(new URLSearchParams('agent=local')).agent).toBe('local');
    expect(readHealthView(new URLSearchParams('agent=nonsense')).agent).toBe('all');
    const id = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
    expect(writeHealthView(new URLSearchParams(), { agent: id }).get('agent')).toBe(id);
    expect(writeHealthView(new URLSearchParams('agent=local'), { agent: 'all' }).has('agent')).toBe(false);
  });
});
