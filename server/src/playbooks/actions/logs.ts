// `logs`: one page of log lines through Opsdeck's log backends (../../logs, the search behind
// POST /api/logs): a backend by name, or a component's / catalog item's log selector (`component` /
// `config`: an id, usually `{{.component.id}}`), with `query` (text, /regex/ or native), `start`
// (`now-1h`, a duration such as `1h`, or RFC3339), `end`, `limit` (default 100, at most 1000) and
// `labels` added to the selector. mission-control's per-system sub-specs (`loki`, `cloudwatch`,
// `opensearch`, `kubernetes`, `bigquery`) and `postProcess` have no field here: a LoggingBackend
// holds the connection. Result: {count, lines: [{timestamp, message, labels}], backend: {name, type}}.
import { isValidRelativeTime } from '@opsdeck/common/timeRange';
import { LOG_BACKEND_TYPES, LOGS_DEFAULT_LIMIT, LOGS_MAX_LIMIT } from '@opsdeck/common';
import { z } from 'zod';
import { isDuration } from '../../connections/duration.js';
import { findLogOwner, LogsError, searchLogs, type LogOwner, type LogsRequest } from '../../logs/index.js';
import { abortText, type ActionContext, type PlaybookAction } from './action.js';

const FIELDS = 'backend, type, component, config, selector, query, start, end, limit, labels';
const viaBackend = (key: string) =>
  z
    .never({
      error: `${key} is not supported here: apply a LoggingBackend holding the connection and name it with backend (or use a component's log selectors)`,
    })
    .optional();

/** `now-1h`, a duration (`1h`: that long before now) or RFC3339; a template is checked after rendering. */
function timeProblem(text: string): string | undefined {
  const t = text.trim();
  if (!t || t.includes('{{') || isDuration(t) || isValidRelativeTime(t)) return undefined;
  if (!t.startsWith('now') && !Number.isNaN(Date.parse(t))) return undefined;
  return `"${text}" is not a time (now-1h, a duration such as 1h, or RFC3339)`;
}
const time = z.string().superRefine((s, issue) => {
  const problem = timeProblem(s);
  if (problem) issue.addIssue({ code: 'custom', message: problem });
});

const schema = z
  .strictObject(
    {
      backend: z.string().trim().min(1, 'backend is a log backend name ([namespace/]name)').optional(),
      type: z.enum(LOG_BACKEND_TYPES, { error: `type must be one of ${LOG_BACKEND_TYPES.join(', ')}` }).optional(),
      component: z.string().trim().optional(),
      config: z.string().trim().optional(),
      selector: z.string().optional(),
      query: z.string().max(4096, 'query is at most 4096 characters').optional(),
      start: time.optional(),
      end: time.optional(),
      limit: z
        .union([z.number(), z.string().regex(/^\d+$/, 'limit must be a whole number').transform(Number)], {
          error: 'limit must be a whole number',
        })
        .pipe(
          z
            .number()
            .int('limit must be a whole number')
            .min(1, 'limit must be at least 1')
            .max(LOGS_MAX_LIMIT, `limit must be at most ${LOGS_MAX_LIMIT}`),
        )
        .optional(),
      labels: z.record(z.string(), z.string(), { error: 'labels maps label names to values' }).optional(),
      loki: viaBackend('loki'),
      cloudwatch: viaBackend('cloudwatch'),
      opensearch: viaBackend('opensearch'),
      kubernetes: viaBackend('kubernetes'),
      bigquery: viaBackend('bigquery'),
      postProcess: z.never({ error: 'postProcess is not supported yet' }).optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')}: unknown field (use ${FIELDS})` : undefined,
    },
  )
  .superRefine((s, issue) => {
    if (s.component !== undefined && s.config !== undefined)
      issue.addIssue({ code: 'custom', path: ['config'], message: 'give component or config, not both' });
  });
export type LogsActionSpec = z.infer<typeof schema>;

/** A bare duration means that long before now. */
const relative = (t: string | undefined) => (t && isDuration(t.trim()) ? `now-${t.trim()}` : t);

async function owner(spec: LogsActionSpec, ctx: ActionContext): Promise<LogOwner | undefined> {
  for (const kind of ['component', 'config'] as const) {
    const id = spec[kind];
    if (id === undefined) continue;
    const what = kind === 'component' ? 'component' : 'catalog item';
    if (!id)
      throw new LogsError(400, 'INVALID_REQUEST', `${kind} is empty after templates: run the playbook on a ${what}`);
    try {
      return await findLogOwner(ctx.db, kind, id);
    } catch (e) {
      if (e instanceof LogsError && e.status === 404)
        throw new LogsError(404, 'NOT_FOUND', `no ${what} "${id}" (${kind} takes an id)`);
      throw e;
    }
  }
  return undefined;
}

export const logsAction: PlaybookAction<LogsActionSpec> = {
  type: 'logs',
  schema,
  async run(spec, ctx) {
    const empty = { count: 0, lines: [] };
    const req: LogsRequest = {
      backend: spec.backend,
      type: spec.type,
      selector: spec.selector || undefined,
      labels: spec.labels,
      query: spec.query,
      start: relative(spec.start),
      end: relative(spec.end),
      limit: spec.limit ?? LOGS_DEFAULT_LIMIT,
    };
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new Error(abortText(ctx)));
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    try {
      const search = owner(spec, ctx).then((o) => searchLogs(ctx.db, req, o, { timeoutMs: ctx.timeoutMs }));
      const page = await Promise.race([search, aborted]);
      const lines = page.results.map((l) => ({ timestamp: l.timestamp, message: l.message, labels: l.labels }));
      return { result: { count: lines.length, lines, backend: { name: page.backend.name, type: page.backend.type } } };
    } catch (e) {
      if (e instanceof LogsError) return { result: empty, error: e.message };
      return { result: empty, error: (e as Error).message };
    } finally {
      if (onAbort) ctx.signal.removeEventListener('abort', onAbort);
    }
  },
};
