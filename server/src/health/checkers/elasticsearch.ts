// The `elasticsearch` check (canary-checker): `POST /{index}/_search` on `url` (or a connection) with
// `query` (a JSON search body) and fails when the hit count differs from `results` — as canary-checker,
// an omitted `results` expects 0 hits. Data: `results` (the search response), `count`.
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { commonFields, fail, guarded, invalid, plural } from './common.js';
import { connectionEndpoint, connectionFields, resolveTarget, sanitizeUrl } from '../../connections/resolve.js';
import { describeError, SpecError } from '../../connections/errors.js';
import { bodySnippet, requestJson } from './request.js';

const schema = z.looseObject({
  ...commonFields,
  ...connectionFields,
  index: z.string().optional(),
  query: z.string().optional(),
  results: z.number().int().nonnegative().optional(),
});
export type ElasticsearchSpec = z.infer<typeof schema>;

interface SearchResponse {
  hits?: { total?: number | { value: number; relation?: string } };
  error?: string | { type?: string; reason?: string; root_cause?: { type?: string; reason?: string }[] };
  status?: number;
}

/** `hits.total` is `{value, relation}` since Elasticsearch 7 and a number before. */
function hitCount(r: SearchResponse): number | undefined {
  const total = r.hits?.total;
  if (typeof total === 'number') return total;
  if (total && typeof total.value === 'number') return total.value;
  return undefined;
}

function errorText(r: SearchResponse): string | undefined {
  if (!r.error) return undefined;
  if (typeof r.error === 'string') return r.error;
  return [r.error.type, r.error.reason].filter(Boolean).join(': ') || JSON.stringify(r.error);
}

async function run(spec: ElasticsearchSpec, ctx: CheckContext): Promise<CheckResult> {
  let where = connectionEndpoint(spec);
  return guarded(
    ctx,
    () => where,
    async () => {
      const query = spec.query?.trim();
      if (query) {
        try {
          JSON.parse(query);
        } catch (e) {
          return invalid(`query is not valid JSON: ${(e as Error).message}`);
        }
      }
      const target = await resolveTarget(spec, ctx);
      if (!target.url) return invalid('elasticsearch check needs a url or a connection');
      where = sanitizeUrl(target.url);
      // Index names may be lists and patterns ("logs-*,metrics"): keep ',' and '*' as Elasticsearch reads them.
      const index = spec.index?.trim()
        ? `${encodeURIComponent(spec.index.trim()).replace(/%2C/gi, ',').replace(/%2A/gi, '*')}/`
        : '';
      let res;
      try {
        res = await requestJson({
          method: 'POST',
          baseUrl: target.url,
          path: `/${index}_search`,
          body: query || undefined,
          username: target.username,
          password: target.password,
          insecureTls: target.insecureTls,
          signal: ctx.signal,
        });
      } catch (e) {
        if (ctx.signal.aborted || e instanceof SpecError) throw e;
        return fail(describeError(e, where));
      }
      const body = res.json as SearchResponse | undefined;
      if (!body || typeof body !== 'object')
        return fail(
          `${where} did not answer like Elasticsearch (HTTP ${res.status}): ${bodySnippet(res.text) || 'empty body'}`,
        );
      if (res.status >= 400 || body.error) {
        return fail(
          `elasticsearch returned HTTP ${res.status}: ${errorText(body) ?? (bodySnippet(res.text) || 'no error message')}`,
        );
      }
      const count = hitCount(body);
      if (count === undefined) return fail(`${where} answered without hits.total: ${bodySnippet(res.text)}`);
      const expected = spec.results ?? 0;
      const data = { count };
      if (count !== expected) return fail(`expected ${plural(expected, 'hit')}, got ${count}`, data, { results: body });
      return {
        pass: true,
        message: `${plural(count, 'hit')}${spec.index ? ` in ${spec.index}` : ''}`,
        data,
        results: body,
      };
    },
  );
}

export const elasticsearchChecker: Checker<ElasticsearchSpec> = {
  type: 'elasticsearch',
  schema,
  endpoint: (spec) => connectionEndpoint(spec) || spec.name,
  run,
};

export default elasticsearchChecker;
