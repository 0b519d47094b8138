import { describe, expect, it } from 'vitest';
import { effectiveSelector, rangeFromParams, rangeToParams, readLogsParams, writeLogsParams } from './logsParams';

describe('logs query string', () => {
  it('reads component, selector, query and a relative start', () => {
    const p = readLogsParams(new URLSearchParams('topologyId=c1&logsSelector=app&query=error&start=now-1h'));
    expect(p).toEqual({
      topologyId: 'c1',
      configId: undefined,
      logsSelector: 'app',
      query: 'error',
      range: { type: 'relative', range: 'now-1h', display: 'Last 1 hour' },
    });
  });

  it('defaults to the last 15 minutes and drops blank values', () => {
    const p = readLogsParams(new URLSearchParams('topologyId=&query=%20%20'));
    expect(p.topologyId).toBeUndefined();
    expect(p.query).toBeUndefined();
    expect(p.range).toEqual({ type: 'relative', range: 'now-15m', display: 'Last 15 minutes' });
  });

  it('round-trips absolute and quick ranges through start and end', () => {
    const absolute = {
      type: 'absolute',
      from: '2024-05-01T10:00:00.000Z',
      to: '2024-05-01T11:00:00.000Z',
      display: 'Custom',
    } as const;
    expect(rangeToParams(absolute)).toEqual({ start: absolute.from, end: absolute.to });
    expect(rangeFromParams(absolute.from, absolute.to)).toEqual(absolute);
    expect(rangeToParams({ type: 'mapped', display: 'Today' })).toEqual({ start: 'now/d', end: 'now/d' });
    expect(rangeFromParams('now/d', 'now/d')).toEqual({ type: 'mapped', display: 'Today' });
    // An unusual relative expression is kept as written.
    expect(rangeFromParams('now-1d/d', null)).toEqual({ type: 'relative', range: 'now-1d/d', display: 'now-1d/d' });
  });

  it('a new component drops the selector; the same component keeps it', () => {
    const base = new URLSearchParams('topologyId=c1&logsSelector=app&query=x');
    expect(writeLogsParams(base, { topologyId: 'c2' }).toString()).toBe('topologyId=c2&query=x');
    expect(writeLogsParams(base, { topologyId: 'c1' }).get('logsSelector')).toBe('app');
    expect(writeLogsParams(base, { query: '  ' }).has('query')).toBe(false);
  });

  it('a catalog item is configId: choosing one drops the component, and the other way round', () => {
    expect(readLogsParams(new URLSearchParams('configId=i1&logsSelector=pods')).configId).toBe('i1');
    expect(readLogsParams(new URLSearchParams('configId=i1&topologyId=c1')).configId).toBeUndefined();
    const component = new URLSearchParams('topologyId=c1&logsSelector=app&query=x');
    const item = writeLogsParams(component, { configId: 'i1' });
    expect(item.toString()).toBe('query=x&configId=i1');
    expect(writeLogsParams(item, { topologyId: 'c1' }).toString()).toBe('query=x&topologyId=c1');
    expect(
      writeLogsParams(new URLSearchParams('configId=i1&logsSelector=a'), { configId: 'i1' }).get('logsSelector'),
    ).toBe('a');
  });

  it('writes a range as start (and end), and clearing it removes both', () => {
    let p = writeLogsParams(new URLSearchParams(), { range: { type: 'mapped', display: 'Yesterday' } });
    expect(p.toString()).toBe('start=now-1d%2Fd&end=now-1d%2Fd');
    p = writeLogsParams(p, { range: { type: 'relative', range: 'now-1h', display: 'Last 1 hour' } });
    expect(p.toString()).toBe('start=now-1h');
    expect(writeLogsParams(p, { range: undefined }).toString()).toBe('');
  });

  it('auto-selects the first selector unless the link names one the component has', () => {
    expect(effectiveSelector(['app', 'access'], undefined)).toBe('app');
    expect(effectiveSelector(['app', 'access'], 'access')).toBe('access');
    expect(effectiveSelector(['app'], 'gone')).toBe('app');
    expect(effectiveSelector([], 'x')).toBeUndefined();
  });
});
