// The `alertmanager` check (canary-checker): lists firing alerts from `GET /api/v2/alerts` of `url` (or a
// connection), narrowed by `alerts` (alert name regexes, any of), `filters` (label=~regex, all of),
// `exclude_filters` (label!=value) and `ignore` (alert name regexes to drop). Fails while any matching
// alert fires (active, not silenced or inhibited), naming them. Data: `results.alerts` as canary-checker.
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { commonFields, fail, guarded, invalid, plural } from './common.js';
import { connectionEndpoint, connectionFields, resolveTarget, sanitizeUrl } from '../../connections/resolve.js';
import { describeError, SpecError } from '../../connections/errors.js';
import { bodySnippet, requestJson } from './request.js';

const schema = z.looseObject({
  ...commonFields,
  ...connectionFields,
  alerts: z.array(z.string()).optional(),
  filters: z.record(z.string(), z.string()).optional(),
  exclude_filters: z.record(z.string(), z.string()).optional(),
  ignore: z.array(z.string()).optional(),
});
export type AlertmanagerSpec = z.infer<typeof schema>;

/** One alert of Alertmanager's v2 API (`GettableAlert`). */
interface GettableAlert {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  fingerprint?: string;
  startsAt?: string;
  endsAt?: string;
  generatorURL?: string;
  status?: { state?: 'active' | 'suppressed' | 'unprocessed'; silencedBy?: string[]; inhibitedBy?: string[] };
}

interface Matcher {
  label: string;
  op: '=~' | '!~' | '!=';
  value: string;
  re?: RegExp;
}

/** Alertmanager anchors regex matchers: `=~"a|b"` means the whole value is a or b. */
function anchored(pattern: string, what: string): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch (e) {
    throw new SpecError(
      `${what} ${JSON.stringify(pattern)} is not a valid regular expression: ${(e as Error).message}`,
    );
  }
}

export function matchersOf(spec: AlertmanagerSpec): Matcher[] {
  const out: Matcher[] = [];
  for (const [label, value] of Object.entries(spec.filters ?? {}))
    out.push({ label, op: '=~', value, re: anchored(value, `filters.${label}`) });
  const names = spec.alerts?.filter((a) => a !== '') ?? [];
  if (names.length) {
    const value = names.length === 1 ? names[0]! : names.map((n) => `(?:${n})`).join('|');
    out.push({ label: 'alertname', op: '=~', value, re: anchored(value, 'alerts') });
  }
  for (const value of spec.ignore ?? [])
    out.push({ label: 'alertname', op: '!~', value, re: anchored(value, 'ignore') });
  for (const [label, value] of Object.entries(spec.exclude_filters ?? {})) out.push({ label, op: '!=', value });
  return out;
}

function matches(alert: GettableAlert, m: Matcher): boolean {
  const v = alert.labels[m.label] ?? '';
  if (m.op === '!=') return v !== m.value;
  const hit = m.re!.test(v);
  return m.op === '=~' ? hit : !hit;
}

/** A matcher in Alertmanager's filter syntax, the value quoted. */
function filterParam(m: Matcher): string {
  return `${m.label}${m.op}${JSON.stringify(m.value)}`;
}

/** canary-checker's display name: alertname/namespace/node/workload/container. */
export function alertName(labels: Record<string, string>): string {
  const parts = [labels.alertname ?? 'unnamed'];
  for (const k of ['namespace', 'node']) if (labels[k]) parts.push(labels[k]);
  const workload = ['deployment', 'daemonset', 'statefulset', 'cronjob_name', 'job_name', 'pod', 'nodename'].find(
    (k) => labels[k],
  );
  if (workload) parts.push(labels[workload]!);
  if (labels.container && labels.job !== labels.container) parts.push(labels.container);
  return parts.join('/');
}

function alertMessage(annotations: Record<string, string> = {}): string {
  return annotations.message ?? annotations.description ?? annotations.summary ?? '';
}

function firing(a: GettableAlert): boolean {
  const s = a.status;
  if (!s) return true;
  return (s.state ?? 'active') === 'active' && !s.silencedBy?.length && !s.inhibitedBy?.length;
}

async function run(spec: AlertmanagerSpec, ctx: CheckContext): Promise<CheckResult> {
  let where = connectionEndpoint(spec);
  return guarded(
    ctx,
    () => where,
    async () => {
      const matchers = matchersOf(spec);
      const target = await resolveTarget(spec, ctx);
      if (!target.url) return invalid('alertmanager check needs a url or a connection');
      where = sanitizeUrl(target.url);
      const query = new URLSearchParams({ active: 'true', silenced: 'false', inhibited: 'false' });
      for (const m of matchers) query.append('filter', filterParam(m));
      let res;
      try {
        res = await requestJson({
          baseUrl: target.url,
          path: `/api/v2/alerts?${query}`,
          username: target.username,
          password: target.password,
          insecureTls: target.insecureTls,
          signal: ctx.signal,
        });
      } catch (e) {
        if (ctx.signal.aborted || e instanceof SpecError) throw e;
        return fail(describeError(e, where));
      }
      if (res.status !== 200) {
        const detail =
          typeof res.json === 'string' ? res.json : (res.json as { message?: string } | undefined)?.message;
        return fail(`alertmanager answered HTTP ${res.status}: ${detail ?? (bodySnippet(res.text) || 'empty body')}`);
      }
      if (!Array.isArray(res.json))
        return fail(`${where} did not answer like Alertmanager v2: ${bodySnippet(res.text) || 'empty body'}`);
      // Applied here too, so a server (or proxy) that ignores a filter cannot widen the result.
      const found = (res.json as GettableAlert[]).filter(
        (a) => a && typeof a.labels === 'object' && firing(a) && matchers.every((m) => matches(a, m)),
      );
      const alerts = found.map((a) => ({
        name: alertName(a.labels),
        message: alertMessage(a.annotations),
        labels: a.labels,
        annotations: a.annotations ?? {},
        fingerprint: a.fingerprint ?? '',
        startsAt: a.startsAt ?? null,
      }));
      const data = {};
      const results = { alerts };
      if (!alerts.length) return { pass: true, message: 'no matching alerts firing', data, results };
      const shown = alerts
        .slice(0, 10)
        .map((a) => (a.labels.severity ? `${a.name} (severity=${a.labels.severity})` : a.name));
      const more = alerts.length > shown.length ? `, and ${alerts.length - shown.length} more` : '';
      return fail(`${plural(alerts.length, 'alert')} firing: ${shown.join(', ')}${more}`, data, { results });
    },
  );
}

export const alertmanagerChecker: Checker<AlertmanagerSpec> = {
  type: 'alertmanager',
  schema,
  endpoint: (spec) => connectionEndpoint(spec) || spec.name,
  run,
};

export default alertmanagerChecker;
