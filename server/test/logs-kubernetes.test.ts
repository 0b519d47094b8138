// The Kubernetes log backend against a loopback stand-in of the API server (pod list by label
// selector, one pod by name, and pod logs with timestamps, tailLines and sinceSeconds honoured) and
// a kubeconfig file the test writes: request parameters and the bearer token are asserted, lines
// come back newest first across pods and containers with their times parsed and pod/container/
// namespace labels, the cursor pages through ties without repeats, and failures are worded.
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { kubernetesBackend, TAIL_LINES } from '../src/logs/backends/kubernetes.js';
import { textMatcher } from '../src/logs/backends/query.js';
import { LogBackendError, LogRequestError, type LogQuery } from '../src/logs/backends/types.js';
import { loopbackServer, sendJson, type LoopbackServer } from './checkers/ports.js';
import { testCheckContext } from './helpers/checkContext.js';

const kubeconfig = (server: string) => `apiVersion: v1
kind: Config
clusters:
  - name: lab
    cluster: {server: "${server}", insecure-skip-tls-verify: true}
users:
  - name: lab
    user: {token: pod-reader}
contexts:
  - name: lab
    context: {cluster: lab, user: lab, namespace: shop}
current-context: lab
`;

const NOW = Date.now();
/** Kubernetes' RFC3339Nano timestamp of `s` seconds after ten minutes ago, with nanoseconds. */
const at = (s: number) => new Date(NOW - 600_000 + s * 1000).toISOString().replace('Z', '123456Z');
const ms = (s: number) => new Date(NOW - 600_000 + s * 1000).toISOString();

/** What each container has logged, oldest first: [seconds, message]. */
const LOGS: Record<string, [number, string][]> = {
  'web-1/app': [
    [-7200, 'two hours ago: before sinceSeconds'],
    [1, 'GET /cart 200'],
    [3, 'GET /cart 504 upstream timeout'],
    [5, 'GET /pay 200'],
  ],
  'web-1/proxy': [[2, 'proxy ready']],
  'web-2/app': [
    [4, 'GET /cart 200'],
    [5, 'GET /cart 502 bad gateway'],
  ],
};

const pod = (name: string, containers: string[]) => ({
  metadata: { name, namespace: 'shop', labels: { app: 'checkout' } },
  spec: { containers: containers.map((c) => ({ name: c, image: 'x' })) },
  status: { phase: 'Running' },
});
const PODS = [pod('web-1', ['app', 'proxy']), pod('web-2', ['app'])];
/** A pod whose logs this token may not read. */
const LOCKED = {
  ...pod('vault-0', ['vault']),
  metadata: { name: 'vault-0', namespace: 'shop', labels: { app: 'vault' } },
};

function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  const u = new URL(req.url ?? '/', 'http://x');
  if (req.headers.authorization !== 'Bearer pod-reader')
    return sendJson(res, 401, { kind: 'Status', code: 401, message: 'Unauthorized' });
  const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods(?:\/([^/]+))?(\/log)?$/.exec(u.pathname);
  if (!m || m[1] !== 'shop') return sendJson(res, 404, { kind: 'Status', code: 404, reason: 'NotFound' });
  const [, , name, log] = m;
  if (!name) {
    const selector = u.searchParams.get('labelSelector');
    const items = selector === 'app=checkout' ? PODS : selector === 'app=vault' ? [LOCKED] : [];
    return sendJson(res, 200, { kind: 'PodList', apiVersion: 'v1', metadata: {}, items });
  }
  const found = [...PODS, LOCKED].find((p) => p.metadata.name === name);
  if (!found) return sendJson(res, 404, { kind: 'Status', code: 404, reason: 'NotFound' });
  if (!log) return sendJson(res, 200, { kind: 'Pod', apiVersion: 'v1', ...found });
  const container = u.searchParams.get('container') ?? '';
  if (found === LOCKED) return sendJson(res, 403, { kind: 'Status', code: 403, reason: 'Forbidden' });
  const since = NOW - Number(u.searchParams.get('sinceSeconds') ?? 1e9) * 1000;
  const tail = Number(u.searchParams.get('tailLines') ?? 1e9);
  const lines = (LOGS[`${name}/${container}`] ?? [])
    .filter(([s]) => NOW - 600_000 + s * 1000 >= since)
    .slice(-tail)
    .map(([s, text]) => (u.searchParams.get('timestamps') === 'true' ? `${at(s)} ${text}` : text));
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(lines.map((l) => `${l}\n`).join(''));
}

let api: LoopbackServer;
let dir = '';
let file = '';

beforeAll(async () => {
  api = await loopbackServer((req, _body, res) => answer(req, res));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-logs-k8s-'));
  file = path.join(dir, 'kubeconfig.yaml');
  fs.writeFileSync(file, kubeconfig(api.url));
});
afterAll(async () => {
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  // The next file in this worker's process must not read a kubeconfig that is gone.
  delete process.env.KUBECONFIG;
});
beforeEach(() => {
  api.requests.length = 0;
  delete process.env.KUBECONFIG;
});

const query = (over: Partial<LogQuery> = {}): LogQuery => ({
  text: '',
  start: new Date(NOW - 3_600_000),
  end: new Date(NOW + 1000),
  limit: 100,
  selector: { namespace: 'shop', app: 'checkout' },
  ...over,
});
const search = (q: Partial<LogQuery>, entry: Record<string, unknown> = { kubeconfig: file }) =>
  kubernetesBackend.search([kubernetesBackend.schema.parse(entry)], query(q), testCheckContext());
const requests = () => api.requests.map((r) => new URL(r.url, 'http://x'));

describe('kubernetes log backend', () => {
  it('lists the pods by label selector and reads each container with timestamps, tailLines and sinceSeconds', async () => {
    const page = await search({});
    const [list, ...logs] = requests();
    expect(list!.pathname).toBe('/api/v1/namespaces/shop/pods');
    expect(Object.fromEntries(list!.searchParams)).toEqual({ labelSelector: 'app=checkout', limit: '20' });
    expect(logs.map((u) => [u.pathname, u.searchParams.get('container')])).toEqual([
      ['/api/v1/namespaces/shop/pods/web-1/log', 'app'],
      ['/api/v1/namespaces/shop/pods/web-1/log', 'proxy'],
      ['/api/v1/namespaces/shop/pods/web-2/log', 'app'],
    ]);
    for (const u of logs) {
      expect(u.searchParams.get('timestamps')).toBe('true');
      expect(u.searchParams.get('tailLines')).toBe('5000');
      // The range's start (an hour ago) as seconds before now.
      expect(Number(u.searchParams.get('sinceSeconds'))).toBeGreaterThanOrEqual(3600);
      expect(Number(u.searchParams.get('sinceSeconds'))).toBeLessThan(3610);
    }
    expect(api.requests.every((r) => r.headers.authorization === 'Bearer pod-reader')).toBe(true);

    expect(page.nextCursor).toBeNull();
    expect(page.results.map((l) => [l.timestamp, l.message, l.labels.pod, l.labels.container])).toEqual([
      [ms(5), 'GET /pay 200', 'web-1', 'app'],
      [ms(5), 'GET /cart 502 bad gateway', 'web-2', 'app'],
      [ms(4), 'GET /cart 200', 'web-2', 'app'],
      [ms(3), 'GET /cart 504 upstream timeout', 'web-1', 'app'],
      [ms(2), 'proxy ready', 'web-1', 'proxy'],
      [ms(1), 'GET /cart 200', 'web-1', 'app'],
    ]);
    expect(page.results[0]).toEqual({
      id: `web-1/app:${at(5)}:1`,
      timestamp: ms(5),
      message: 'GET /pay 200',
      labels: { namespace: 'shop', pod: 'web-1', container: 'app' },
    });
  });

  it('pages newest first with the cursor, through lines of the same time, without repeats', async () => {
    const all = (await search({})).results.map((l) => l.id);
    for (const limit of [1, 2, 4]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await search({ limit, cursor });
        expect(page.results.length).toBeLessThanOrEqual(limit);
        seen.push(...page.results.map((l) => l.id));
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor && pages < 10);
      expect(seen, `limit ${limit}`).toEqual(all);
      expect(pages).toBe(Math.ceil(all.length / limit));
    }
    await expect(search({ cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(LogRequestError);
  });

  it('gives a line the same id in every read, also after lines arrive and the window moves', async () => {
    // From three hours ago: the line of two hours ago is read too, and comes before the others.
    const before = (await search({ start: new Date(NOW - 3 * 3_600_000) })).results;
    LOGS['web-1/app']!.push([6, 'GET /new 200'], [6, 'GET /new 200']);
    try {
      const after = (await search({ start: new Date(NOW - 600_000 + 2000) })).results;
      expect(after.slice(0, 2).map((l) => l.id)).toEqual([`web-1/app:${at(6)}:1`, `web-1/app:${at(6)}:2`]);
      const ids = new Map(after.map((l) => [l.message + l.labels.pod, l.id]));
      for (const l of before.filter((b) => b.timestamp >= ms(2)))
        expect(ids.get(l.message + l.labels.pod), l.message).toBe(l.id);
    } finally {
      LOGS['web-1/app']!.splice(-2);
    }
  });

  it(`says so when a container has more than the ${TAIL_LINES} lines one read gives`, async () => {
    // 6,000 lines a tenth of a second apart: the oldest 1,000 are beyond the tail.
    LOGS['busy-0/app'] = Array.from({ length: 6000 }, (_, k): [number, string] => [k / 10, `busy line ${k}`]);
    PODS.push(pod('busy-0', ['app']));
    try {
      const only = { namespace: 'shop', pod: 'busy-0' };
      const read: string[] = [];
      let cursor: string | undefined;
      let last: Awaited<ReturnType<typeof search>>;
      do {
        last = await search({ selector: only, limit: 1000, cursor });
        if (last.nextCursor) expect(last.truncated).toBeUndefined();
        read.push(...last.results.map((l) => l.message));
        cursor = last.nextCursor ?? undefined;
      } while (cursor);
      expect(read).toHaveLength(TAIL_LINES);
      expect(read.at(-1)).toBe('busy line 1000');
      expect(last.truncated).toEqual({
        before: ms(100),
        message: `Kubernetes returns only the newest 5000 lines of a container, so older lines are not shown: busy-0/app before ${ms(100)}.`,
      });
      // A range that starts after the first line read is whole.
      const recent = await search({ selector: only, start: new Date(NOW - 600_000 + 500_000), limit: 1000 });
      expect(recent.results).toHaveLength(1000);
      expect(recent.truncated).toBeUndefined();
    } finally {
      delete LOGS['busy-0/app'];
      PODS.pop();
    }
  });

  it('keeps to the time range and the search text', async () => {
    const page = await search({ start: new Date(NOW - 600_000 + 2000), end: new Date(NOW - 600_000 + 4500) });
    expect(page.results.map((l) => l.message)).toEqual([
      'GET /cart 200',
      'GET /cart 504 upstream timeout',
      'proxy ready',
    ]);
    const matched = await search({ text: '/50[24]/', match: textMatcher('/50[24]/') });
    expect(matched.results.map((l) => l.labels.pod)).toEqual(['web-2', 'web-1']);
  });

  it('reads one pod by name and one container, in the namespace of the entry', async () => {
    const page = await search(
      { selector: { pod: 'web-1', container: 'proxy' } },
      { kubeconfig: file, namespace: 'shop', labels: { cluster: 'lab' } },
    );
    expect(requests().map((u) => `${u.pathname}${u.search}`)).toEqual([
      '/api/v1/namespaces/shop/pods/web-1',
      expect.stringMatching(/^\/api\/v1\/namespaces\/shop\/pods\/web-1\/log\?container=proxy&/),
    ]);
    expect(page.results).toEqual([
      {
        id: expect.any(String),
        timestamp: ms(2),
        message: 'proxy ready',
        labels: { cluster: 'lab', namespace: 'shop', pod: 'web-1', container: 'proxy' },
      },
    ]);
  });

  it("takes the kubeconfig from a connection's certificate or from KUBECONFIG", async () => {
    const viaConnection = await kubernetesBackend.search(
      [kubernetesBackend.schema.parse({ connection: 'connection://Kubernetes/lab' })],
      query({ limit: 1 }),
      testCheckContext({ connections: { lab: { certificate: kubeconfig(api.url) } } }),
    );
    expect(viaConnection.results.map((l) => l.message)).toEqual(['GET /pay 200']);
    process.env.KUBECONFIG = file;
    expect((await search({ limit: 1 }, {})).results.map((l) => l.message)).toEqual(['GET /pay 200']);
  });

  it('words a missing kubeconfig, a missing pod and a refused log read', async () => {
    await expect(search({}, {})).rejects.toThrow(LogRequestError);
    await expect(search({}, {})).rejects.toThrow(/^no kubeconfig is configured/);
    const missing = search({ selector: { namespace: 'shop', pod: 'nope' } });
    await expect(missing).rejects.toThrow(LogBackendError);
    await expect(search({ selector: { namespace: 'shop', pod: 'nope' } })).rejects.toThrow(
      'HTTP 404 from the API server',
    );
    await expect(search({ selector: { namespace: 'shop', app: 'vault' } })).rejects.toThrow(
      'HTTP 403 from the API server',
    );
    expect(api.requests.at(-1)!.url).toMatch(/^\/api\/v1\/namespaces\/shop\/pods\/vault-0\/log\?container=vault&/);
    expect(await kubernetesBackend.problems!({ kubeconfig: path.join(dir, 'none.yaml') }, testCheckContext())).toEqual([
      { path: ['kubeconfig'], message: expect.stringMatching(/^kubeconfig could not be loaded/) },
    ]);
  });
});
