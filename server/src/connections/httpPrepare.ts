// Step one of an HTTP request (httpRequest.ts): the spec with its connection, secrets, headers and TLS material resolved and its URL checked.
import type { EnvValue, EnvVarSpec } from './envValue.js';
import { errorText, SpecError } from './errors.js';
import type { ConnectionContext, ResolvedConnection } from './resolve.js';

const MAX_REDIRECTS = 10;
export const NTLM_UNSUPPORTED = 'NTLM authentication is not supported yet';

/** What a spec says about the request (canary-checker's http fields; a playbook action uses a subset). */
export interface HttpRequestSpec {
  url?: string;
  /** A stored connection: its URL when the spec has none, its credentials and insecure_tls. */
  connection?: string;
  method?: string;
  headers?: EnvVarSpec[] | Record<string, string | number | boolean>;
  body?: string;
  username?: EnvValue;
  password?: EnvValue;
  oauth2?: { tokenURL: string; scope?: string[]; params?: Record<string, string> };
  tlsConfig?: { insecureSkipVerify?: boolean; ca?: EnvValue; cert?: EnvValue; key?: EnvValue };
  insecureSkipVerify?: boolean;
  /** Default true. */
  followRedirects?: boolean;
  /** canary-checker's limit on redirects followed: 0 returns the 3xx itself; default 10. */
  maxRedirects?: number;
  /** Answer a digest challenge (RFC 7616 / 2617) with username / password instead of sending basic auth. */
  digest?: boolean;
}

export interface HttpTlsOptions {
  rejectUnauthorized: boolean;
  ca?: string;
  cert?: string;
  key?: string;
}

/** A request with its connection and secrets resolved, ready to send. */
export interface PreparedHttpRequest {
  /** Without credentials (they moved to username / password). */
  url: URL;
  method: string;
  headers: Record<string, string>;
  username?: string;
  password?: string;
  body?: string;
  oauth2?: HttpRequestSpec['oauth2'];
  tls: HttpTlsOptions;
  followRedirects: boolean;
  /** Redirects followed at most (0: the 3xx is the answer; more is an error). */
  maxRedirects: number;
  digest: boolean;
}

/** `url` without the user name and password it may carry, for messages and display. */
export function urlWithoutCredentials(raw: string): string {
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

async function resolveField(ctx: ConnectionContext, value: EnvValue | undefined, field: string) {
  try {
    return await ctx.resolve(value);
  } catch (e) {
    throw new SpecError(`${field}: ${errorText(e)}`);
  }
}

async function buildHeaders(spec: HttpRequestSpec, ctx: ConnectionContext): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  if (Array.isArray(spec.headers)) {
    for (const h of spec.headers) {
      const value = await resolveField(ctx, { value: h.value, valueFrom: h.valueFrom }, `headers.${h.name}`);
      if (value !== undefined) headers[h.name] = value;
    }
  } else if (spec.headers) {
    for (const [k, v] of Object.entries(spec.headers)) headers[k] = String(v);
  }
  return headers;
}

/**
 * Resolves the spec's connection, secrets, headers and TLS material and checks the URL. Throws
 * SpecError when the spec cannot be run as written (unknown connection, NTLM, no or a bad URL, a
 * reference that cannot be read); other errors (the database) propagate.
 */
export async function prepareHttpRequest(spec: HttpRequestSpec, ctx: ConnectionContext): Promise<PreparedHttpRequest> {
  let connection: ResolvedConnection | undefined;
  if (spec.connection) {
    connection = await ctx.connection(spec.connection);
    if (!connection) throw new SpecError(`connection "${spec.connection}" was not found`);
    const p = connection.properties ?? {};
    if (p.ntlm === 'true' || p.ntlmv2 === 'true')
      throw new SpecError(`connection "${spec.connection}": ${NTLM_UNSUPPORTED}`);
  }
  const rawUrl = spec.url || connection?.url;
  if (!rawUrl) throw new SpecError('url is required (or a connection that has one)');

  let username = (await resolveField(ctx, spec.username, 'username')) ?? connection?.username ?? undefined;
  let password = (await resolveField(ctx, spec.password, 'password')) ?? connection?.password ?? undefined;
  const headers = await buildHeaders(spec, ctx);
  const tls: HttpTlsOptions = {
    rejectUnauthorized: !(
      spec.tlsConfig?.insecureSkipVerify ??
      spec.insecureSkipVerify ??
      connection?.insecureTls ??
      false
    ),
    ca: await resolveField(ctx, spec.tlsConfig?.ca, 'tlsConfig.ca'),
    cert: await resolveField(ctx, spec.tlsConfig?.cert, 'tlsConfig.cert'),
    key: await resolveField(ctx, spec.tlsConfig?.key, 'tlsConfig.key'),
  };

  const interpolated = rawUrl
    .replaceAll('$(username)', encodeURIComponent(username ?? ''))
    .replaceAll('$(password)', encodeURIComponent(password ?? ''));
  let url: URL;
  try {
    url = new URL(interpolated);
  } catch {
    throw new SpecError(
      `"${urlWithoutCredentials(rawUrl)}" is not a valid URL (expected e.g. https://example.com/health)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SpecError(`"${urlWithoutCredentials(rawUrl)}" is not an http:// or https:// URL`);
  }
  if (url.username || url.password) {
    username ??= decodeURIComponent(url.username);
    password ??= decodeURIComponent(url.password);
    url.username = '';
    url.password = '';
  }
  return {
    url,
    method: (spec.method ?? 'GET').toUpperCase(),
    headers,
    username,
    password,
    body: spec.body,
    oauth2: spec.oauth2,
    tls,
    followRedirects: spec.followRedirects !== false && spec.maxRedirects !== 0,
    maxRedirects: spec.maxRedirects ?? MAX_REDIRECTS,
    digest: spec.digest === true,
  };
}
