// The http check: one request (redirects followed and recorded), judged in canary-checker's order —
// response code, threshold, responseContent, responseJSONContent, SSL expiry — with code, headers,
// elapsed, sslAge, content and json exposed to test/display/transform.
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import zlib from 'node:zlib';
import { JSONPath } from 'jsonpath-plus';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker, Metric, ResolvedConnection } from '../checker.js';
import { CappedBuffer, head } from '../../connections/text.js';
import { SpecError } from '../../connections/errors.js';
import {
  abortMessage,
  commonFields,
  deadline,
  describeNetworkError,
  errorText,
  fail,
  invalid,
  resolveValue,
} from './common.js';
import { durationSchema } from '../../connections/duration.js';
import { envValueSchema, envVarSchema } from '../../connections/envValue.js';
import { durationFromMs } from '../../expr/duration.js';
import { durationMs, formatDuration, formatSize } from '../../connections/duration.js';

/** Response bodies are read up to this many bytes; the rest is not downloaded. */
export const MAX_CONTENT_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 10;
const REDIRECT_CODES = new Set([301, 302, 303, 307, 308]);
const DAY_MS = 86_400_000;
const USER_AGENT = 'opsdeck-health-check';
export const NTLM_UNSUPPORTED = 'NTLM authentication is not supported yet';

const tlsConfigSchema = z.looseObject({
  insecureSkipVerify: z.boolean().optional(),
  handshakeTimeout: durationSchema.optional(),
  ca: envValueSchema.optional(),
  cert: envValueSchema.optional(),
  key: envValueSchema.optional(),
});

const headerValue = z.union([z.string(), z.number(), z.boolean()]);

export const httpSchema = z
  .looseObject({
    ...commonFields,
    url: z.string().optional(),
    /** Deprecated name of url. */
    endpoint: z.string().optional(),
    connection: z.string().optional(),
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, 'method must be an HTTP method such as GET, POST, PUT or DELETE')
      .optional(),
    headers: z.union([z.array(envVarSchema), z.record(z.string(), headerValue)]).optional(),
    body: z.string().optional(),
    templateBody: z.boolean().optional(),
    env: z.array(envVarSchema).optional(),
    responseCodes: z.array(z.number().int().min(100).max(599)).optional(),
    thresholdMillis: z.number().nonnegative().optional(),
    responseContent: z.string().optional(),
    responseJSONContent: z
      .looseObject({ path: z.string(), value: z.union([z.string(), z.number(), z.boolean()]) })
      .optional(),
    maxSSLExpiry: z.number().nonnegative().optional(),
    username: envValueSchema.optional(),
    password: envValueSchema.optional(),
    ntlm: z.boolean().optional(),
    ntlmv2: z.boolean().optional(),
    oauth2: z
      .looseObject({
        tokenURL: z.string().min(1, 'tokenURL is required'),
        scope: z.array(z.string()).optional(),
        params: z.record(z.string(), z.string()).optional(),
      })
      .optional(),
    tlsConfig: tlsConfigSchema.optional(),
    insecureSkipVerify: z.boolean().optional(),
    followRedirects: z.boolean().optional(),
    timeout: durationSchema.optional(),
  })
  .superRefine((s, issue) => {
    if (s.ntlm) issue.addIssue({ code: 'custom', path: ['ntlm'], message: NTLM_UNSUPPORTED });
    if (s.ntlmv2) issue.addIssue({ code: 'custom', path: ['ntlmv2'], message: NTLM_UNSUPPORTED });
    if (s.url && s.endpoint) {
      issue.addIssue({ code: 'custom', path: ['endpoint'], message: 'give url or endpoint (its old name), not both' });
    }
    if (!s.url && !s.endpoint && !s.connection) {
      issue.addIssue({ code: 'custom', path: ['url'], message: 'url is required (or a connection that has one)' });
    }
  });

export type HttpSpec = z.infer<typeof httpSchema>;

interface Hop {
  url: string;
  code: number;
  location: string;
}

interface TlsOptions {
  rejectUnauthorized: boolean;
  ca?: string;
  cert?: string;
  key?: string;
}

interface RawResponse {
  code: number;
  statusMessage: string;
  headers: Record<string, string>;
  content: string;
  truncated: boolean;
  /** Certificate expiry of the peer, when the response came over TLS. */
  certExpiry?: Date;
}

function sanitizeUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (!u.username && !u.password) return raw;
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return raw;
  }
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
  tls: TlsOptions,
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

function target(u: URL): string {
  return `${u.hostname.includes(':') ? `[${u.hostname}]` : u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
}

function expectedCodes(codes: number[] | undefined): string {
  if (!codes?.length) return 'a 2xx status';
  if (codes.length === 1) return `status ${codes[0]}`;
  return `status ${codes.slice(0, -1).join(', ')} or ${codes[codes.length - 1]}`;
}

function days(ms: number): string {
  const d = Math.round(ms / DAY_MS);
  if (Math.abs(ms) < DAY_MS) return formatDuration(Math.abs(ms));
  return `${Math.abs(d)} day${Math.abs(d) === 1 ? '' : 's'}`;
}

async function buildHeaders(spec: HttpSpec, ctx: CheckContext): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  if (Array.isArray(spec.headers)) {
    for (const h of spec.headers) {
      const value = await resolveValue(ctx, { value: h.value, valueFrom: h.valueFrom }, `headers.${h.name}`);
      if (value !== undefined) headers[h.name] = value;
    }
  } else if (spec.headers) {
    for (const [k, v] of Object.entries(spec.headers)) headers[k] = String(v);
  }
  return headers;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

function dropHeaders(headers: Record<string, string>, names: string[]): void {
  for (const k of Object.keys(headers)) if (names.includes(k.toLowerCase())) delete headers[k];
}

/** The OAuth2 client-credentials grant: client id/secret are the check's username/password. */
async function oauth2Token(
  oauth: NonNullable<HttpSpec['oauth2']>,
  clientId: string,
  clientSecret: string,
  tls: TlsOptions,
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
    throw new Error(`OAuth2 token request failed: ${describeNetworkError(e, target(tokenUrl))}`);
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

function jsonPathValues(json: unknown, path: string): unknown[] {
  const p = path.startsWith('$') ? path : `$.${path}`;
  // JSONPath's typings take `null | boolean | number | string | object | any[]`; parsed JSON is one of those.
  return JSONPath({ path: p, json: json as object, wrap: true }) as unknown[];
}

async function run(spec: HttpSpec, ctx: CheckContext): Promise<CheckResult> {
  let connection: ResolvedConnection | undefined;
  if (spec.connection) {
    connection = await ctx.connection(spec.connection);
    if (!connection) return invalid(`connection "${spec.connection}" was not found`);
    const p = connection.properties ?? {};
    if (p.ntlm === 'true' || p.ntlmv2 === 'true')
      return invalid(`connection "${spec.connection}": ${NTLM_UNSUPPORTED}`);
  }
  const rawUrl = spec.url || spec.endpoint || connection?.url;
  if (!rawUrl) return invalid('url is required (or a connection that has one)');

  let username: string | undefined;
  let password: string | undefined;
  let headers: Record<string, string>;
  let tls: TlsOptions;
  try {
    username = (await resolveValue(ctx, spec.username, 'username')) ?? connection?.username ?? undefined;
    password = (await resolveValue(ctx, spec.password, 'password')) ?? connection?.password ?? undefined;
    headers = await buildHeaders(spec, ctx);
    tls = {
      rejectUnauthorized: !(
        spec.tlsConfig?.insecureSkipVerify ??
        spec.insecureSkipVerify ??
        connection?.insecureTls ??
        false
      ),
      ca: await resolveValue(ctx, spec.tlsConfig?.ca, 'tlsConfig.ca'),
      cert: await resolveValue(ctx, spec.tlsConfig?.cert, 'tlsConfig.cert'),
      key: await resolveValue(ctx, spec.tlsConfig?.key, 'tlsConfig.key'),
    };
  } catch (e) {
    if (e instanceof SpecError) return invalid(e.message);
    throw e;
  }

  const interpolated = rawUrl
    .replaceAll('$(username)', encodeURIComponent(username ?? ''))
    .replaceAll('$(password)', encodeURIComponent(password ?? ''));
  let url: URL;
  try {
    url = new URL(interpolated);
  } catch {
    return invalid(`"${sanitizeUrl(rawUrl)}" is not a valid URL (expected e.g. https://example.com/health)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return invalid(`"${sanitizeUrl(rawUrl)}" is not an http:// or https:// URL`);
  }
  if (url.username || url.password) {
    username ??= decodeURIComponent(url.username);
    password ??= decodeURIComponent(url.password);
    url.username = '';
    url.password = '';
  }

  const method = (spec.method ?? 'GET').toUpperCase();
  const signal = deadline(ctx, spec.timeout === undefined ? undefined : durationMs(spec.timeout));
  const data: Record<string, unknown> = { url: url.href };
  const started = performance.now();
  const elapsedNow = () => Math.round(performance.now() - started);

  try {
    if (spec.oauth2) {
      const token = await oauth2Token(spec.oauth2, username ?? '', password ?? '', tls, signal);
      if (!hasHeader(headers, 'authorization')) headers.Authorization = `Bearer ${token}`;
    } else if ((username || password) && !hasHeader(headers, 'authorization')) {
      headers.Authorization = `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64')}`;
    }
    if (!hasHeader(headers, 'user-agent')) headers['User-Agent'] = USER_AGENT;
    let body: Buffer | undefined;
    if (spec.body !== undefined && spec.body !== '' && method !== 'GET' && method !== 'HEAD') {
      body = Buffer.from(spec.body);
      headers['Content-Length'] = String(body.length);
      if (!hasHeader(headers, 'content-type')) {
        let isJson = false;
        try {
          JSON.parse(spec.body);
          isJson = true;
        } catch {
          isJson = false;
        }
        headers['Content-Type'] = isJson ? 'application/json' : 'text/plain; charset=utf-8';
      }
    }

    const follow = spec.followRedirects !== false;
    const redirects: Hop[] = [];
    let current = url;
    let currentMethod = method;
    let res: RawResponse;
    for (;;) {
      res = await send(current, currentMethod, headers, body, tls, signal);
      const location = res.headers.location;
      if (!follow || !REDIRECT_CODES.has(res.code) || !location) break;
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        return fail(`${current.href} redirected to "${location}", which is not a valid URL`, { ...data, redirects });
      }
      redirects.push({ url: current.href, code: res.code, location: next.href });
      if (redirects.length > MAX_REDIRECTS) {
        return fail(`stopped after ${MAX_REDIRECTS} redirects (last to ${next.href})`, { ...data, redirects });
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        return fail(`${current.href} redirected to ${next.href}, which is not http(s)`, { ...data, redirects });
      }
      if (res.code === 303 || ((res.code === 301 || res.code === 302) && currentMethod === 'POST')) {
        if (currentMethod !== 'HEAD') currentMethod = 'GET';
        body = undefined;
        dropHeaders(headers, ['content-length', 'content-type']);
      }
      // Credentials go only to the origin they were written for.
      if (next.origin !== current.origin) dropHeaders(headers, ['authorization', 'cookie']);
      current = next;
    }

    const elapsed = elapsedNow();
    const contentType = res.headers['content-type'] ?? '';
    let json: unknown = {};
    if (/[/+]json\b/i.test(contentType)) {
      try {
        json = JSON.parse(res.content);
      } catch (e) {
        if (
          !spec.test?.expr &&
          !spec.test?.template &&
          !spec.test?.javascript &&
          !spec.test?.jsonPath &&
          !res.truncated
        ) {
          return fail(`the response says it is JSON (${contentType}) but does not parse: ${errorText(e)}`, {
            ...data,
            code: res.code,
            headers: res.headers,
            elapsed,
            content: res.content,
          });
        }
      }
    } else if (/^\s*[[{]/.test(res.content)) {
      try {
        json = JSON.parse(res.content);
      } catch {
        json = {};
      }
    }
    const sslAge = res.certExpiry ? res.certExpiry.getTime() - Date.now() : undefined;
    Object.assign(data, {
      url: current.href,
      code: res.code,
      headers: res.headers,
      // Durations, as canary-checker gives them to expressions: CEL compares them with Duration('7d'),
      // templates print them Go-style, stored details hold milliseconds.
      elapsed: durationFromMs(elapsed),
      ...(sslAge !== undefined ? { sslAge: durationFromMs(sslAge) } : {}),
      content: res.content,
      json,
      ...(redirects.length ? { redirects } : {}),
      ...(res.truncated ? { contentTruncated: true } : {}),
    });
    const metrics: Metric[] = [
      { name: 'response_code', type: 'counter', value: 1, labels: { code: String(res.code), url: url.href } },
    ];
    if (sslAge !== undefined)
      metrics.push({ name: 'ssl_expiry_days', type: 'gauge', value: sslAge / DAY_MS, labels: { url: url.href } });
    const result = (error?: string): CheckResult =>
      error
        ? { pass: false, error, data, durationMs: elapsed, metrics }
        : {
            pass: true,
            message: `${res.code} ${res.statusMessage} in ${elapsed} ms`.replace(/ {2}/g, ' '),
            data,
            durationMs: elapsed,
            metrics,
          };

    const codes = spec.responseCodes;
    const codeOk = codes?.length ? codes.includes(res.code) : res.code >= 200 && res.code <= 299;
    if (!codeOk) {
      const hint =
        REDIRECT_CODES.has(res.code) && !follow
          ? ` (redirect to ${res.headers.location ?? 'nowhere'}; followRedirects is off)`
          : '';
      return result(`expected ${expectedCodes(codes)}, got ${res.code}${hint}`);
    }
    if (spec.thresholdMillis && elapsed > spec.thresholdMillis) {
      return result(`response took ${elapsed} ms, over the ${spec.thresholdMillis} ms threshold`);
    }
    if (spec.responseContent && !res.content.includes(spec.responseContent)) {
      const cut = res.truncated ? ` in the first ${formatSize(MAX_CONTENT_BYTES)}` : '';
      return result(
        `response does not contain ${JSON.stringify(spec.responseContent)}${cut} (got ${JSON.stringify(head(res.content, 120))})`,
      );
    }
    if (spec.responseJSONContent) {
      const { path, value } = spec.responseJSONContent;
      let found: unknown[];
      try {
        found = jsonPathValues(json, path);
      } catch (e) {
        return invalid(`responseJSONContent.path "${path}" is not a valid JSONPath: ${errorText(e)}`, data);
      }
      if (!found.length) return result(`the JSON response has nothing at ${path} (expected ${JSON.stringify(value)})`);
      const actual = found[0];
      const text = typeof actual === 'string' ? actual : JSON.stringify(actual);
      if (text !== String(value)) return result(`the JSON response has ${text} at ${path}, expected ${String(value)}`);
    }
    if (spec.maxSSLExpiry) {
      if (sslAge === undefined) {
        return result(
          `maxSSLExpiry is set but ${current.href} is not served over TLS, so there is no certificate to check`,
        );
      }
      if (sslAge <= 0) return result(`SSL certificate expired ${days(-sslAge)} ago`);
      if (sslAge < spec.maxSSLExpiry * DAY_MS) {
        return result(`SSL certificate expires in ${days(sslAge)}, under the ${spec.maxSSLExpiry} day minimum`);
      }
    }
    return result();
  } catch (e) {
    if (e instanceof SpecError) return invalid(e.message, data);
    if (signal.aborted) return fail(abortMessage(signal, ctx), data, { durationMs: elapsedNow() });
    return fail(errorText(e).startsWith('OAuth2') ? errorText(e) : describeNetworkError(e, target(url)), data, {
      durationMs: elapsedNow(),
    });
  }
}

export const httpChecker: Checker<HttpSpec> = {
  type: 'http',
  schema: httpSchema,
  endpoint: (spec) => sanitizeUrl(spec.url || spec.endpoint || spec.connection || ''),
  run,
};

export default httpChecker;
