// One HTTP request, made the same way by every engine (the health `http` check, the playbook `http`
// action): the URL from the spec or a stored connection (`$(username)` / `$(password)` substituted,
// credentials in the URL taken out), method, headers (EnvValues resolved), body (content type guessed),
// credentials (basic, or OAuth2's client-credentials grant), TLS options (insecureSkipVerify, CA,
// client certificate), redirects followed and recorded, the caller's abort signal, and the body read
// (and decoded) up to MAX_CONTENT_BYTES. The caller judges the answer (codes, thresholds, content).
//
// Two steps, so a caller can tell a spec at fault from a target at fault: `prepareHttpRequest`
// resolves the spec and throws SpecError when it cannot be run as written; `sendHttpRequest` makes the
// exchange and throws HttpRedirectError (a redirect that cannot be followed), SpecError (a bad
// oauth2.tokenURL), or an Error worded for a person (network, TLS, OAuth2 token) — or, when `signal`
// aborted, whatever the abort raised, for the caller to word.
// Step one, prepareHttpRequest, is in httpPrepare.ts (re-exported here).
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import zlib from 'node:zlib';
import { digestAuthorization, parseDigestChallenge } from './digestAuth.js';
import { describeNetworkError, errorText, SpecError } from './errors.js';
import type { HttpRequestSpec, HttpTlsOptions, PreparedHttpRequest } from './httpPrepare.js';
import { CappedBuffer, head } from './text.js';

export { NTLM_UNSUPPORTED, prepareHttpRequest, urlWithoutCredentials } from './httpPrepare.js';
export type { HttpRequestSpec, HttpTlsOptions, PreparedHttpRequest } from './httpPrepare.js';

/** Response bodies are read up to this many bytes; the rest is not downloaded. */
export const MAX_CONTENT_BYTES = 1024 * 1024;
export const REDIRECT_CODES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'opsdeck-health-check';

/** One redirect followed. */
export interface HttpHop {
  url: string;
  code: number;
  location: string;
}

export interface HttpResponse {
  /** Where the answer came from, after redirects. */
  url: URL;
  status: number;
  statusMessage: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Decoded (gzip, deflate, br) and read up to MAX_CONTENT_BYTES. */
  body: string;
  truncated: boolean;
  /** From the start of sendHttpRequest (OAuth2 token and redirects included) to the end of the body. */
  elapsedMs: number;
  /** The peer certificate's expiry, when the answer came over TLS. */
  certExpiry?: Date;
  redirects: HttpHop[];
}

/** A redirect that cannot be followed (too many, not a URL, not http(s)); the hops so far are kept. */
export class HttpRedirectError extends Error {
  override name = 'HttpRedirectError';
  constructor(
    message: string,
    readonly redirects: HttpHop[],
  ) {
    super(message);
  }
}

/** host:port of a URL, as network errors name the far end. */
function hostPort(u: URL): string {
  return `${u.hostname.includes(':') ? `[${u.hostname}]` : u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
}

interface RawResponse {
  code: number;
  statusMessage: string;
  headers: Record<string, string>;
  content: string;
  truncated: boolean;
  certExpiry?: Date;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function decoded(res: http.IncomingMessage): Readable {
  switch ((res.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return res.pipe(zlib.createGunzip());
    case 'deflate':
      return res.pipe(zlib.createInflate());
    case 'br':
      return res.pipe(zlib.createBrotliDecompress());
    default:
      return res;
  }
}

function certExpiry(res: http.IncomingMessage): Date | undefined {
  const socket = res.socket as TLSSocket | null;
  if (!socket || typeof socket.getPeerCertificate !== 'function') return undefined;
  const cert = socket.getPeerCertificate();
  if (!cert || !cert.valid_to) return undefined;
  const at = new Date(cert.valid_to);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** One HTTP exchange, body read (and decoded) up to MAX_CONTENT_BYTES. */
async function send(
  target: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  tls: HttpTlsOptions,
  signal: AbortSignal,
): Promise<RawResponse> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const mod = target.protocol === 'https:' ? https : http;
    const req = mod.request(target, { method, headers, agent: false, signal, ...tls }, resolve);
    req.on('error', reject);
    req.end(body);
  });
  const expiry = certExpiry(res);
  const stream = decoded(res);
  const buf = new CappedBuffer(MAX_CONTENT_BYTES);
  try {
    for await (const chunk of stream) {
      buf.push(chunk as Buffer);
      if (buf.truncated) break;
    }
  } finally {
    if (!res.complete) res.destroy();
  }
  return {
    code: res.statusCode ?? 0,
    statusMessage: res.statusMessage ?? '',
    headers: flattenHeaders(res.headers),
    content: buf.toString(),
    truncated: buf.truncated,
    certExpiry: expiry,
  };
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

function dropHeaders(headers: Record<string, string>, names: string[]): void {
  for (const k of Object.keys(headers)) if (names.includes(k.toLowerCase())) delete headers[k];
}

/** The OAuth2 client-credentials grant: client id/secret are the spec's username/password. */
async function oauth2Token(
  oauth: NonNullable<HttpRequestSpec['oauth2']>,
  clientId: string,
  clientSecret: string,
  tls: HttpTlsOptions,
  signal: AbortSignal,
): Promise<string> {
  let tokenUrl: URL;
  try {
    tokenUrl = new URL(oauth.tokenURL);
  } catch {
    throw new SpecError(`oauth2.tokenURL "${oauth.tokenURL}" is not a valid URL`);
  }
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...(oauth.params ?? {}) });
  if (oauth.scope?.length) form.set('scope', oauth.scope.join(' '));
  const body = Buffer.from(form.toString());
  let res: RawResponse;
  try {
    res = await send(
      tokenUrl,
      'POST',
      {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(body.length),
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'user-agent': USER_AGENT,
      },
      body,
      tls,
      signal,
    );
  } catch (e) {
    if (signal.aborted) throw e;
    throw new Error(`OAuth2 token request failed: ${describeNetworkError(e, hostPort(tokenUrl))}`);
  }
  if (res.code < 200 || res.code > 299) {
    throw new Error(
      `OAuth2 token request to ${oauth.tokenURL} failed: expected a 2xx status, got ${res.code} (${head(res.content)})`,
    );
  }
  let token: unknown;
  try {
    token = (JSON.parse(res.content) as { access_token?: unknown }).access_token;
  } catch {
    token = undefined;
  }
  if (typeof token !== 'string' || !token)
    throw new Error(`OAuth2 token response from ${oauth.tokenURL} has no access_token`);
  return token;
}

/**
 * Makes the request: an OAuth2 token or basic credentials (unless the spec set Authorization), a
 * User-Agent, the body with its length and a guessed content type (not for GET / HEAD), then the
 * exchange with redirects followed (303, and 301/302 after POST, turn into GET without a body;
 * credentials and cookies go only to the origin they were written for). See the header for errors.
 */
export async function sendHttpRequest(req: PreparedHttpRequest, signal: AbortSignal): Promise<HttpResponse> {
  const started = performance.now();
  const headers = { ...req.headers };
  const redirects: HttpHop[] = [];
  try {
    if (req.oauth2) {
      const token = await oauth2Token(req.oauth2, req.username ?? '', req.password ?? '', req.tls, signal);
      if (!hasHeader(headers, 'authorization')) headers.Authorization = `Bearer ${token}`;
    } else if ((req.username || req.password) && !req.digest && !hasHeader(headers, 'authorization')) {
      headers.Authorization = `Basic ${Buffer.from(`${req.username ?? ''}:${req.password ?? ''}`).toString('base64')}`;
    }
    if (!hasHeader(headers, 'user-agent')) headers['User-Agent'] = USER_AGENT;
    let body: Buffer | undefined;
    if (req.body !== undefined && req.body !== '' && req.method !== 'GET' && req.method !== 'HEAD') {
      body = Buffer.from(req.body);
      headers['Content-Length'] = String(body.length);
      if (!hasHeader(headers, 'content-type')) {
        let isJson = false;
        try {
          JSON.parse(req.body);
          isJson = true;
        } catch {
          isJson = false;
        }
        headers['Content-Type'] = isJson ? 'application/json' : 'text/plain; charset=utf-8';
      }
    }

    let current = req.url;
    let method = req.method;
    let res: RawResponse;
    for (;;) {
      res = await send(current, method, headers, body, req.tls, signal);
      const challenge =
        req.digest && res.code === 401 ? parseDigestChallenge(res.headers['www-authenticate']) : undefined;
      if (challenge && !hasHeader(headers, 'authorization')) {
        let authorization: string;
        try {
          authorization = digestAuthorization(
            challenge,
            req.username ?? '',
            req.password ?? '',
            method,
            `${current.pathname}${current.search}`,
          );
        } catch (e) {
          throw new SpecError(errorText(e));
        }
        res = await send(current, method, { ...headers, Authorization: authorization }, body, req.tls, signal);
      }
      const location = res.headers.location;
      if (!req.followRedirects || !REDIRECT_CODES.has(res.code) || !location) break;
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new HttpRedirectError(`${current.href} redirected to "${location}", which is not a valid URL`, redirects);
      }
      redirects.push({ url: current.href, code: res.code, location: next.href });
      if (redirects.length > req.maxRedirects) {
        throw new HttpRedirectError(`stopped after ${req.maxRedirects} redirects (last to ${next.href})`, redirects);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new HttpRedirectError(`${current.href} redirected to ${next.href}, which is not http(s)`, redirects);
      }
      if (res.code === 303 || ((res.code === 301 || res.code === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        dropHeaders(headers, ['content-length', 'content-type']);
      }
      // Credentials go only to the origin they were written for.
      if (next.origin !== current.origin) dropHeaders(headers, ['authorization', 'cookie']);
      current = next;
    }
    return {
      url: current,
      status: res.code,
      statusMessage: res.statusMessage,
      headers: res.headers,
      body: res.content,
      truncated: res.truncated,
      elapsedMs: Math.round(performance.now() - started),
      certExpiry: res.certExpiry,
      redirects,
    };
  } catch (e) {
    if (e instanceof SpecError || e instanceof HttpRedirectError || signal.aborted) throw e;
    if (errorText(e).startsWith('OAuth2')) throw e;
    throw new Error(describeNetworkError(e, hostPort(req.url)), { cause: e });
  }
}

/**
 * The body as JSON: parsed when the content type says JSON or the text looks like it, else `{}`.
 * `error` when the content type says JSON but the (whole) body does not parse.
 */
export function responseJson(res: HttpResponse): { json: unknown; error?: string } {
  const contentType = res.headers['content-type'] ?? '';
  if (/[/+]json\b/i.test(contentType)) {
    try {
      return { json: JSON.parse(res.body) };
    } catch (e) {
      if (res.truncated) return { json: {} };
      return { json: {}, error: `the response says it is JSON (${contentType}) but does not parse: ${errorText(e)}` };
    }
  }
  if (/^\s*[[{]/.test(res.body)) {
    try {
      return { json: JSON.parse(res.body) };
    } catch {
      return { json: {} };
    }
  }
  return { json: {} };
}
