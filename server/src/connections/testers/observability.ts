// Tests of HTTP read APIs: Prometheus (build info), Loki (/ready), OpenSearch/Elasticsearch (/), and a
// plain HTTP connection (GET of its URL). Basic auth with a username, else a bearer token.
import { interpolateCredentials, type ResolvedConnection } from '../resolve.js';
import {
  credentialHeaders,
  httpRequest,
  jsonOf,
  joinUrl,
  originOf,
  parseHttpUrl,
  statusFailure,
} from './httpClient.js';
import { required, prop, TestFailure, type ConnectionTester, type TestContext } from './tester.js';

/** The connection's URL with $(username)/$(password) substituted, parsed. */
function connectionUrl(conn: ResolvedConnection, fallback?: string): URL {
  const raw = conn.url || fallback;
  return parseHttpUrl(interpolateCredentials(required(raw, 'URL'), conn.username ?? '', conn.password ?? ''));
}

function headersOf(conn: ResolvedConnection, base: URL): Record<string, string> {
  return base.username ? {} : credentialHeaders(conn);
}

async function get(conn: ResolvedConnection, path: string, ctx: TestContext, extra: Record<string, string> = {}) {
  const base = connectionUrl(conn);
  const url = new URL(joinUrl(base.href.replace(/[?#].*$/, ''), path));
  const answer = await httpRequest(
    url,
    { headers: { ...headersOf(conn, base), ...extra }, insecureTls: conn.insecureTls },
    ctx,
  );
  return { answer, where: `${originOf(url)}${url.pathname}` };
}

export const prometheusTester: ConnectionTester = {
  types: ['prometheus'],
  async test(conn, ctx) {
    const { answer, where } = await get(conn, 'api/v1/status/buildinfo', ctx);
    const info = jsonOf<{ status?: string; data?: { version?: string } }>(answer);
    if (answer.status === 200 && info?.status === 'success')
      return { details: `Prometheus ${info.data?.version ?? ''} answered GET ${where}`.replace('  ', ' ') };
    if (answer.status === 404) {
      // Prometheus-compatible stores without build info still answer a query.
      const q = await get(conn, 'api/v1/query?query=1', ctx);
      if (q.answer.status === 200 && jsonOf<{ status?: string }>(q.answer)?.status === 'success')
        return { details: `query "1" answered by ${q.where} (no build info)` };
      throw statusFailure('Prometheus', q.answer);
    }
    if (answer.status >= 200 && answer.status < 300)
      throw new TestFailure(`${where} answered ${answer.statusLine} but not as the Prometheus API does`);
    throw statusFailure('Prometheus', answer);
  },
};

export const lokiTester: ConnectionTester = {
  types: ['loki'],
  async test(conn, ctx) {
    const tenant = prop(conn, 'tenant');
    const { answer, where } = await get(conn, 'ready', ctx, tenant ? { 'x-scope-orgid': tenant } : {});
    if (answer.status === 200) return { details: `Loki is ready: GET ${where} answered ${answer.statusLine}` };
    if (answer.status === 503)
      throw new TestFailure(`Loki is not ready: ${answer.body.trim().slice(0, 200) || answer.statusLine}`);
    throw statusFailure('Loki', answer);
  },
};

export const opensearchTester: ConnectionTester = {
  types: ['opensearch'],
  async test(conn, ctx) {
    const { answer, where } = await get(conn, '', ctx);
    const info = jsonOf<{ cluster_name?: string; version?: { number?: string; distribution?: string } }>(answer);
    if (answer.status === 200 && info?.version) {
      const product = info.version.distribution === 'opensearch' ? 'OpenSearch' : 'Elasticsearch';
      return {
        details: `${product} ${info.version.number ?? ''} (cluster ${info.cluster_name ?? '?'}) answered GET ${where}`,
      };
    }
    if (answer.status === 200) throw new TestFailure(`${where} answered but not as OpenSearch/Elasticsearch does`);
    throw statusFailure('OpenSearch', answer);
  },
};

export const httpTester: ConnectionTester = {
  types: ['http'],
  async test(conn, ctx) {
    const url = connectionUrl(conn);
    const answer = await httpRequest(url, { headers: headersOf(conn, url), insecureTls: conn.insecureTls }, ctx);
    const where = `${originOf(url)}${url.pathname}`;
    if (answer.status >= 200 && answer.status < 400) return { details: `GET ${where} answered ${answer.statusLine}` };
    throw statusFailure(where, answer);
  },
};
