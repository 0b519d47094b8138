// The http checker against real loopback servers: an HTTP one with status, slow, redirect, auth, echo
// and gzip routes, and an HTTPS one whose self-signed certificate expires in three days.
import { durationToMs, type Duration } from '../../src/expr/duration.js';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpChecker, httpSchema, type HttpSpec } from '../../src/health/checkers/http.js';
import { testCheckContext } from '../helpers/checkContext.js';

const DAY = 86_400_000;

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const u = new URL(req.url ?? '/', 'http://x');
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    const p = u.pathname;
    if (p === '/ok') {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-Custom': 'yes' }).end('all ok here');
    } else if (p.startsWith('/status/')) {
      res.writeHead(Number(p.slice('/status/'.length)), { 'content-type': 'text/plain' }).end('status page');
    } else if (p === '/slow') {
      setTimeout(() => res.writeHead(200).end('slow ok'), Number(u.searchParams.get('ms') ?? 300));
    } else if (p === '/hang') {
      // never answers
    } else if (p === '/json') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'ok', items: [{ id: 7 }] }));
    } else if (p === '/badjson') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{not json');
    } else if (p === '/gzip') {
      res
        .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
        .end(zlib.gzipSync('compressed hello'));
    } else if (p === '/r1') {
      res.writeHead(302, { location: '/r2' }).end();
    } else if (p === '/r2') {
      res.writeHead(301, { location: '/ok' }).end();
    } else if (p === '/loop') {
      res.writeHead(302, { location: '/loop' }).end();
    } else if (p === '/post-redirect') {
      res.writeHead(303, { location: '/echo' }).end();
    } else if (p === '/auth') {
      const expected = `Basic ${Buffer.from('alice:s3cret').toString('base64')}`;
      if (req.headers.authorization === expected) res.writeHead(200).end('welcome alice');
      else res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end('who are you');
    } else if (p === '/token') {
      const ok = req.headers.authorization === `Basic ${Buffer.from('client:secret').toString('base64')}`;
      const form = new URLSearchParams(body);
      if (ok && form.get('grant_type') === 'client_credentials') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: `tok-${form.get('scope')}` }));
      } else res.writeHead(401).end('bad client');
    } else if (p === '/bearer') {
      if (req.headers.authorization === 'Bearer tok-read write') res.writeHead(200).end('bearer ok');
      else res.writeHead(403).end(`got ${req.headers.authorization}`);
    } else if (p === '/echo') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          method: req.method,
          body,
          contentType: req.headers['content-type'] ?? null,
          headers: req.headers,
        }),
      );
    } else {
      res.writeHead(404).end('not found');
    }
  });
}

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

let plain: http.Server;
let secure: https.Server;
let base: string;
let tlsBase: string;
let cert: string;

beforeAll(async () => {
  plain = http.createServer(handler);
  base = `http://127.0.0.1:${await listen(plain)}`;
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    notBeforeDate: new Date(Date.now() - DAY),
    notAfterDate: new Date(Date.now() + 3 * DAY + 60_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  cert = pems.cert;
  secure = https.createServer({ key: pems.private, cert: pems.cert }, handler);
  tlsBase = `https://127.0.0.1:${await listen(secure)}`;
});

afterAll(async () => {
  plain.closeAllConnections();
  secure.closeAllConnections();
  await Promise.all([new Promise((r) => plain.close(r)), new Promise((r) => secure.close(r))]);
});

function spec(fields: Partial<HttpSpec>): HttpSpec {
  return httpSchema.parse({ name: 'http-test', ...fields });
}

async function run(fields: Partial<HttpSpec>, ctx = testCheckContext()) {
  return httpChecker.run(spec(fields), ctx);
}

describe('http: status codes and content', () => {
  it('passes on a 2xx and exposes code, lower-cased headers, elapsed and content', async () => {
    const r = await run({ url: `${base}/ok` });
    expect(r.error).toBeUndefined();
    expect(r.pass).toBe(true);
    expect(r.data.code).toBe(200);
    expect((r.data.headers as Record<string, string>)['x-custom']).toBe('yes');
    // Durations for expressions (Duration('1s') comparisons, Go-style in templates), ms when stored.
    expect(durationToMs(r.data.elapsed as Duration)).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(JSON.stringify(r.data.elapsed))).toBe(durationToMs(r.data.elapsed as Duration));
    expect(r.data.content).toBe('all ok here');
    // Also by canonical name, as canary-checker gives them; a zero sslAge without TLS, as it does.
    expect((r.data.headers as Record<string, string>)['X-Custom']).toBe('yes');
    expect(durationToMs(r.data.sslAge as Duration)).toBe(0);
    expect(r.message).toMatch(/^200 OK in \d+ ms$/);
  });

  it('fails on a 503 by default, and against an explicit list', async () => {
    const r = await run({ url: `${base}/status/503` });
    expect(r.pass).toBe(false);
    expect(r.error).toBe('expected a 2xx status, got 503');
    expect(r.data.code).toBe(503);
    const r2 = await run({ url: `${base}/status/503`, responseCodes: [200] });
    expect(r2.error).toBe('expected status 200, got 503');
    const r3 = await run({ url: `${base}/status/201`, responseCodes: [200, 202] });
    expect(r3.error).toBe('expected status 200 or 202, got 201');
  });

  it('passes when the code is in responseCodes even if it is not 2xx', async () => {
    const r = await run({ url: `${base}/status/404`, responseCodes: [404] });
    expect(r.pass).toBe(true);
  });

  it('checks responseContent as a substring', async () => {
    expect((await run({ url: `${base}/ok`, responseContent: 'ok here' })).pass).toBe(true);
    const r = await run({ url: `${base}/ok`, responseContent: 'healthy' });
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/^response does not contain "healthy"/);
  });

  it('parses JSON responses into json and checks responseJSONContent', async () => {
    const r = await run({ url: `${base}/json`, responseJSONContent: { path: '$.items[0].id', value: '7' } });
    expect(r.pass).toBe(true);
    expect(r.data.json).toEqual({ status: 'ok', items: [{ id: 7 }] });
    const r2 = await run({ url: `${base}/json`, responseJSONContent: { path: '$.status', value: 'down' } });
    expect(r2.error).toBe('the JSON response has ok at $.status, expected down');
  });

  it('fails on a JSON content-type that does not parse, unless a test expression takes over', async () => {
    const r = await run({ url: `${base}/badjson` });
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/says it is JSON .* but does not parse/);
    const r2 = await run({ url: `${base}/badjson`, test: { expr: 'code == 200' } });
    expect(r2.pass).toBe(true);
    expect(r2.data.json).toEqual({});
  });

  it('decodes gzip bodies', async () => {
    const r = await run({ url: `${base}/gzip`, responseContent: 'compressed hello' });
    expect(r.pass).toBe(true);
  });
});

describe('http: threshold and timeouts', () => {
  it('fails a response slower than thresholdMillis, passes a fast one', async () => {
    const r = await run({ url: `${base}/slow?ms=300`, thresholdMillis: 100 });
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/^response took \d+ ms, over the 100 ms threshold$/);
    expect(durationToMs(r.data.elapsed as Duration)).toBeGreaterThanOrEqual(290);
    expect((await run({ url: `${base}/slow?ms=20`, thresholdMillis: 5000 })).pass).toBe(true);
  });

  it('stops at the spec timeout with a clear message', async () => {
    const started = Date.now();
    const r = await run({ url: `${base}/hang`, timeout: '300ms' });
    expect(r.pass).toBe(false);
    expect(r.error).toBe('timed out after 300 ms');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops when the context aborts', async () => {
    const r = await run({ url: `${base}/hang` }, testCheckContext({ timeoutMs: 250 }));
    expect(r.pass).toBe(false);
    expect(r.error).toBe('timed out after 250 ms');
  });

  it('reports a refused connection', async () => {
    const r = await run({ url: 'http://127.0.0.1:1/' });
    expect(r.pass).toBe(false);
    expect(r.invalid).toBeFalsy();
    expect(r.error).toBe('connection refused: 127.0.0.1:1');
  });
});

describe('http: TLS', () => {
  it('passes with the certificate as CA and exposes sslAge (ms until expiry)', async () => {
    const r = await run({ url: `${tlsBase}/ok`, tlsConfig: { ca: { value: cert } }, maxSSLExpiry: 2 });
    expect(r.error).toBeUndefined();
    expect(r.pass).toBe(true);
    const age = durationToMs(r.data.sslAge as Duration);
    expect(age).toBeGreaterThan(2.9 * DAY);
    expect(age).toBeLessThan(3.1 * DAY);
  });

  it('fails when the certificate expires sooner than maxSSLExpiry days', async () => {
    const r = await run({ url: `${tlsBase}/ok`, insecureSkipVerify: true, maxSSLExpiry: 7 });
    expect(r.pass).toBe(false);
    expect(r.error).toBe('SSL certificate expires in 3 days, under the 7 day minimum');
  });

  it('refuses an untrusted certificate unless told to skip verification', async () => {
    const r = await run({ url: `${tlsBase}/ok` });
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/TLS certificate of 127\.0\.0\.1:\d+ is not trusted .*tlsConfig\.insecureSkipVerify/);
    expect((await run({ url: `${tlsBase}/ok`, tlsConfig: { insecureSkipVerify: true } })).pass).toBe(true);
  });

  it('fails maxSSLExpiry on a plain http URL with a clear reason', async () => {
    const r = await run({ url: `${base}/ok`, maxSSLExpiry: 7 });
    expect(r.error).toMatch(/not served over TLS/);
  });

  it('checks the order: the response code is judged before SSL expiry', async () => {
    const r = await run({ url: `${tlsBase}/status/500`, insecureSkipVerify: true, maxSSLExpiry: 7 });
    expect(r.error).toBe('expected a 2xx status, got 500');
  });
});

describe('http: redirects', () => {
  it('follows redirects by default and keeps the chain', async () => {
    const r = await run({ url: `${base}/r1` });
    expect(r.pass).toBe(true);
    expect(r.data.url).toBe(`${base}/ok`);
    expect(r.data.redirects).toEqual([
      { url: `${base}/r1`, code: 302, location: `${base}/r2` },
      { url: `${base}/r2`, code: 301, location: `${base}/ok` },
    ]);
  });

  it('does not follow when followRedirects is false', async () => {
    const r = await run({ url: `${base}/r1`, followRedirects: false });
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/^expected a 2xx status, got 302 \(redirect to \/r2; followRedirects is off\)$/);
    expect((await run({ url: `${base}/r1`, followRedirects: false, responseCodes: [302] })).pass).toBe(true);
  });

  it('gives up on a redirect loop', async () => {
    const r = await run({ url: `${base}/loop` });
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/^stopped after 10 redirects/);
  });

  it('turns a POST into a GET on 303', async () => {
    const r = await run({ url: `${base}/post-redirect`, method: 'POST', body: 'x=1' });
    expect(r.pass).toBe(true);
    expect((r.data.json as { method: string }).method).toBe('GET');
  });
});

describe('http: authentication, methods, bodies and headers', () => {
  it('sends basic auth from username/password', async () => {
    const r = await run({
      url: `${base}/auth`,
      username: { value: 'alice' },
      password: { value: 's3cret' },
      responseContent: 'welcome',
    });
    expect(r.pass).toBe(true);
    const wrong = await run({ url: `${base}/auth`, username: { value: 'alice' }, password: { value: 'nope' } });
    expect(wrong.pass).toBe(false);
    expect(wrong.error).toBe('expected a 2xx status, got 401');
  });

  it('takes credentials from the URL and from a connection', async () => {
    const port = new URL(base).port;
    expect((await run({ url: `http://alice:s3cret@127.0.0.1:${port}/auth` })).pass).toBe(true);
    const ctx = testCheckContext({
      connections: { web: { type: 'http', url: `${base}/auth`, username: 'alice', password: 's3cret' } },
    });
    const r = await run({ connection: 'connection://http/web' }, ctx);
    expect(r.pass).toBe(true);
    const missing = await run({ connection: 'connection://http/absent' }, ctx);
    expect(missing.invalid).toBe(true);
    expect(missing.error).toBe('connection "connection://http/absent" was not found');
  });

  it('interpolates $(username) and $(password) into the URL', async () => {
    const r = await run({ url: `${base}/echo?u=$(username)`, username: 'bob smith', password: 'pw' });
    expect(r.pass).toBe(true);
    expect(r.data.url).toBe(`${base}/echo?u=bob%20smith`);
  });

  it('gets an OAuth2 client-credentials token and sends it as a bearer token', async () => {
    const r = await run({
      url: `${base}/bearer`,
      username: 'client',
      password: 'secret',
      oauth2: { tokenURL: `${base}/token`, scope: ['read', 'write'] },
    });
    expect(r.error).toBeUndefined();
    expect(r.pass).toBe(true);
    const bad = await run({
      url: `${base}/bearer`,
      username: 'client',
      password: 'wrong',
      oauth2: { tokenURL: `${base}/token` },
    });
    expect(bad.pass).toBe(false);
    expect(bad.error).toMatch(/^OAuth2 token request to .* failed: expected a 2xx status, got 401/);
  });

  it('POSTs a body, with a JSON content type when the body is JSON', async () => {
    const r = await run({ url: `${base}/echo`, method: 'post', body: '{"hello":"world"}' });
    expect(r.pass).toBe(true);
    expect(r.data.json).toMatchObject({ method: 'POST', body: '{"hello":"world"}', contentType: 'application/json' });
    const put = await run({
      url: `${base}/echo`,
      method: 'PUT',
      body: 'plain text',
      headers: [{ name: 'Content-Type', value: 'text/csv' }],
    });
    expect(put.data.json).toMatchObject({ method: 'PUT', body: 'plain text', contentType: 'text/csv' });
    const del = await run({ url: `${base}/echo`, method: 'DELETE' });
    expect(del.data.json).toMatchObject({ method: 'DELETE', body: '' });
  });

  it('sends headers given as a list or as a map', async () => {
    const list = await run({ url: `${base}/echo`, headers: [{ name: 'X-Token', value: 'abc' }] });
    expect((list.data.json as { headers: Record<string, string> }).headers['x-token']).toBe('abc');
    const map = await run({ url: `${base}/echo`, headers: { 'X-Other': 'def', 'X-Num': 3 } });
    const got = (map.data.json as { headers: Record<string, string> }).headers;
    expect(got['x-other']).toBe('def');
    expect(got['x-num']).toBe('3');
  });

  it('marks a header whose secret cannot be resolved as invalid', async () => {
    const r = await run({
      url: `${base}/echo`,
      headers: [{ name: 'X-Token', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
    });
    expect(r.pass).toBe(false);
    expect(r.invalid).toBe(true);
    expect(r.error).toMatch(/^headers\.X-Token: /);
  });
});

describe('http: spec validation', () => {
  it('accepts the old endpoint name and keeps unknown fields', () => {
    const parsed = httpSchema.parse({
      name: 'a',
      endpoint: 'http://x/',
      somethingNew: { a: 1 },
      labels: { team: 'ops' },
    });
    expect(parsed.somethingNew).toEqual({ a: 1 });
    expect(httpChecker.endpoint(parsed)).toBe('http://x/');
  });

  it('refuses NTLM with a clear message', () => {
    const r = httpSchema.safeParse({ name: 'a', url: 'http://x/', ntlm: true });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toContain('NTLM authentication is not supported yet');
    expect(httpSchema.safeParse({ name: 'a', url: 'http://x/', ntlmv2: true }).error?.issues[0]?.message).toBe(
      'NTLM authentication is not supported yet',
    );
  });

  it('requires a name and a url', () => {
    const r = httpSchema.safeParse({});
    expect(r.success).toBe(false);
    const messages = r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(messages).toContain('name: name is required');
  });

  it('marks an unparseable URL as invalid at run time', async () => {
    const r = await run({ url: 'not a url' });
    expect(r.invalid).toBe(true);
    expect(r.error).toMatch(/is not a valid URL/);
  });

  it('hides credentials in the endpoint', () => {
    expect(httpChecker.endpoint(spec({ url: 'https://u:p@example.com/x' }))).toBe('https://example.com/x');
  });
});
