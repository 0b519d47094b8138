// The `prometheus` check (canary-checker): runs the PromQL `query` through `GET /api/v1/query` of
// `url` (or the deprecated `host`, or a connection). Passes unless the request or the query fails;
// `test.expr` judges the values. Data: `results` (one {<labels>..., value} per series), `value` and
// `firstResult` (the first series), as canary-checker exposes them.
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { commonFields, fail, guarded, invalid, plural } from './common.js';
import { connectionFields, resolveTarget, sanitizeUrl } from '../../connections/resolve.js';
import { describeError, SpecError } from '../../connections/errors.js';
import { bodySnippet, requestJson } from './request.js';

const schema = z.looseObject({
  ...commonFields,
  ...connectionFields,
  host: z.string().optional(),
  query: z.string().min(1, 'query is required'),
});
export type PrometheusSpec = z.infer<typeof schema>;

type Sample = [number, string];
interface PromResponse {
  status: 'success' | 'error';
  data?: { resultType: 'vector' | 'matrix' | 'scalar' | 'string'; result: unknown };
  errorType?: string;
  error?: string;
  warnings?: string[];
}

function sampleValue(s: Sample | undefined): number {
  return s ? Number(s[1]) : 0;
}

/** Flattens any result type into canary-checker's list of {labels..., value}. */
export function flattenResult(data: NonNullable<PromResponse['data']>): Record<string, unknown>[] {
  switch (data.resultType) {
    case 'vector':
      return (data.result as { metric: Record<string, string>; value: Sample }[]).map((r) => ({
        ...r.metric,
        value: sampleValue(r.value),
      }));
    case 'matrix':
      // A range selector: the latest sample of each series.
      return (data.result as { metric: Record<string, string>; values: Sample[] }[]).map((r) => ({
        ...r.metric,
        value: sampleValue(r.values[r.values.length - 1]),
      }));
    case 'scalar':
      return [{ value: sampleValue(data.result as Sample) }];
    case 'string':
      return [{ value: (data.result as Sample)[1] }];
    default:
      return [];
  }
}

function endpoint(spec: PrometheusSpec): string {
  const base = spec.url || spec.host;
  return base ? sanitizeUrl(base) : (spec.connection ?? '');
}

async function run(spec: PrometheusSpec, ctx: CheckContext): Promise<CheckResult> {
  let where = endpoint(spec);
  return guarded(
    ctx,
    () => where,
    async () => {
      const target = await resolveTarget({ ...spec, url: spec.url || spec.host }, ctx);
      if (!target.url) return invalid('prometheus check needs a url (or host) or a connection');
      where = sanitizeUrl(target.url);
      let res;
      try {
        res = await requestJson({
          baseUrl: target.url,
          path: `/api/v1/query?query=${encodeURIComponent(spec.query)}`,
          username: target.username,
          password: target.password,
          insecureTls: target.insecureTls,
          signal: ctx.signal,
        });
      } catch (e) {
        if (ctx.signal.aborted || e instanceof SpecError) throw e;
        return fail(describeError(e, where));
      }
      const body = res.json as PromResponse | undefined;
      if (!body || typeof body !== 'object' || !('status' in body)) {
        return fail(
          `${where} did not answer like Prometheus (HTTP ${res.status}): ${bodySnippet(res.text) || 'empty body'}`,
        );
      }
      if (body.status !== 'success' || !body.data) {
        return fail(
          `query failed (HTTP ${res.status}, ${body.errorType ?? 'error'}): ${body.error ?? 'no error message'}`,
        );
      }
      const results = flattenResult(body.data);
      const first = results[0];
      const data: Record<string, unknown> = {
        results,
        value: first ? first.value : 0,
        firstResult: first ?? {},
      };
      if (body.warnings?.length) data.warnings = body.warnings;
      return {
        pass: true,
        message: `${plural(results.length, 'result')}${first ? `, first value ${String(first.value)}` : ''}`,
        data,
      };
    },
  );
}

export const prometheusChecker: Checker<PrometheusSpec> = {
  type: 'prometheus',
  schema,
  endpoint: (spec) => endpoint(spec) || spec.name,
  run,
};

export default prometheusChecker;
