// Plumbing the channels share: reading a shoutrrr-style URL and its options, the `baseUrl` override
// that points a channel at another server (tests deliver to loopback receivers), and one HTTP request
// helper that turns the service's answer into data or a SenderError (status + the service's message,
// secrets redacted; 4xx other than 408/429 not retryable).
import http from 'node:http';
import https from 'node:https';
import type { ResolvedConnection } from '../../connections/resolve.js';
import { SenderError, type SendContext } from './sender.js';

/** Channel options: URL query or connection properties, keys lower-cased. */
export type Options = Record<string, string>;

/** Parses a destination URL; a bad one is a SenderError that is not retried and shows no secret. */
export function parseUrl(raw: string, channel: string, expected: string): URL {
  try {
    return new URL(raw.trim());
  } catch {
    // WHATWG URLs refuse a user part without a host: the usual slip in token@channel forms.
    const problem = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@([/?#]|$)/i.test(raw.trim())
      ? 'nothing after "@"'
      : 'not a valid URL';
    throw new SenderError(`${channel}: ${problem} (expected ${expected})`, false);
  }
}

/** Parses a `channel://…` destination URL; any other scheme is a bad destination. */
export function parseChannelUrl(raw: string, channel: string, expected: string): URL {
  const url = parseUrl(raw, channel, expected);
  if (url.protocol !== `${channel}:`) throw badDestination(channel, `unknown scheme ${url.protocol}`, expected);
  return url;
}

/** A connection's password (the channel's token or key), trimmed; a bad destination naming `what` when blank. */
export function connectionSecret(conn: ResolvedConnection, channel: string, what: string): string {
  const secret = (conn.password ?? '').trim();
  if (!secret) throw badDestination(channel, `connection ${conn.name} has no ${what}`);
  return secret;
}

/** A connection's URL as the server the channel posts to (see `baseUrl`); a bad destination when blank. */
export function connectionServerUrl(conn: ResolvedConnection, channel: string): string {
  const serverUrl = baseUrl(conn.url, channel);
  if (!serverUrl) throw badDestination(channel, `connection ${conn.name} has no server URL`);
  return serverUrl;
}

/** A SenderError for a destination that cannot be used; never retried. */
export function badDestination(channel: string, problem: string, expected?: string): SenderError {
  return new SenderError(`${channel}: ${problem}${expected ? ` (expected ${expected})` : ''}`, false);
}

/** decodeURIComponent that leaves malformed escapes as they are. */
export function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The URL's query as options (first value of each key, keys lower-cased). */
export function queryOptions(url: URL): Options {
  const out: Options = {};
  for (const [key, value] of url.searchParams) if (!(key.toLowerCase() in out)) out[key.toLowerCase()] = value;
  return out;
}

/** Properties (a connection's, a message's) as options, keys lower-cased, blank values left out. */
export function propertyOptions(props: Record<string, string> | undefined): Options {
  const out: Options = {};
  for (const [key, value] of Object.entries(props ?? {}))
    if (value !== undefined && value !== null && String(value).trim() !== '') out[key.toLowerCase()] = String(value);
  return out;
}

/**
 * An option for one send: the message's properties (the rule's `to.properties`) win over the
 * destination's own (URL query or connection properties), so a rule can tune a shared connection.
 */
export function option(config: Options, message: Record<string, string> | undefined, ...keys: string[]) {
  const fromMessage = propertyOptions(message);
  for (const key of keys) {
    const k = key.toLowerCase();
    if (fromMessage[k] !== undefined) return fromMessage[k];
  }
  for (const key of keys) {
    const k = key.toLowerCase();
    if (config[k] !== undefined && config[k] !== '') return config[k];
  }
  return undefined;
}

/** `option` bound to one send: `opt('title')` reads the message's, then the destination's option. */
export function sendOptions(config: Options, message: Record<string, string> | undefined) {
  return (...keys: string[]) => option(config, message, ...keys);
}

/** yes/no/true/false/1/0 as shoutrrr writes booleans; `fallback` when absent or unrecognised. */
export function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  const v = value.trim().toLowerCase();
  if (['yes', 'true', '1', 'on', 'y'].includes(v)) return true;
  if (['no', 'false', '0', 'off', 'n'].includes(v)) return false;
  return fallback;
}

/** A comma-separated list, trimmed, blanks dropped. */
export function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The `baseUrl` override (query `?baseUrl=` or a connection's URL): scheme://host[:port][/prefix]
 * replacing the service's default. Returned without a trailing slash; undefined when not given.
 */
export function baseUrl(value: string | undefined | null, channel: string): string | undefined {
  if (!value || !value.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw badDestination(channel, 'baseUrl is not a URL', 'http(s)://host[:port][/path]');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badDestination(channel, `baseUrl must be http or https, not ${url.protocol.replace(':', '')}`);
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/** The URL for display: scheme, host and path only (no user, password or query). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

export interface HttpRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent as application/json unless a content-type header says otherwise. */
  json?: unknown;
  body?: string;
  insecureTls?: boolean;
}

export interface HttpAnswer {
  status: number;
  text: string;
  /** The body parsed as JSON, undefined when it is not JSON. */
  json: unknown;
}

const MAX_ANSWER = 64 * 1024;

/**
 * Sends one request and reads the answer. A non-2xx answer, a connection failure or a timeout is a
 * SenderError whose text names the channel and what the service said, with every `secrets` value
 * replaced by "***" (tokens travel in paths and queries, and services echo them back).
 */
export async function request(
  channel: string,
  req: HttpRequest,
  ctx: SendContext,
  secrets: readonly (string | null | undefined)[] = [],
): Promise<HttpAnswer> {
  const redact = redactor(secrets);
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw badDestination(channel, 'the request URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badDestination(channel, `cannot send over ${url.protocol.replace(':', '')}`);
  const headers: Record<string, string> = { 'user-agent': 'Opsdeck', ...req.headers };
  let body = req.body;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  if (url.username && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization'))
    headers.authorization = basicAuth(decode(url.username), decode(url.password));
  url.username = '';
  url.password = '';
  if (ctx.signal.aborted) throw timedOut(channel, ctx);
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const r = client.request(
      url,
      {
        method: req.method ?? 'POST',
        headers,
        signal: ctx.signal,
        ...(req.insecureTls ? { rejectUnauthorized: false } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_ANSWER) chunks.push(c);
          size += c.length;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER) }),
        );
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    r.end(body);
  }).catch((e: unknown) => {
    if (ctx.signal.aborted) throw timedOut(channel, ctx);
    const err = e as NodeJS.ErrnoException;
    throw new SenderError(redact(`${channel}: could not reach ${url.host}: ${err.code ?? err.message}`), true);
  });
  let json: unknown;
  try {
    json = answer.text ? JSON.parse(answer.text) : undefined;
  } catch {
    json = undefined;
  }
  if (answer.status < 200 || answer.status > 299)
    throw new SenderError(
      redact(`${channel}: HTTP ${answer.status}${describeAnswer(answer.text, json)}`),
      retryableStatus(answer.status),
    );
  return { status: answer.status, text: answer.text, json };
}

/** 4xx other than 408 (timeout) and 429 (rate limited) will fail the same way again. */
export function retryableStatus(status: number): boolean {
  return !(status >= 400 && status < 500 && status !== 408 && status !== 429);
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** ": <the service's message>" from the usual error fields, or the start of the text. */
export function describeAnswer(text: string, json: unknown): string {
  const parts: string[] = [];
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    for (const key of ['status', 'message', 'error', 'description', 'errorDescription', 'detailed_error']) {
      const v = o[key];
      if (typeof v === 'string' && v && !parts.includes(v)) parts.push(v);
    }
    // Google APIs: {error: {code, message, status}}.
    const nested = o.error as Record<string, unknown> | undefined;
    if (nested && typeof nested === 'object' && typeof nested.message === 'string') parts.push(nested.message);
    if (Array.isArray(o.errors)) parts.push(...o.errors.filter((e): e is string => typeof e === 'string'));
    else if (o.errors && typeof o.errors === 'object') parts.push(JSON.stringify(o.errors).slice(0, 300));
  }
  const summary = parts.length ? parts.join('; ') : text.replace(/\s+/g, ' ').trim();
  return summary ? `: ${summary.slice(0, 300)}` : '';
}

/** A function replacing each secret (and its URL-encoded form) by "***". */
export function redactor(secrets: readonly (string | null | undefined)[]): (text: string) => string {
  const values = new Set<string>();
  for (const s of secrets) {
    if (!s || s.length < 4) continue;
    values.add(s);
    values.add(encodeURIComponent(s));
  }
  const sorted = [...values].sort((a, b) => b.length - a.length);
  return (text) => sorted.reduce((t, s) => t.split(s).join('***'), text);
}

function timedOut(channel: string, ctx: SendContext): SenderError {
  return new SenderError(`${channel}: no answer within ${ctx.timeoutMs} ms`, true);
}

/**
 * A header value HTTP can carry: non-Latin-1 text is written as an RFC 2047 encoded word
 * (ntfy reads those), line breaks become spaces.
 */
export function headerValue(value: string): string {
  const oneLine = value.replace(/[\r\n]+/g, ' ');
  if (/^[ -~]*$/.test(oneLine)) return oneLine;
  return `=?UTF-8?B?${Buffer.from(oneLine, 'utf8').toString('base64')}?=`;
}
