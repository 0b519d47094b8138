// POST /api/logs behind the HTTP layer: which backend, entries and selector a request means (the
// backend named, or the component's / catalog item's log selector, or the first backend), its time
// range and text parsed, one page read from the backend with a timeout, failures worded.
import {
  backendTypes,
  LOGS_DEFAULT_LIMIT,
  LOGS_MAX_LIMIT,
  logSelectorSchema,
  normalizeLogSelector,
  type LogBackendType,
  type LoggingBackendSpec,
  type LogSelector,
  type LogsRequest,
  type LogsResponse,
} from '@opsdeck/common';
import { parseRelativeTime } from '@opsdeck/common/timeRange';
import { connectionResolver, resolveEnvValue } from '../connections/index.js';
import type { Queryable } from '../db/database.js';
import { UUID } from '../resources/routes.js';
import { logBackends, LogBackendError, LogRequestError, type LogQuery } from './backends/index.js';
import { textMatcher } from './backends/query.js';

export const LOGS_TIMEOUT_MS = 10_000;

/** A refusal of the logs API: status, code and the sentence shown. */
export class LogsError extends Error {
  constructor(
    readonly status: 400 | 404 | 502 | 504,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface BackendRow {
  id: string;
  name: string;
  namespace: string;
  spec: LoggingBackendSpec;
}

/** The component or catalog item a request names, with its log selectors. */
export interface LogOwner {
  kind: 'component' | 'config';
  name: string;
  selectors: LogSelector[];
}

export async function findLogOwner(db: Queryable, kind: 'component' | 'config', id: string): Promise<LogOwner> {
  const table = kind === 'component' ? 'components' : 'config_items';
  const missing = new LogsError(
    404,
    'NOT_FOUND',
    kind === 'component' ? 'Component not found.' : 'Catalog item not found.',
  );
  if (!UUID.test(id)) throw missing;
  const { rows } = await db.query<{ name: string; log_selectors: unknown }>(
    `SELECT name, log_selectors FROM ${table} WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  if (!rows[0]) throw missing;
  const list = Array.isArray(rows[0].log_selectors) ? rows[0].log_selectors : [];
  const selectors = list.flatMap((s) => {
    const parsed = logSelectorSchema.safeParse(s);
    return parsed.success ? [normalizeLogSelector(parsed.data)] : [];
  });
  return { kind, name: rows[0].name, selectors };
}

/** Whether an id is a live component's or else a live catalog item's; a component when neither (its 404). */
export async function logOwnerKind(db: Queryable, id: string): Promise<'component' | 'config'> {
  if (!UUID.test(id)) return 'component';
  const { rows } = await db.query<{ component: boolean; config: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM components WHERE id = $1 AND deleted_at IS NULL) AS component,
            EXISTS (SELECT 1 FROM config_items WHERE id = $1 AND deleted_at IS NULL) AS config`,
    [id],
  );
  return !rows[0]?.component && rows[0]?.config ? 'config' : 'component';
}

async function findBackend(db: Queryable, ref: string | null, type: LogBackendType | null): Promise<BackendRow> {
  const columns = 'id, name, namespace, spec';
  if (ref) {
    const [a, b] = ref.includes('/') ? ref.split('/', 2) : [null, ref];
    const { rows } = await db.query<BackendRow>(
      `SELECT ${columns} FROM logging_backends WHERE deleted_at IS NULL
         AND (id::text = $1 OR (name = $2 AND ($3::text IS NULL OR namespace = $3)))
       ORDER BY (id::text = $1) DESC, (namespace = 'default') DESC, namespace LIMIT 1`,
      [ref, b, a],
    );
    if (!rows[0]) throw new LogsError(404, 'NOT_FOUND', `No such log backend "${ref}".`);
    return rows[0];
  }
  const { rows } = await db.query<BackendRow>(
    `SELECT ${columns} FROM logging_backends WHERE deleted_at IS NULL
       AND ($1::text IS NULL OR jsonb_array_length(coalesce(spec -> $1, '[]'::jsonb)) > 0)
     ORDER BY namespace, name LIMIT 1`,
    [type],
  );
  if (!rows[0])
    throw new LogsError(400, 'INVALID_REQUEST', 'No log backend is configured: add one under Settings → Log Backends.');
  return rows[0];
}

/** Whether a backend reference (`[namespace/]name` or id) names a live log backend (playbook apply checks). */
export async function logBackendExists(db: Queryable, ref: string): Promise<boolean> {
  try {
    await findBackend(db, ref, null);
    return true;
  } catch (e) {
    if (e instanceof LogsError) return false;
    throw e;
  }
}

function parseTime(field: 'start' | 'end', text: string | undefined, fallback: Date, now: Date): Date {
  if (!text?.trim()) return fallback;
  const t = text.trim();
  try {
    if (t.startsWith('now')) return parseRelativeTime(t, now);
  } catch {
    // worded below
  }
  const ms = Date.parse(t);
  if (!t.startsWith('now') && !Number.isNaN(ms)) return new Date(ms);
  throw new LogsError(400, 'INVALID_REQUEST', `${field} "${text}" is not a time (RFC3339 or now-1h)`);
}

/** Reads one page for a request; the owner (component or item) was already looked up and authorised. */
export async function searchLogs(
  db: Queryable,
  req: LogsRequest,
  owner: LogOwner | undefined,
  opts: { timeoutMs?: number; now?: Date } = {},
): Promise<LogsResponse> {
  let selector: LogSelector | undefined;
  if (owner) {
    selector = req.selector ? owner.selectors.find((s) => s.name === req.selector) : owner.selectors[0];
    const what = owner.kind === 'component' ? 'component' : 'catalog item';
    if (req.selector && !selector)
      throw new LogsError(400, 'INVALID_REQUEST', `The ${what} "${owner.name}" has no log selector "${req.selector}".`);
    if (!selector && !req.backend)
      throw new LogsError(
        400,
        'INVALID_REQUEST',
        `The ${what} "${owner.name}" does not say where its logs are: give it logs selectors ` +
          `(logs: [{name, backend, selector}] in its ${owner.kind === 'component' ? 'topology' : "scraper's entry"}).`,
      );
  }
  const wantedType = req.type ?? selector?.type ?? null;
  const row = await findBackend(db, req.backend ?? selector?.backend ?? null, req.backend ? null : wantedType);
  const types = backendTypes(row.spec);
  const type = wantedType ?? types[0];
  if (!type || !types.includes(type))
    throw new LogsError(
      400,
      'INVALID_REQUEST',
      `The log backend "${row.name}" has no ${wantedType ?? 'entries'} (it has ${types.join(', ') || 'none'}).`,
    );

  const now = opts.now ?? new Date();
  const end = parseTime('end', req.end, now, now);
  const start = parseTime('start', req.start, new Date(end.getTime() - 3_600_000), now);
  if (start > end) throw new LogsError(400, 'INVALID_REQUEST', 'start must be before end');
  const text = req.query ?? '';
  let match: RegExp | undefined;
  try {
    match = textMatcher(text);
  } catch (e) {
    throw new LogsError(400, 'INVALID_REQUEST', `query: ${(e as Error).message}`);
  }
  const query: LogQuery = {
    text,
    match,
    native: type === 'loki' && text.trim().startsWith('{') ? text.trim() : undefined,
    start,
    end,
    limit: Math.min(req.limit ?? LOGS_DEFAULT_LIMIT, LOGS_MAX_LIMIT),
    cursor: req.cursor,
    selector: { ...selector?.selector, ...req.labels },
  };

  const timeoutMs = opts.timeoutMs ?? LOGS_TIMEOUT_MS;
  const controller = new AbortController();
  const named = `The log backend "${row.name}" (${type})`;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error('timed out'));
      reject(new LogsError(504, 'BACKEND_TIMEOUT', `${named} did not answer within ${timeoutMs / 1000} s.`));
    }, timeoutMs);
  });
  const backend = logBackends[type];
  const entries = (row.spec[type] ?? []) as never[];
  const ctx = {
    signal: controller.signal,
    timeoutMs,
    connection: connectionResolver(db),
    resolve: resolveEnvValue,
  };
  try {
    const page = await Promise.race([backend.search(entries, query, ctx), timeout]);
    return { ...page, backend: { id: row.id, name: row.name, type } };
  } catch (e) {
    if (e instanceof LogsError) throw e;
    if (e instanceof LogRequestError) throw new LogsError(400, 'INVALID_REQUEST', `${named}: ${e.message}`);
    if (e instanceof LogBackendError) throw new LogsError(502, 'BACKEND_ERROR', `${named} failed: ${e.message}`);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
