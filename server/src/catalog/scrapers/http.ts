// The http scraper: one request (url, method, headers, body; credentials from a connection or
// username/password as HTTP Basic auth); the JSON (or YAML) response becomes the items, split by
// `items` when the response is a list or holds one.
import { z } from 'zod';
import { connectionFields, resolveTarget } from '../../connections/resolve.js';
import { describeError } from '../../connections/errors.js';
import { envVarSchema, envValueSchema } from '../../connections/envValue.js';
import { durationMs } from '../../connections/duration.js';
import { baseScraperFields, ScrapeError, type BaseScraperSpec, type RawDocument, type Scraper } from '../scraper.js';
import { parseText } from './parse.js';

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
export const MAX_RESPONSE_BYTES = 50 * 1024 * 1024;

export const httpSchema = z.looseObject({
  ...baseScraperFields,
  ...connectionFields,
  method: z.string().optional(),
  headers: z.union([z.array(envVarSchema), z.record(z.string(), z.union([z.string(), envValueSchema]))]).optional(),
  body: z.string().optional(),
});

export type HttpSpec = z.infer<typeof httpSchema> & BaseScraperSpec;

export const httpScraper: Scraper<HttpSpec> = {
  type: 'http',
  schema: httpSchema as z.ZodType<HttpSpec>,
  async scrape(spec, ctx): Promise<RawDocument[]> {
    let target;
    try {
      target = await resolveTarget(spec, ctx);
    } catch (e) {
      throw new ScrapeError((e as Error).message);
    }
    if (!target.url) throw new ScrapeError('url is required (or a connection that has one)');
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      throw new ScrapeError(`url "${target.url}" is not a valid URL`);
    }
    const headers = new Headers();
    const list = Array.isArray(spec.headers)
      ? spec.headers.map((h) => [h.name, { value: h.value, valueFrom: h.valueFrom }] as const)
      : Object.entries(spec.headers ?? {});
    for (const [name, value] of list) headers.set(name, (await ctx.resolve(value)) ?? '');
    if (target.username !== undefined && !headers.has('authorization')) {
      const basic = Buffer.from(`${target.username}:${target.password ?? ''}`).toString('base64');
      headers.set('authorization', `Basic ${basic}`);
    }
    headers.set('accept', headers.get('accept') ?? 'application/json, application/yaml;q=0.9, */*;q=0.5');
    const timeoutMs = spec.timeout === undefined ? DEFAULT_HTTP_TIMEOUT_MS : durationMs(spec.timeout);
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
    let res: Response;
    try {
      res = await fetch(url, { method: spec.method?.toUpperCase() ?? 'GET', headers, body: spec.body, signal });
    } catch (e) {
      const cause = (e as Error & { cause?: unknown }).cause ?? e;
      throw new ScrapeError(
        `${url.origin}: ${signal.aborted ? `no answer within ${timeoutMs} ms` : describeError(cause, url.host)}`,
      );
    }
    const text = await res.text();
    if (text.length > MAX_RESPONSE_BYTES)
      throw new ScrapeError(`the response is larger than ${MAX_RESPONSE_BYTES} bytes`);
    if (!res.ok) throw new ScrapeError(`${url.origin}${url.pathname} answered ${res.status}: ${text.slice(0, 200)}`);
    const contentType = res.headers.get('content-type') ?? '';
    const format = spec.format ?? (/json/.test(contentType) ? 'json' : /yaml/.test(contentType) ? 'yaml' : undefined);
    let parsed;
    try {
      parsed = parseText(text, format);
    } catch (e) {
      throw new ScrapeError(`the response of ${url.origin}${url.pathname} is ${(e as Error).message}`);
    }
    const where = `${url.origin}${url.pathname}`;
    return parsed.docs.map((data) => ({ data, source: where, format: parsed.format, defaults: { id: where } }));
  },
};
