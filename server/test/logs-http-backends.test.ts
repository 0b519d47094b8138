// The Loki and OpenSearch log backends against loopback stand-ins answering their documented query
// APIs (Loki GET /loki/api/v1/query_range, OpenSearch POST /{index}/_search): the request's
// parameters and body are asserted, pages follow the cursor, credentials and tenant are sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lokiBackend } from '../src/logs/backends/loki.js';
import { opensearchBackend } from '../src/logs/backends/opensearch.js';
import { textMatcher } from '../src/logs/backends/query.js';
import type { LogQuery, SearchContext } from '../src/logs/backends/types.js';
import { startHttpReceiver, type HttpReceiver, type ReceivedRequest } from './helpers/http-receiver.js';

let receiver: HttpReceiver;
let base = '';
let seen: ReceivedRequest[] = [];
let answer: (req: ReceivedRequest) => unknown = () => ({});

beforeAll(async () => {
  receiver = await startHttpReceiver();
  receiver.reply((req) => ({ body: answer(req) as object }));
  base = receiver.url;
  seen = receiver.requests;
});
afterAll(() => receiver.close());

const ctx = (connections: Record<string, object> = {}): SearchContext => ({
  signal: new AbortController().signal,
  timeoutMs: 5000,
  connection: async (ref) =>
    connections[ref]
      ? {
          name: ref,
          type: 'loki',
          url: base,
          username: null,
          password: null,
          certificate: null,
          insecureTls: false,
          properties: {},
          ...connections[ref],
        }
      : undefined,
  resolve: async (v) => (typeof v === 'string' ? v : undefined),
});

const start = new Date('2025-06-01T10:00:00Z');
const end = new Date('2025-06-01T11:00:00Z');
const query = (text: string, over: Partial<LogQuery> = {}): LogQuery => ({
  text,
  match: textMatcher(text),
  start,
  end,
  limit: 2,
  selector: { app: 'shop' },
  ...over,
});
const ns = (iso: string) => `${Date.parse(iso)}000000`;

describe('Loki backend', () => {
  it('asks query_range with LogQL, ns times, limit and backward direction, and pages by the oldest time', async () => {
    seen.length = 0;
    answer = () => ({
      status: 'success',
      data: {
        resultType: 'streams',
        result: [
          { stream: { app: 'shop', pod: 'a' }, values: [[ns('2025-06-01T10:30:00Z'), 'GET /cart timeout']] },
          {
            stream: { app: 'shop', pod: 'b' },
            values: [
              [ns('2025-06-01T10:40:00Z'), 'POST /pay timeout'],
              [ns('2025-06-01T10:20:00Z'), 'GET / timeout'],
            ],
          },
        ],
      },
    });
    const entry = { connection: 'connection://Loki/prod', labels: { env: 'prod' } };
    const c = ctx({ 'connection://Loki/prod': { username: 'u', password: 'p', properties: { tenant: 'team-a' } } });
    const page = await lokiBackend.search([entry], query('timeout'), c);
    const req = seen[0]!;
    expect(req.path).toBe('/loki/api/v1/query_range');
    expect(Object.fromEntries(req.query)).toEqual({
      query: '{env="prod", app="shop"} |= "timeout"',
      start: ns('2025-06-01T10:00:00Z'),
      end: ns('2025-06-01T11:00:00Z'),
      limit: '2',
      direction: 'backward',
    });
    expect(req.headers['x-scope-orgid']).toBe('team-a');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(page.results.map((l) => [l.timestamp, l.message, l.labels.pod])).toEqual([
      ['2025-06-01T10:40:00.000Z', 'POST /pay timeout', 'b'],
      ['2025-06-01T10:30:00.000Z', 'GET /cart timeout', 'a'],
    ]);
    expect(page.nextCursor).not.toBeNull();

    await lokiBackend.search([entry], query('/time(out)?/i', { cursor: page.nextCursor! }), c);
    const next = seen[1]!.query;
    expect(next.get('query')).toBe('{env="prod", app="shop"} |~ "(?i)time(out)?"');
    expect(next.get('end')).toBe(`${BigInt(ns('2025-06-01T10:30:00Z')) + 1n}`);
    expect(next.get('limit')).toBe('3');
  });

  it('sends LogQL as written and a bearer token when there is only a password', async () => {
    seen.length = 0;
    answer = () => ({ status: 'success', data: { resultType: 'streams', result: [] } });
    const page = await lokiBackend.search(
      [{ url: base, password: 'tok' }],
      query('{job="x"} |= "y"', { native: '{job="x"} |= "y"' }),
      ctx(),
    );
    expect(seen[0]!.query.get('query')).toBe('{job="x"} |= "y"');
    expect(seen[0]!.headers.authorization).toBe('Bearer tok');
    expect(page).toEqual({ results: [], nextCursor: null });
  });

  it('names the HTTP status of a refused query', async () => {
    answer = () => ({ error: 'parse error' });
    const failing = await startHttpReceiver();
    failing.reply({ status: 400, body: 'parse error at line 1' });
    const url = failing.url;
    await expect(lokiBackend.search([{ url }], query('x'), ctx())).rejects.toThrow('HTTP 400 parse error at line 1');
    await failing.close();
  });

  it('refuses a cursor that is not one of its own', async () => {
    for (const bad of [
      { v: 1, end: 'soon', seen: [] },
      { v: 1, end: '5', seen: 5 },
    ]) {
      const cursor = Buffer.from(JSON.stringify(bad)).toString('base64url');
      await expect(lokiBackend.search([{ url: base }], query('x', { cursor }), ctx())).rejects.toThrow(
        'cursor: not a cursor of this backend',
      );
    }
  });
});

describe('OpenSearch backend', () => {
  it('posts _search with query_string, the time range, selector filters, sort, size and search_after', async () => {
    seen.length = 0;
    answer = () => ({
      hits: {
        total: { value: 17, relation: 'eq' },
        hits: [
          {
            _id: 'd1',
            _index: 'logs-1',
            _source: {
              '@timestamp': '2025-06-01T10:50:00Z',
              message: 'checkout failed',
              app: 'shop',
              kubernetes: { pod: 'a' },
            },
            sort: [1748775000000, 7],
          },
          {
            _id: 'd2',
            _index: 'logs-1',
            _source: { '@timestamp': '2025-06-01T10:45:00Z', message: 'checkout slow', app: 'shop' },
            sort: [1748774700000, 3],
          },
        ],
      },
    });
    const entry = { url: base, index: 'logs-*', username: 'elastic', password: 'pw' };
    const page = await opensearchBackend.search([entry], query('checkout AND level:error'), ctx());
    const req = seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/logs-*/_search');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('elastic:pw').toString('base64')}`);
    const body = JSON.parse(req.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      size: 2,
      query: {
        bool: {
          must: [{ query_string: { query: 'checkout AND level:error', default_field: 'message' } }],
          filter: [
            { range: { '@timestamp': { gte: '2025-06-01T10:00:00.000Z', lte: '2025-06-01T11:00:00.000Z' } } },
            { match_phrase: { app: 'shop' } },
          ],
        },
      },
      sort: [{ '@timestamp': { order: 'desc' } }, { _doc: { order: 'desc' } }],
    });
    expect(body.search_after).toBeUndefined();
    expect(page.total).toBe(17);
    expect(page.results[0]).toEqual({
      id: 'd1',
      timestamp: '2025-06-01T10:50:00.000Z',
      message: 'checkout failed',
      labels: { app: 'shop', 'kubernetes.pod': 'a', index: 'logs-1' },
    });

    await opensearchBackend.search(
      [{ ...entry, timestampField: 'ts' }],
      query('', { cursor: page.nextCursor! }),
      ctx(),
    );
    const second = JSON.parse(seen[1]!.body) as Record<string, unknown>;
    expect(second.search_after).toEqual([1748774700000, 3]);
    expect(second).toMatchObject({
      query: { bool: { must: [{ query_string: { query: '*' } }] } },
      sort: [{ ts: { order: 'desc' } }, {}],
    });
  });
});
