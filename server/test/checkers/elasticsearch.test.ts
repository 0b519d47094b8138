// The elasticsearch checker against a loopback HTTP server answering POST /{index}/_search with
// Elasticsearch-shaped JSON: search responses (7+ and 6.x hit totals) and error responses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elasticsearchChecker } from '../../src/health/checkers/elasticsearch.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { closedPort, loopbackServer, sendJson, type LoopbackServer } from './ports.js';

const DOCS = [
  { _id: '1', _source: { level: 'error', message: 'disk full' } },
  { _id: '2', _source: { level: 'info', message: 'started' } },
  { _id: '3', _source: { level: 'error', message: 'timeout' } },
];

function esError(status: number, type: string, reason: string) {
  return { error: { root_cause: [{ type, reason }], type, reason }, status };
}

let es: LoopbackServer;

beforeAll(async () => {
  es = await loopbackServer((req, body, res) => {
    const m = /^\/(?:([^/]+)\/)?_search$/.exec(req.url ?? '');
    if (!m || req.method !== 'POST')
      return sendJson(res, 405, esError(405, 'method_not_allowed', `Incorrect HTTP method for uri [${req.url}]`));
    if (
      req.headers.authorization &&
      req.headers.authorization !== `Basic ${Buffer.from('elastic:changeme').toString('base64')}`
    ) {
      return sendJson(
        res,
        401,
        esError(401, 'security_exception', 'unable to authenticate user [elastic] for REST request [/_search]'),
      );
    }
    const index = decodeURIComponent(m[1] ?? '_all');
    if (!['logs', 'logs-*', '_all', 'legacy'].includes(index))
      return sendJson(res, 404, { ...esError(404, 'index_not_found_exception', `no such index [${index}]`) });
    let query: { query?: { match_all?: object; match?: Record<string, string> } } = {};
    if (body) {
      query = JSON.parse(body) as typeof query;
      if (query.query && !query.query.match && !query.query.match_all)
        return sendJson(res, 400, esError(400, 'parsing_exception', `unknown query [${Object.keys(query.query)[0]}]`));
    }
    const match = query.query?.match;
    const hits = DOCS.filter(
      (d) => !match || Object.entries(match).every(([k, v]) => (d._source as Record<string, string>)[k] === v),
    );
    const total = index === 'legacy' ? hits.length : { value: hits.length, relation: 'eq' };
    sendJson(res, 200, {
      took: 3,
      timed_out: false,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: { total, max_score: 1, hits: hits.map((h) => ({ _index: 'logs', _score: 1, ...h })) },
    });
  });
});
afterAll(() => es.close());

function spec(fields: Record<string, unknown>) {
  return elasticsearchChecker.schema.parse({ name: 'es', ...fields });
}

const errors = JSON.stringify({ query: { match: { level: 'error' } } });

describe('elasticsearch', () => {
  it('passes when the hit count equals results and exposes the response', async () => {
    const r = await elasticsearchChecker.run(
      spec({ url: es.url, index: 'logs', query: errors, results: 2 }),
      testCheckContext(),
    );
    expect(r).toMatchObject({
      pass: true,
      message: '2 hits in logs',
      data: { count: 2 },
      results: { hits: { total: { value: 2 } } },
    });
    expect(es.requests.at(-1)).toMatchObject({ method: 'POST', url: '/logs/_search', body: errors });
    expect(es.requests.at(-1)!.headers['content-type']).toBe('application/json');
  });

  it('fails when the count differs; an omitted results expects none (as canary-checker)', async () => {
    const r = await elasticsearchChecker.run(
      spec({ url: es.url, index: 'logs', query: errors, results: 1 }),
      testCheckContext(),
    );
    expect(r).toMatchObject({ pass: false, error: 'expected 1 hit, got 2', data: { count: 2 } });
    const none = await elasticsearchChecker.run(
      spec({ url: es.url, index: 'logs', query: JSON.stringify({ query: { match: { level: 'fatal' } } }) }),
      testCheckContext(),
    );
    expect(none).toMatchObject({ pass: true, data: { count: 0 } });
    expect(
      (await elasticsearchChecker.run(spec({ url: es.url, index: 'logs', query: errors }), testCheckContext())).error,
    ).toBe('expected 0 hits, got 2');
  });

  it('reads 6.x numeric totals, index patterns and an empty body (match all)', async () => {
    expect(
      await elasticsearchChecker.run(spec({ url: es.url, index: 'legacy', results: 3 }), testCheckContext()),
    ).toMatchObject({ pass: true, data: { count: 3 } });
    expect(es.requests.at(-1)!.body).toBe('');
    expect(
      (await elasticsearchChecker.run(spec({ url: es.url, index: 'logs-*', results: 3 }), testCheckContext())).pass,
    ).toBe(true);
    expect(es.requests.at(-1)!.url).toBe('/logs-*/_search');
  });

  it('sends Basic auth from a connection and reports a rejected login', async () => {
    const ok = testCheckContext({
      connections: { es: { type: 'elasticsearch', url: es.url, username: 'elastic', password: 'changeme' } },
    });
    expect(
      (
        await elasticsearchChecker.run(
          spec({ connection: 'connection://elasticsearch/es', index: 'logs', results: 3 }),
          ok,
        )
      ).pass,
    ).toBe(true);
    const r = await elasticsearchChecker.run(
      spec({ url: es.url, username: 'elastic', password: { value: 'wrong' }, index: 'logs' }),
      testCheckContext(),
    );
    expect(r).toMatchObject({
      pass: false,
      error:
        'elasticsearch returned HTTP 401: security_exception: unable to authenticate user [elastic] for REST request [/_search]',
    });
  });

  it('fails with the Elasticsearch error for a missing index or a bad query', async () => {
    const missing = await elasticsearchChecker.run(
      spec({ url: es.url, index: 'nope', query: errors }),
      testCheckContext(),
    );
    expect(missing).toMatchObject({
      pass: false,
      error: 'elasticsearch returned HTTP 404: index_not_found_exception: no such index [nope]',
    });
    const bad = await elasticsearchChecker.run(
      spec({ url: es.url, index: 'logs', query: '{"query":{"bogus":{}}}' }),
      testCheckContext(),
    );
    expect(bad).toMatchObject({
      pass: false,
      error: 'elasticsearch returned HTTP 400: parsing_exception: unknown query [bogus]',
    });
  });

  it('is invalid for a query that is not JSON; fails clearly when nothing listens', async () => {
    const r = await elasticsearchChecker.run(
      spec({ url: es.url, index: 'logs', query: '{level: error}' }),
      testCheckContext(),
    );
    expect(r).toMatchObject({ invalid: true });
    expect(r.error).toMatch(/^query is not valid JSON/);
    const port = await closedPort();
    expect(
      await elasticsearchChecker.run(spec({ url: `http://127.0.0.1:${port}`, index: 'logs' }), testCheckContext()),
    ).toMatchObject({ pass: false, error: `connection refused: 127.0.0.1:${port}` });
  });
});
