// The prometheus checker against a loopback HTTP server answering with the response shapes of the
// Prometheus HTTP API (GET /api/v1/query): vector, scalar and matrix successes, and error responses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prometheusChecker } from '../../src/health/checkers/prometheus.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { closedPort, loopbackServer, sendJson, type LoopbackServer } from './ports.js';

let prom: LoopbackServer;

beforeAll(async () => {
  prom = await loopbackServer((req, _body, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (!u.pathname.endsWith('/api/v1/query'))
      return sendJson(res, 404, { status: 'error', errorType: 'not_found', error: 'not found' });
    const query = u.searchParams.get('query');
    if (query === 'up') {
      return sendJson(res, 200, {
        status: 'success',
        data: {
          resultType: 'vector',
          result: [
            { metric: { __name__: 'up', job: 'prometheus', instance: 'localhost:9090' }, value: [1435781451.781, '1'] },
            { metric: { __name__: 'up', job: 'node', instance: 'localhost:9100' }, value: [1435781451.781, '0'] },
          ],
        },
      });
    }
    if (query === 'scalar(1+1)')
      return sendJson(res, 200, { status: 'success', data: { resultType: 'scalar', result: [1435781451.781, '2'] } });
    if (query === 'up[5m]') {
      return sendJson(res, 200, {
        status: 'success',
        data: {
          resultType: 'matrix',
          result: [
            {
              metric: { job: 'node' },
              values: [
                [1435781430.781, '1'],
                [1435781445.781, '0'],
              ],
            },
          ],
        },
      });
    }
    if (query === 'absent_metric')
      return sendJson(res, 200, {
        status: 'success',
        data: { resultType: 'vector', result: [] },
        warnings: ['PromQL info: metric might not exist'],
      });
    if (query === 'boom')
      return sendJson(res, 503, {
        status: 'error',
        errorType: 'timeout',
        error: 'query timed out in expression evaluation',
      });
    if (query === 'html') {
      res.writeHead(502, { 'content-type': 'text/html' });
      return res.end('<html>Bad Gateway</html>');
    }
    return sendJson(res, 400, {
      status: 'error',
      errorType: 'bad_data',
      error: `invalid parameter "query": 1:${query?.length ?? 0}: parse error: unexpected <EOF>`,
    });
  });
});
afterAll(() => prom.close());

function spec(fields: Record<string, unknown>) {
  return prometheusChecker.schema.parse({ name: 'prom', ...fields });
}

describe('prometheus', () => {
  it('requires a query and accepts the deprecated host', () => {
    expect(() => prometheusChecker.schema.parse({ name: 'p', url: 'http://x' })).toThrow();
    expect(prometheusChecker.endpoint(spec({ host: 'http://u:p@prom:9090', query: 'up' }))).toBe('http://prom:9090');
  });

  it('exposes a vector as results, value and firstResult', async () => {
    const r = await prometheusChecker.run(spec({ url: prom.url, query: 'up' }), testCheckContext());
    expect(r).toMatchObject({ pass: true, message: '2 results, first value 1' });
    expect(r.data).toEqual({
      results: [
        { __name__: 'up', job: 'prometheus', instance: 'localhost:9090', value: 1 },
        { __name__: 'up', job: 'node', instance: 'localhost:9100', value: 0 },
      ],
      value: 1,
      firstResult: { __name__: 'up', job: 'prometheus', instance: 'localhost:9090', value: 1 },
    });
    expect(prom.requests.at(-1)).toMatchObject({ method: 'GET', url: '/api/v1/query?query=up' });
  });

  it('handles scalar and matrix results, an empty vector and warnings', async () => {
    expect(
      (await prometheusChecker.run(spec({ url: prom.url, query: 'scalar(1+1)' }), testCheckContext())).data,
    ).toMatchObject({ value: 2, results: [{ value: 2 }] });
    expect(
      (await prometheusChecker.run(spec({ url: prom.url, query: 'up[5m]' }), testCheckContext())).data,
    ).toMatchObject({ value: 0, results: [{ job: 'node', value: 0 }] });
    const empty = await prometheusChecker.run(spec({ url: prom.url, query: 'absent_metric' }), testCheckContext());
    expect(empty).toMatchObject({
      pass: true,
      message: '0 results',
      data: { results: [], value: 0, firstResult: {}, warnings: ['PromQL info: metric might not exist'] },
    });
  });

  it('uses a path prefix, the deprecated host and Basic auth from a connection', async () => {
    const ctx = testCheckContext({
      connections: {
        prom: { type: 'prometheus', url: `${prom.url}/prometheus/`, username: 'reader', password: 's3cret' },
      },
    });
    const r = await prometheusChecker.run(spec({ connection: 'connection://prometheus/prom', query: 'up' }), ctx);
    expect(r.pass).toBe(true);
    const req = prom.requests.at(-1)!;
    expect(req.url).toBe('/prometheus/api/v1/query?query=up');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('reader:s3cret').toString('base64')}`);
    expect((await prometheusChecker.run(spec({ host: prom.url, query: 'up' }), testCheckContext())).pass).toBe(true);
  });

  it('fails with the API error for a bad query or a failing server', async () => {
    const bad = await prometheusChecker.run(spec({ url: prom.url, query: 'sum(' }), testCheckContext());
    expect(bad).toMatchObject({
      pass: false,
      error: 'query failed (HTTP 400, bad_data): invalid parameter "query": 1:4: parse error: unexpected <EOF>',
    });
    const boom = await prometheusChecker.run(spec({ url: prom.url, query: 'boom' }), testCheckContext());
    expect(boom).toMatchObject({
      pass: false,
      error: 'query failed (HTTP 503, timeout): query timed out in expression evaluation',
    });
    const html = await prometheusChecker.run(spec({ url: prom.url, query: 'html' }), testCheckContext());
    expect(html).toMatchObject({
      pass: false,
      error: `${prom.url} did not answer like Prometheus (HTTP 502): <html>Bad Gateway</html>`,
    });
  });

  it('fails clearly when nothing listens, and is invalid for a bad url', async () => {
    const port = await closedPort();
    const r = await prometheusChecker.run(spec({ url: `http://127.0.0.1:${port}`, query: 'up' }), testCheckContext());
    expect(r).toMatchObject({ pass: false, error: `connection refused: 127.0.0.1:${port}` });
    const bad = await prometheusChecker.run(spec({ url: 'prom:9090', query: 'up' }), testCheckContext());
    expect(bad).toMatchObject({ invalid: true });
    expect((await prometheusChecker.run(spec({ url: 'not a url', query: 'up' }), testCheckContext())).invalid).toBe(
      true,
    );
  });
});
