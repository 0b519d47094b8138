// The http check: one request made by the shared connections/httpRequest.ts (redirects followed and
// recorded), judged in canary-checker's order — response code, threshold, responseContent,
// responseJSONContent, SSL expiry — with code, headers, elapsed, sslAge, content and json exposed to
// test/display/transform.
import { JSONPath } from 'jsonpath-plus';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker, Metric } from '../checker.js';
import { head } from '../../connections/text.js';
import { SpecError } from '../../connections/errors.js';
import {
  HttpRedirectError,
  MAX_CONTENT_BYTES,
  NTLM_UNSUPPORTED,
  prepareHttpRequest,
  REDIRECT_CODES,
  responseJson,
  sendHttpRequest,
  urlWithoutCredentials,
  type HttpResponse,
  type PreparedHttpRequest,
} from '../../connections/httpRequest.js';
import { abortMessage, commonFields, deadline, errorText, fail, invalid } from './common.js';
import { durationSchema } from '../../connections/duration.js';
import { envValueSchema, envVarSchema } from '../../connections/envValue.js';
import { durationFromMs } from '../../expr/duration.js';
import { durationMs, formatDuration, formatSize } from '../../connections/duration.js';

// The request itself is the shared connections/httpRequest.ts; re-exported for existing importers.
export { MAX_CONTENT_BYTES, NTLM_UNSUPPORTED } from '../../connections/httpRequest.js';

const DAY_MS = 86_400_000;

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
    maxRedirects: z.number().int('maxRedirects must be a whole number').min(0).optional(),
    digest: z.boolean().optional(),
    timeout: durationSchema.optional(),
  })
  .superRefine((s, issue) => {
    if (s.digest && !s.username && !s.password && !s.connection) {
      issue.addIssue({ code: 'custom', path: ['digest'], message: 'digest needs a username and password' });
    }
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

/** Go's canonical form of a header name: `content-type` → `Content-Type`. */
function canonicalName(name: string): string {
  return name.replace(/[a-z0-9]+/gi, (w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase());
}

/** Headers readable by their canonical name (as canary-checker gives them) and in lower case. */
export function bothCaseHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[canonicalName(k)] = v;
    out[k.toLowerCase()] = v;
  }
  return out;
}

function jsonPathValues(json: unknown, path: string): unknown[] {
  const p = path.startsWith('$') ? path : `$.${path}`;
  // JSONPath's typings take `null | boolean | number | string | object | any[]`; parsed JSON is one of those.
  return JSONPath({ path: p, json: json as object, wrap: true }) as unknown[];
}

async function run(spec: HttpSpec, ctx: CheckContext): Promise<CheckResult> {
  let req: PreparedHttpRequest;
  try {
    req = await prepareHttpRequest({ ...spec, url: spec.url || spec.endpoint }, ctx);
  } catch (e) {
    if (e instanceof SpecError) return invalid(e.message);
    throw e;
  }
  const url = req.url;
  const signal = deadline(ctx, spec.timeout === undefined ? undefined : durationMs(spec.timeout));
  const data: Record<string, unknown> = { url: url.href };
  const started = performance.now();
  const elapsedNow = () => Math.round(performance.now() - started);

  let res: HttpResponse;
  try {
    res = await sendHttpRequest(req, signal);
  } catch (e) {
    if (e instanceof SpecError) return invalid(e.message, data);
    if (e instanceof HttpRedirectError) return fail(e.message, { ...data, redirects: e.redirects });
    if (signal.aborted) return fail(abortMessage(signal, ctx), data, { durationMs: elapsedNow() });
    // Network, TLS and OAuth2 failures, already worded by sendHttpRequest.
    return fail(errorText(e), data, { durationMs: elapsedNow() });
  }
  const follow = req.followRedirects;
  const current = res.url;
  const redirects = res.redirects;
  const elapsed = res.elapsedMs;
  const { json, error: notJson } = responseJson(res);
  if (notJson && !spec.test?.expr && !spec.test?.template && !spec.test?.javascript && !spec.test?.jsonPath) {
    return fail(notJson, { ...data, code: res.status, headers: res.headers, elapsed, content: res.body });
  }
  const sslAge = res.certExpiry ? res.certExpiry.getTime() - Date.now() : undefined;
  Object.assign(data, {
    url: current.href,
    code: res.status,
    headers: bothCaseHeaders(res.headers),
    // Durations, as canary-checker gives them to expressions: CEL compares them with Duration('7d'),
    // templates print them Go-style, stored details hold milliseconds.
    elapsed: durationFromMs(elapsed),
    // canary-checker binds a zero sslAge when the answer did not come over TLS.
    sslAge: durationFromMs(sslAge ?? 0),
    content: res.body,
    json,
    ...(redirects.length ? { redirects } : {}),
    ...(res.truncated ? { contentTruncated: true } : {}),
  });
  const metrics: Metric[] = [
    { name: 'response_code', type: 'counter', value: 1, labels: { code: String(res.status), url: url.href } },
  ];
  if (sslAge !== undefined)
    metrics.push({ name: 'ssl_expiry_days', type: 'gauge', value: sslAge / DAY_MS, labels: { url: url.href } });
  const result = (error?: string): CheckResult =>
    error
      ? { pass: false, error, data, durationMs: elapsed, metrics }
      : {
          pass: true,
          message: `${res.status} ${res.statusMessage} in ${elapsed} ms`.replace(/ {2}/g, ' '),
          data,
          durationMs: elapsed,
          metrics,
        };

  const codes = spec.responseCodes;
  const codeOk = codes?.length ? codes.includes(res.status) : res.status >= 200 && res.status <= 299;
  if (!codeOk) {
    const hint =
      REDIRECT_CODES.has(res.status) && !follow
        ? ` (redirect to ${res.headers.location ?? 'nowhere'}; ${spec.maxRedirects === 0 ? 'maxRedirects is 0' : 'followRedirects is off'})`
        : '';
    return result(`expected ${expectedCodes(codes)}, got ${res.status}${hint}`);
  }
  if (spec.thresholdMillis && elapsed > spec.thresholdMillis) {
    return result(`response took ${elapsed} ms, over the ${spec.thresholdMillis} ms threshold`);
  }
  if (spec.responseContent && !res.body.includes(spec.responseContent)) {
    const cut = res.truncated ? ` in the first ${formatSize(MAX_CONTENT_BYTES)}` : '';
    return result(
      `response does not contain ${JSON.stringify(spec.responseContent)}${cut} (got ${JSON.stringify(head(res.body, 120))})`,
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
}

export const httpChecker: Checker<HttpSpec> = {
  type: 'http',
  schema: httpSchema,
  endpoint: (spec) => urlWithoutCredentials(spec.url || spec.endpoint || spec.connection || ''),
  run,
};

export default httpChecker;
