import { describe, expect, it } from 'vitest';
import { logsRequest, PAGE_SIZE } from './logsApi';

const now = new Date('2024-05-15T12:30:00Z');

describe('logs request', () => {
  it('asks for a page of the component’s selector, search and relative range', () => {
    const body = logsRequest(
      {
        topologyId: 'c1',
        selector: 'app',
        query: 'error',
        range: { type: 'relative', range: 'now-1h', display: 'Last 1 hour' },
      },
      {},
      now,
    );
    expect(body).toEqual({ id: 'c1', selector: 'app', query: 'error', start: 'now-1h', limit: PAGE_SIZE });
  });

  it('sends the cursor of the next page and absolute dates as they are', () => {
    const range = {
      type: 'absolute',
      from: '2024-05-01T00:00:00Z',
      to: '2024-05-02T00:00:00Z',
      display: 'Custom',
    } as const;
    expect(logsRequest({ topologyId: 'c1', range }, { cursor: 'abc', limit: 10 }, now)).toEqual({
      id: 'c1',
      start: range.from,
      end: range.to,
      cursor: 'abc',
      limit: 10,
    });
  });

  it('asks for a catalog item’s logs by config_id', () => {
    const range = { type: 'relative', range: 'now-1h', display: 'Last 1 hour' } as const;
    expect(logsRequest({ configId: 'i1', selector: 'pods', range }, {}, now)).toEqual({
      config_id: 'i1',
      selector: 'pods',
      start: 'now-1h',
      limit: PAGE_SIZE,
    });
  });

  it('resolves a quick range to dates', () => {
    const body = logsRequest({ topologyId: 'c1', range: { type: 'mapped', display: 'Today so far' } }, {}, now);
    expect(new Date(body.end!).toISOString()).toBe(now.toISOString());
    expect(new Date(body.start!).getTime()).toBeLessThanOrEqual(now.getTime());
  });
});
