// Component snapshots (spec/2 §2.6, "a snapshot of the component can be downloaded as a zip"):
// GET /api/snapshot/topology/{id}?start=now-2d&related=false answers a zip of JSON files with the
// component, its whole subtree, the configs linked to them with their changes and insights in the
// range, the linked checks with their statuses in the range, and the incidents touching them.
//
// related=true also takes one step sideways: the components selected by (or selecting) those of
// the snapshot (component_relationships) and the configs related to the linked configs
// (config_relationships, both directions), with their changes in the range.
//
// Every list has a cap (ARCHITECTURE rule 6); the manifest says which lists were cut.
import { strToU8, zipSync } from 'fflate';
import { Hono } from 'hono';
import { parseRelativeTime, TimeRangeError } from '@opsdeck/common/timeRange';
import type { Identity } from '../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database, Queryable } from '../db/database.js';
import { ordinaryTime } from '../http/ordinaryTime.js';

export const SNAPSHOT_LIMITS = {
  components: 10_000,
  configs: 5_000,
  changes: 20_000,
  insights: 5_000,
  checks: 5_000,
  checkStatuses: 50_000,
  incidents: 1_000,
} as const;

export const DEFAULT_SNAPSHOT_START = 'now-2d';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const bad = (field: string, message: string) => new HttpError(400, 'VALIDATION', message, field);

/**
 * A time as the console sends it: a relative expression (`now-2d`, `now/d`), a bare duration back
 * from now (`2d`, `1h`), or an ISO date / epoch milliseconds.
 */
export function parseSnapshotTime(field: string, value: string, now: Date): Date {
  const v = value.trim();
  const notATime = () => bad(field, `${field} "${value}" is not a time range: use now-2d, 1h, or an ISO date`);
  let t: number;
  try {
    if (v.startsWith('now')) t = parseRelativeTime(v, now).getTime();
    else if (/^\d+(ms|s|m|h|d|w|M|y)$/.test(v)) t = parseRelativeTime(`now-${v}`, now).getTime();
    else t = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  } catch (e) {
    if (e instanceof TimeRangeError) throw notATime();
    throw e;
  }
  if (!v || !ordinaryTime(t)) throw notATime();
  return new Date(t);
}

export interface SnapshotQuery {
  id: string;
  start: Date;
  end: Date;
  related: boolean;
}

export function parseSnapshotQuery(id: string, q: Record<string, string | undefined>, now = new Date()): SnapshotQuery {
  if (!UUID.test(id)) throw new HttpError(404, 'NOT_FOUND', 'No such component.');
  const start = parseSnapshotTime('start', q.start || DEFAULT_SNAPSHOT_START, now);
  const end = q.end ? parseSnapshotTime('end', q.end, now) : now;
  if (start.getTime() >= end.getTime()) throw bad('start', 'start must be before end (and not in the future)');
  const related = (q.related ?? 'false').trim().toLowerCase();
  if (!['true', 'false', '1', '0', ''].includes(related)) throw bad('related', 'related must be true or false');
  return { id, start, end, related: related === 'true' || related === '1' };
}

type Row = Record<string, unknown>;

export interface Snapshot {
  /** File name (in the zip) → content. */
  files: Record<string, unknown>;
  readme: string;
  /** A file name for the download. */
  name: string;
}

async function capped(db: Queryable, sql: string, params: unknown[], limit: number): Promise<[Row[], boolean]> {
  const { rows } = await db.query<Row>(`${sql} LIMIT ${limit + 1}`, params);
  return rows.length > limit ? [rows.slice(0, limit), true] : [rows, false];
}

/** Reads everything the snapshot holds, in one read-only transaction (one consistent picture). */
/** The files each area's data goes into: left out when the caller may not read that area. */
export const SNAPSHOT_AREAS = {
  canaries: ['checks.json', 'check_statuses.json'],
  config_scrapers: ['configs.json', 'config_changes.json', 'config_analysis.json', 'related_configs.json'],
  incident: ['incidents.json'],
} as const;

export async function collectSnapshot(
  db: Database,
  q: SnapshotQuery,
  omit: readonly string[] = [],
): Promise<Snapshot | null> {
  return db.transaction(async (tx) => {
    const { rows: found } = await tx.query<Row & { id: string; name: string; path: string }>(
      `SELECT * FROM components WHERE id = $1 AND deleted_at IS NULL`,
      [q.id],
    );
    const component = found[0];
    if (!component) return null;
    const truncated: string[] = [];
    const note = (name: string, cut: boolean) => cut && truncated.push(name);

    const prefix = component.path ? `${component.path}.${component.id}` : component.id;
    const [children, cutChildren] = await capped(
      tx,
      `SELECT * FROM components WHERE deleted_at IS NULL AND (path = $1 OR path LIKE $2) ORDER BY path, name`,
      [prefix, `${prefix}.%`],
      SNAPSHOT_LIMITS.components,
    );
    note('components.json', cutChildren);
    const ids = [component.id, ...children.map((c) => String(c.id))];

    let relatedComponents: Row[] = [];
    if (q.related) {
      const [rows, cut] = await capped(
        tx,
        `SELECT c.*,
           array_agg(DISTINCT CASE WHEN cr.relationship_id = ANY($1::uuid[]) THEN 'selected' ELSE 'selects' END) AS relation
         FROM component_relationships cr
         JOIN components c ON c.id = CASE WHEN cr.relationship_id = ANY($1::uuid[]) THEN cr.component_id ELSE cr.relationship_id END
         WHERE cr.deleted_at IS NULL AND c.deleted_at IS NULL
           AND (cr.relationship_id = ANY($1::uuid[]) OR cr.component_id = ANY($1::uuid[]))
           AND NOT c.id = ANY($1::uuid[])
         GROUP BY c.id ORDER BY c.name`,
        [ids],
        SNAPSHOT_LIMITS.components,
      );
      relatedComponents = rows;
      note('related_components.json', cut);
    }
    const componentIds = [...ids, ...relatedComponents.map((c) => String(c.id))];

    const [configs, cutConfigs] = await capped(
      tx,
      `SELECT ci.*, array_agg(DISTINCT r.component_id) AS component_ids
       FROM config_component_relationships r JOIN config_items ci ON ci.id = r.config_id
       WHERE r.deleted_at IS NULL AND r.component_id = ANY($1::uuid[])
       GROUP BY ci.id ORDER BY ci.type, ci.name`,
      [componentIds],
      SNAPSHOT_LIMITS.configs,
    );
    note('configs.json', cutConfigs);
    const configIds = configs.map((c) => String(c.id));

    let relatedConfigs: Row[] = [];
    if (q.related && configIds.length) {
      const [rows, cut] = await capped(
        tx,
        `SELECT ci.*, array_agg(DISTINCT CASE WHEN cr.config_id = ANY($1::uuid[]) THEN cr.config_id ELSE cr.related_id END)
                  AS related_to
         FROM config_relationships cr
         JOIN config_items ci ON ci.id = CASE WHEN cr.config_id = ANY($1::uuid[]) THEN cr.related_id ELSE cr.config_id END
         WHERE cr.deleted_at IS NULL AND (cr.config_id = ANY($1::uuid[]) OR cr.related_id = ANY($1::uuid[]))
           AND NOT ci.id = ANY($1::uuid[])
         GROUP BY ci.id ORDER BY ci.type, ci.name`,
        [configIds],
        SNAPSHOT_LIMITS.configs,
      );
      relatedConfigs = rows;
      note('related_configs.json', cut);
    }
    const allConfigIds = [...configIds, ...relatedConfigs.map((c) => String(c.id))];

    const [changes, cutChanges] = await capped(
      tx,
      `SELECT * FROM config_changes WHERE config_id = ANY($1::uuid[]) AND created_at >= $2 AND created_at <= $3
       ORDER BY created_at DESC`,
      [allConfigIds, q.start, q.end],
      SNAPSHOT_LIMITS.changes,
    );
    note('config_changes.json', cutChanges);
    const [insights, cutInsights] = await capped(
      tx,
      `SELECT * FROM config_analysis WHERE config_id = ANY($1::uuid[]) AND last_observed >= $2 AND first_observed <= $3
       ORDER BY last_observed DESC`,
      [allConfigIds, q.start, q.end],
      SNAPSHOT_LIMITS.insights,
    );
    note('config_analysis.json', cutInsights);

    const [checks, cutChecks] = await capped(
      tx,
      `SELECT c.*, array_agg(DISTINCT r.component_id) AS component_ids
       FROM check_component_relationships r JOIN checks c ON c.id = r.check_id
       WHERE r.deleted_at IS NULL AND r.component_id = ANY($1::uuid[])
       GROUP BY c.id ORDER BY c.name`,
      [componentIds],
      SNAPSHOT_LIMITS.checks,
    );
    note('checks.json', cutChecks);
    const [statuses, cutStatuses] = await capped(
      tx,
      `SELECT * FROM check_statuses WHERE check_id = ANY($1::uuid[]) AND time >= $2 AND time <= $3
       ORDER BY time DESC`,
      [checks.map((c) => String(c.id)), q.start, q.end],
      SNAPSHOT_LIMITS.checkStatuses,
    );
    note('check_statuses.json', cutStatuses);

    // Incidents open at some point of the range, with evidence on (or opened for) these components.
    const [incidents, cutIncidents] = await capped(
      tx,
      `SELECT i.* FROM incidents i
       WHERE i.created_at <= $3 AND coalesce(i.closed, i.resolved, 'infinity'::timestamptz) >= $2
         AND (i.component_id = ANY($1::uuid[]) OR EXISTS (
           SELECT 1 FROM hypotheses h JOIN evidences e ON e.hypothesis_id = h.id
           WHERE h.incident_id = i.id AND e.component_id = ANY($1::uuid[])))
       ORDER BY i.created_at DESC`,
      [componentIds, q.start, q.end],
      SNAPSHOT_LIMITS.incidents,
    );
    note('incidents.json', cutIncidents);
    const { rows: evidences } = await tx.query<Row & { incident_id: string }>(
      `SELECT e.*, h.incident_id, h.title AS hypothesis_title FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
       WHERE h.incident_id = ANY($1::uuid[]) AND e.component_id = ANY($2::uuid[])
       ORDER BY e.created_at`,
      [incidents.map((i) => String(i.id)), componentIds],
    );
    const incidentsWithEvidence = incidents.map((i) => ({
      ...i,
      evidences: evidences.filter((e) => e.incident_id === i.id),
    }));

    const files: Record<string, unknown> = {
      'component.json': component,
      'components.json': children,
      'configs.json': configs,
      'config_changes.json': changes,
      'config_analysis.json': insights,
      'checks.json': checks,
      'check_statuses.json': statuses,
      'incidents.json': incidentsWithEvidence,
    };
    if (q.related) {
      files['related_components.json'] = relatedComponents;
      files['related_configs.json'] = relatedConfigs;
    }
    for (const name of omit) delete files[name];
    const counts = Object.fromEntries(
      Object.entries(files)
        .filter(([, v]) => Array.isArray(v))
        .map(([k, v]) => [k, (v as unknown[]).length]),
    );
    files['manifest.json'] = {
      kind: 'ComponentSnapshot',
      component: { id: component.id, name: component.name, type: component.type ?? null },
      start: q.start.toISOString(),
      end: q.end.toISOString(),
      related: q.related,
      generated_at: new Date().toISOString(),
      counts,
      truncated,
      omitted: omit,
      limits: SNAPSHOT_LIMITS,
    };
    const stamp = q.end.toISOString().replace(/[:.]/g, '-');
    const safeName =
      String(component.name)
        .replace(/[^\w.-]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'component';
    return { files, readme: readmeOf(component, q, counts, truncated), name: `snapshot-${safeName}-${stamp}.zip` };
  });
}

function readmeOf(component: Row, q: SnapshotQuery, counts: Record<string, number>, truncated: string[]): string {
  const lines = [
    `# Snapshot of ${String(component.name)}`,
    '',
    `Component ${String(component.id)}${component.type ? ` (${String(component.type)})` : ''}, from ${q.start.toISOString()} to ${q.end.toISOString()}.`,
    '',
    'Files (JSON, one array of rows each unless said otherwise):',
    '',
    `- component.json: the component itself (one object)`,
    `- components.json: its whole subtree (${counts['components.json']})`,
    `- configs.json: catalog items linked to these components, with component_ids (${counts['configs.json']})`,
    `- config_changes.json: changes of those configs in the range (${counts['config_changes.json']})`,
    `- config_analysis.json: insights of those configs observed in the range (${counts['config_analysis.json']})`,
    `- checks.json: health checks linked to these components, with component_ids (${counts['checks.json']})`,
    `- check_statuses.json: results of those checks in the range (${counts['check_statuses.json']})`,
    `- incidents.json: incidents open during the range with evidence on these components, each with its evidences (${counts['incidents.json']})`,
  ];
  if (q.related) {
    lines.push(
      `- related_components.json: components selected by, or selecting, these components (one level) (${counts['related_components.json']})`,
      `- related_configs.json: configs related to the linked configs (config relationships, one level, both directions); their changes and insights are in the files above (${counts['related_configs.json']})`,
    );
  }
  lines.push('- manifest.json: what was asked, counts, and which lists were cut at their limit', '');
  if (truncated.length) lines.push(`Cut at their limit: ${truncated.join(', ')}.`, '');
  return lines.join('\n');
}

export function zipSnapshot(snapshot: Snapshot): Uint8Array {
  const entries: Record<string, Uint8Array> = { 'README.md': strToU8(snapshot.readme) };
  for (const [name, value] of Object.entries(snapshot.files)) entries[name] = strToU8(JSON.stringify(value, null, 2));
  return zipSync(entries, { level: 6 });
}

/** /api/snapshot: downloads of snapshots (topology components for now). */
export function snapshotRoutes(deps: { db: Database; identity: Identity }): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.get('/topology/:id', async (c) => {
    const principal = c.get('principal');
    await requirePermission(deps.identity, principal, 'topologies', 'read');
    const q = parseSnapshotQuery(c.req.param('id'), c.req.query());
    // Checks, configs and incidents go in only for a caller who may read them (role and feature flags).
    const omit: string[] = [];
    for (const [resource, names] of Object.entries(SNAPSHOT_AREAS)) {
      try {
        await requirePermission(deps.identity, principal, resource as keyof typeof SNAPSHOT_AREAS, 'read');
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        omit.push(...names);
      }
    }
    const snapshot = await collectSnapshot(deps.db, q, omit);
    if (!snapshot) throw new HttpError(404, 'NOT_FOUND', 'No such component.');
    const zip = zipSnapshot(snapshot);
    // A copy that owns exactly its bytes (fflate's array may sit in a larger buffer).
    const body = zip.slice().buffer;
    return c.body(body, 200, {
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="${snapshot.name}"`,
      'cache-control': 'no-store',
    });
  });
  return app;
}
