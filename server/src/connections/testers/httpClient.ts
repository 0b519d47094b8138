// One HTTP request for the connection Test: node's http/https with the time limit and abort signal,
// TLS verification as the connection says, the answer's body capped, failures worded for a person.
import http from 'node:http';
import https from 'node:https';
import { describeError } from '../errors.js';
import type { ResolvedConnection } from '../resolve.js';
import { TestFailure, type TestContext } from './tester.js';

const MAX_BODY = 64 * 1024;

export interface HttpAnswer {
  status: number;
  /** "401 Unauthorized" */
  statusLine: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HttpRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  insecureTls?: boolean;
}

/** Parses a URL a test calls; TestFailure saying what is wrong when it is not http(s)://host. */
export function parseHttpUrl(raw: string, label = 'URL'): URL {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new TestFailure(`${label} must be a URL such as https://host:port (got "${raw}")`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new TestFailure(`${label} must start with http:// or https:// (got ${u.protocol}//)`);
  if (!u.hostname) throw new TestFailure(`${label} has no host`);
  return u;
}

/** scheme://host[:port] of a URL: what a message may name (paths of webhooks carry tokens). */
export function originOf(u: URL): string {
  return `${u.protocol}//${u.host}`;
}

/** `base` + `path` with exactly one slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Basic auth when the connection has a username, a bearer token when it has only a password. */
export function credentialHeaders(conn: ResolvedConnection): Record<string, string> {
  if (conn.username)
    return { authorization: `Basic ${Buffer.from(`${conn.username}:${conn.password ?? ''}`).toString('base64')}` };
  if (conn.password) return { authorization: `Bearer ${conn.password}` };
  return {};
}

/** Sends one request and reads the answer (any status); rejects with a TestFailure when nothing answered. */
export function httpRequest(url: URL, req: HttpRequest, ctx: TestContext): Promise<HttpAnswer> {
  const where = url.host;
  const client = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { 'user-agent': 'opsdeck-connection-test', ...req.headers };
  if (url.username && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
    const auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(auth).toString('base64')}`;
  }
  return new Promise<HttpAnswer>((resolve, reject) => {
    const fail = (e: unknown) => reject(e instanceof TestFailure ? e : new TestFailure(describeError(e, where)));
    const r = client.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: req.method ?? 'GET',
        headers,
        rejectUnauthorized: !req.insecureTls,
        signal: ctx.signal,
        timeout: ctx.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_BODY) chunks.push(c);
          size += c.length;
          if (size >= MAX_BODY) res.destroy();
        });
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            statusLine: `${res.statusCode} ${res.statusMessage ?? ''}`.trim(),
            headers: res.headers,
            body: Buffer.concat(chunks).subarray(0, MAX_BODY).toString('utf8'),
          });
        res.on('end', done);
        res.on('close', done);
        res.on('error', fail);
      },
    );
    r.on('timeout', () => r.destroy(new TestFailure(`timed out after ${ctx.timeoutMs} ms waiting for ${where}`)));
    r.on('error', fail);
    r.end(req.body);
  });
}

/** The body as JSON, or undefined when it is not JSON. */
export function jsonOf<T>(answer: HttpAnswer): T | undefined {
  try {
    return JSON.parse(answer.body) as T;
  } catch {
    return undefined;
  }
}

/** A refusal of credentials (401/403) or any other non-2xx, as a TestFailure naming the service. */
export function statusFailure(service: string, answer: HttpAnswer, detail?: string): TestFailure {
  const why = detail ? ` (${detail})` : '';
  if (answer.status === 401 || answer.status === 403)
    return new TestFailure(`${service} refused the credentials: ${answer.statusLine}${why}`);
  return new TestFailure(`${service} answered ${answer.statusLine}${why}`);
}
