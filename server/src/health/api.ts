// /api/canary: apply canaries from YAML, read them back, delete them, run a check now, the health
// summary and per-check statistics.
import { canRunChecks } from '@opsdeck/common';
import { Hono } from 'hono';
import { stringify } from 'yaml';
import type { Database } from '../db/database.js';
import type { Identity } from '../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import { parseDocuments, ResourceError, ResourceErrors, resourceErrorBody } from '../resources/yaml.js';
import { parseCanaryChecked, type CanaryDefinition } from './canary.js';
import type { Checker } from './checker.js';
import type { HealthEngine } from './engine.js';
import { parseDuration } from '../connections/duration.js';
import { applyCanary, deleteCanary } from './store.js';
import { UUID } from '../resources/routes.js';
import { queueCheckRunOnAgent } from '../agents/checkRunRelay.js';
import { summaryHandler } from './summaryAnswer.js';
import { ordinaryTime } from '../http/ordinaryTime.js';

interface Deps {
  db: Database;
  identity: Identity;
  checkers: ReadonlyMap<string, Checker>;
  engine: HealthEngine;
}

/** `t` (ms since the epoch) as a Date, or a 400 naming `value` when it is no time or beyond 1970–9999. */
function within(value: string, t: number): Date {
  if (!ordinaryTime(t))
    throw new HttpError(
      400,
      'VALIDATION',
      `"${value}" is not a time: use a duration like 1h or 7d, or an ISO date between 1970 and 9999`,
    );
  return new Date(t);
}

/** `1h`, `now-2d`, an ISO time or epoch milliseconds → a Date; undefined for an empty value. */
export function parseTime(value: string | undefined, now = Date.now()): Date | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (v === 'now') return new Date(now);
  // Durations back from now; months (mo, 30 days) and years (y, 365 days) as the time picker sends them.
  const rel = /^(?:now-)?(\d+(?:ms|s|mo|m|h|d|w|y))+$/.exec(v) ? v.replace(/^now-/, '') : undefined;
  if (rel) {
    const expanded = rel
      .replace(/(\d+)mo/g, (_, n: string) => `${Number(n) * 30}d`)
      .replace(/(\d+)y/g, (_, n: string) => `${Number(n) * 365}d`);
    return within(value, now - parseDuration(expanded));
  }
  return within(value, /^\d+$/.test(v) ? Number(v) : Date.parse(v));
}

/** Reads the body as text and applies every Canary in it. */
async function applyText(text: string, deps: Deps, createdBy: string): Promise<{ applied: unknown[] }> {
  const docs = parseDocuments(text);
  if (docs.length === 0)
    throw new ResourceErrors([new ResourceError('the document is empty: paste a Canary resource')]);
  const defs: CanaryDefinition[] = [];
  for (const d of docs) defs.push(await parseCanaryChecked(d, deps.checkers));
  const applied = [];
  for (const def of defs) {
    const r = await applyCanary(deps.db, def, { source: 'UI', createdBy });
    applied.push({ id: r.id, name: def.name, namespace: def.namespace, created: r.created, checks: r.checks });
  }
  return { applied };
}

export function healthRoutes(deps: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, identity, engine } = deps;

  app.onError((err, c) => {
    const body = resourceErrorBody(err);
    if (body) return c.json(body, 400);
    throw err;
  });

  // Apply canaries: YAML or JSON text (one or more documents).
  app.post('/', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'canaries', 'write');
    const text = await c.req.text();
    return c.json(await applyText(text, deps, principal.id), 201);
  });

  app.get('/:id/spec', async (c) => {
    await requirePermission(identity, c.get('principal'), 'canaries', 'read');
    const { rows } = await db.query<{ spec: unknown }>(
      'SELECT spec FROM canaries WHERE id::text = $1 AND deleted_at IS NULL',
      [c.req.param('id')],
    );
    if (!rows[0]) throw new HttpError(404, 'NOT_FOUND', 'No such canary.');
    // jsonb keeps keys in its own order: write the resource's usual order back.
    const { apiVersion, kind, metadata, spec, ...rest } = rows[0].spec as Record<string, unknown>;
    return c.body(stringify({ apiVersion, kind, metadata, spec, ...rest }), 200, {
      'content-type': 'application/yaml; charset=utf-8',
    });
  });

  app.delete('/:id', async (c) => {
    await requirePermission(identity, c.get('principal'), 'canaries', 'write');
    if (!(await deleteCanary(db, c.req.param('id')))) throw new HttpError(404, 'NOT_FOUND', 'No such canary.');
    return c.body(null, 204);
  });

  // Run Now (spec/1 §6: admin, editor, responder and commander).
  app.post('/run/check/:id', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'canaries', 'read');
    if (!canRunChecks(principal.roles)) throw new HttpError(403, 'FORBIDDEN', 'Your role cannot run checks.');
    // An agent's check runs in the agent's network: queued for it (agents/checkRunRelay.ts), 202.
    const relayed = await queueCheckRunOnAgent(db, c.req.param('id'), principal.id);
    if (relayed)
      return c.json(
        {
          queued: true,
          id: relayed.id,
          checkId: relayed.checkId,
          agent: relayed.agent,
          message: `queued on agent ${relayed.agent.name}`,
        },
        202,
      );
    const result = await engine.runCheckNow(c.req.param('id'));
    if (result === 'not-found') throw new HttpError(404, 'NOT_FOUND', 'No such check.');
    if (result === 'busy') throw new HttpError(409, 'BUSY', 'This check is running right now; try again in a moment.');
    return c.json(result);
  });

  // The summary (summaryAnswer.ts): the FORMATS.md shape or format=console, with ETags.
  const summary = summaryHandler(db, engine.summaryViews, (v) => parseTime(v));
  app.get('/api/summary', async (c) => {
    await requirePermission(identity, c.get('principal'), 'canaries', 'read');
    return summary(c);
  });

  // Uptime, latency percentiles and a health series for one check over a range.
  app.get('/checks/:id/stats', async (c) => {
    await requirePermission(identity, c.get('principal'), 'canaries', 'read');
    const id = c.req.param('id');
    const end = parseTime(c.req.query('end')) ?? new Date();
    const start = parseTime(c.req.query('start')) ?? new Date(end.getTime() - 3_600_000);
    if (start >= end) throw new HttpError(400, 'VALIDATION', 'start must be before end');
    const buckets = Math.min(Math.max(Number(c.req.query('buckets') ?? 60) || 60, 1), 500);
    // Compared as a uuid, so the statuses are read through their check_id index: as text, every
    // check's statuses in the range were scanned (113 ms for 10,000 checks × 1 h; a 30-day range of
    // millions of rows took seconds).
    if (!UUID.test(id)) throw new HttpError(404, 'NOT_FOUND', 'No such check.');
    const found = await db.query('SELECT 1 FROM checks WHERE id = $1::uuid', [id]);
    if (!found.rows[0]) throw new HttpError(404, 'NOT_FOUND', 'No such check.');
    const rangeMs = end.getTime() - start.getTime();
    const step = Math.max(Math.ceil(rangeMs / buckets / 1000), 1);
    // Long ranges read the roll-ups; short ones the raw statuses.
    const source =
      rangeMs > 31 * 86_400_000
        ? `SELECT created_at AS time, total, passed, failed, duration_avg AS duration FROM check_statuses_1d WHERE check_id = $1::uuid AND created_at >= $2 AND created_at <= $3`
        : rangeMs > 2 * 86_400_000
          ? `SELECT created_at AS time, total, passed, failed, duration_avg AS duration FROM check_statuses_1h WHERE check_id = $1::uuid AND created_at >= $2 AND created_at <= $3`
          : `SELECT time, 1 AS total, status::int AS passed, (NOT status)::int AS failed, duration FROM check_statuses WHERE check_id = $1::uuid AND time >= $2 AND time <= $3`;
    const { rows } = await db.query<{ stats: string }>(
      `WITH src AS (${source}),
       series AS (
         SELECT to_timestamp(floor(extract(epoch FROM time) / $4) * $4) AS bucket, sum(total) AS total, sum(passed) AS passed,
                sum(failed) AS failed, round(avg(duration)) AS duration
         FROM src GROUP BY 1 ORDER BY 1),
       lat AS (
         SELECT percentile_disc(0.95) WITHIN GROUP (ORDER BY duration) AS p95,
                percentile_disc(0.97) WITHIN GROUP (ORDER BY duration) AS p97,
                percentile_disc(0.99) WITHIN GROUP (ORDER BY duration) AS p99
         FROM check_statuses WHERE check_id = $1::uuid AND time >= $2 AND time <= $3)
       SELECT json_build_object(
         'uptime', json_build_object('passed', coalesce((SELECT sum(passed) FROM src), 0), 'failed', coalesce((SELECT sum(failed) FROM src), 0)),
         'latency', (SELECT row_to_json(lat) FROM lat),
         'series', coalesce((SELECT json_agg(series) FROM series), '[]'))::text AS stats`,
      [id, start, end, step],
    );
    return c.body(rows[0]!.stats, 200, { 'content-type': 'application/json; charset=utf-8' });
  });

  return app;
}
