// `npm run bench -- incidents`: the incident list and detail reads the console makes, on
// PostgreSQL with 50,000 incidents, 500,000 comments and 500,000 evidences (database
// opsdeck_bench_incidents, generated with generate_series; the changelog rows the triggers would
// write are generated in bulk too). Opsdeck runs in this process (engines off); requests go over
// real HTTP with an admin's access token, one at a time, so the latencies are per request.
//
// Shapes (spec/2 §7, with the selects the console sends):
//   list-default       status=eq.open, order=created_at.desc, limit 50, count=exact, commander and responders embeds
//   list-filtered      status + severity + type filters, same embeds
//   list-owner         created_by=eq.{person}
//   list-component     hypotheses.evidences.component_id=eq.{component} (inner embeds)
//   detail-nested      one incident with 200 hypotheses: *,commander,hypotheses(*,evidences(*),comments(*))
//   detail-*           the calls the detail page makes: incident, hypotheses with evidence embeds,
//                      comments, responders, changelog (200 newest)
//
// Flags: --incidents 50000 --comments 500000 --evidences 500000 --requests 200 --warmup 20 --reuse
import { startOpsdeck } from '../server/src/app.js';
import { createToken } from '../server/src/auth/tokens.js';
import { openPostgres } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import {
  databaseExists,
  databaseUrl,
  numberFlag,
  parseFlags,
  percentile,
  printTable,
  recreateDatabase,
} from './lib.js';

const DB_NAME = 'opsdeck_bench_incidents';
const flags = parseFlags(process.argv.slice(2));
const incidents = numberFlag(flags, 'incidents', 50_000);
const comments = numberFlag(flags, 'comments', 500_000);
const evidences = numberFlag(flags, 'evidences', 500_000);
const requests = numberFlag(flags, 'requests', 200);
const warmup = numberFlag(flags, 'warmup', 20);
const url = databaseUrl(DB_NAME);

/** Generation, in order; each statement runs alone so progress shows. */
function dataSql(): [string, string][] {
  return [
    [
      'people',
      `INSERT INTO people (name, email, avatar) SELECT 'Person ' || g, 'person' || g || '@bench.test', NULL FROM generate_series(1, 500) g`,
    ],
    [
      'teams',
      `INSERT INTO teams (name, icon, spec) SELECT 'team-' || g, 'group', '{"responder_clients": {"email": {}}}' FROM generate_series(1, 50) g`,
    ],
    // Bulk rows: the triggers' changelog is generated below in one statement per table instead.
    [
      'disable triggers',
      `ALTER TABLE incidents DISABLE TRIGGER USER; ALTER TABLE hypotheses DISABLE TRIGGER USER;
       ALTER TABLE evidences DISABLE TRIGGER USER; ALTER TABLE comments DISABLE TRIGGER USER; ALTER TABLE responders DISABLE TRIGGER USER`,
    ],
    [
      `incidents (${incidents})`,
      `WITH p AS (SELECT array_agg(id ORDER BY name) AS ids FROM people)
       INSERT INTO incidents (title, description, type, severity, status, created_by, commander_id, created_at, updated_at)
       SELECT 'Incident ' || g || ' on service-' || (g % 300), 'generated', 
         (ARRAY['cost','availability','performance','security','integration','compliance','technicalDebt','reliability'])[1 + g % 8],
         (ARRAY['info','warning','low','medium','high','blocker','critical'])[1 + (g / 8) % 7],
         (ARRAY['new','open','investigating','mitigated','resolved','closed'])[1 + (g / 3) % 6],
         p.ids[1 + g % 500], p.ids[1 + (g * 7) % 500],
         now() - g * interval '1 minute', now() - g * interval '1 minute'
       FROM generate_series(1, ${incidents}) g, p`,
    ],
    [
      'hypotheses (root + 2 factors each)',
      `INSERT INTO hypotheses (incident_id, title, type, status, created_by, created_at)
       SELECT id, title, 'root', 'Possible', created_by, created_at FROM incidents;
       INSERT INTO hypotheses (incident_id, parent_id, title, type, status, created_by, created_at)
       SELECT h.incident_id, h.id, 'Factor ' || f, 'factor', (ARRAY['Likely','Possible','Unlikely'])[f], h.created_by, h.created_at
       FROM hypotheses h, generate_series(1, 2) f WHERE h.type = 'root'`,
    ],
    [
      'detail incident with 200 hypotheses',
      `WITH i AS (SELECT id FROM incidents ORDER BY created_at DESC LIMIT 1),
         r AS (SELECT h.id, h.incident_id FROM hypotheses h JOIN i ON i.id = h.incident_id WHERE h.type = 'root')
       INSERT INTO hypotheses (incident_id, parent_id, title, type, status)
       SELECT r.incident_id, r.id, 'Extra factor ' || g, 'factor', 'Possible' FROM r, generate_series(1, 197) g`,
    ],
    [
      'components (200, for topology evidence)',
      `INSERT INTO components (name, type, health) SELECT 'service-' || g, 'Service', 'healthy' FROM generate_series(1, 200) g`,
    ],
    [
      'number hypotheses',
      `CREATE TEMP TABLE hyp_n AS SELECT row_number() OVER (ORDER BY id) AS n, id, incident_id FROM hypotheses`,
    ],
    [
      `evidences (${evidences})`,
      `WITH c AS (SELECT array_agg(id ORDER BY name) AS ids FROM components)
       INSERT INTO evidences (hypothesis_id, type, description, evidence, component_id, definition_of_done, created_at)
       SELECT h.id, (ARRAY['log','config','comment','topology'])[1 + g % 4], 'Evidence ' || g,
         jsonb_build_object('lines', jsonb_build_array('line one', 'line two', 'line three'), 'selected_lines', '{}'::jsonb),
         CASE WHEN g % 4 = 3 THEN c.ids[1 + g % 200] END, g % 10 = 0, now() - g * interval '1 second'
       FROM generate_series(1, ${evidences}) g
       JOIN hyp_n h ON h.n = 1 + (g::bigint * 7919) % (SELECT count(*) FROM hyp_n), c`,
    ],
    [
      `comments (${comments})`,
      `INSERT INTO comments (incident_id, hypothesis_id, comment, created_by, created_at)
       SELECT h.incident_id, h.id, 'Comment ' || g || ': looked at the logs, nothing new', NULL, now() - g * interval '1 second'
       FROM generate_series(1, ${comments}) g
       JOIN hyp_n h ON h.n = 1 + (g::bigint * 104729) % (SELECT count(*) FROM hyp_n)`,
    ],
    [
      'detail incident: evidences and comments on every hypothesis',
      `WITH i AS (SELECT id FROM incidents ORDER BY created_at DESC LIMIT 1)
       INSERT INTO evidences (hypothesis_id, type, description) SELECT h.id, 'comment', 'detail evidence'
       FROM hypotheses h JOIN i ON i.id = h.incident_id, generate_series(1, 2);
       WITH i AS (SELECT id FROM incidents ORDER BY created_at DESC LIMIT 1)
       INSERT INTO comments (incident_id, hypothesis_id, comment) SELECT h.incident_id, h.id, 'detail comment'
       FROM hypotheses h JOIN i ON i.id = h.incident_id, generate_series(1, 2)`,
    ],
    [
      'responders (2 per incident)',
      `WITH t AS (SELECT array_agg(id ORDER BY name) AS ids FROM teams), p AS (SELECT array_agg(id ORDER BY name) AS ids FROM people)
       INSERT INTO responders (incident_id, type, team_id, person_id, properties, delivery_status, created_at)
       SELECT i.id, CASE WHEN k = 1 THEN 'system' ELSE 'person' END,
         CASE WHEN k = 1 THEN t.ids[1 + abs(hashtext(i.id::text)) % 50] END,
         CASE WHEN k = 2 THEN p.ids[1 + abs(hashtext(i.id::text)) % 500] END,
         CASE WHEN k = 1 THEN '{"responderType": "email", "to": "a@b.test", "subject": "s", "body": "b"}'::jsonb
              ELSE '{"responderType": "person"}'::jsonb END, 'recorded', i.created_at
       FROM incidents i, t, p, generate_series(1, 2) k`,
    ],
    [
      'incidents.component_ids',
      `UPDATE incidents i SET component_ids = x.ids
       FROM (SELECT h.incident_id, array_agg(DISTINCT e.component_id ORDER BY e.component_id) AS ids
             FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id WHERE e.component_id IS NOT NULL GROUP BY 1) x
       WHERE i.id = x.incident_id`,
    ],
    [
      'changelog',
      `INSERT INTO incident_histories (incident_id, type, description, created_by, created_at)
       SELECT id, 'incident.created', 'Created incident ' || incident_id, created_by, created_at FROM incidents;
       INSERT INTO incident_histories (incident_id, type, description, hypothesis_id, created_at)
       SELECT incident_id, 'hypothesis.created', 'Added hypothesis', id, created_at FROM hypotheses;
       INSERT INTO incident_histories (incident_id, type, description, evidence_id, created_at)
       SELECT h.incident_id, 'evidence.created', 'Added evidence', e.id, e.created_at FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id;
       INSERT INTO incident_histories (incident_id, type, description, comment_id, created_at)
       SELECT incident_id, 'responder.commented', left(comment, 200), id, created_at FROM comments;
       INSERT INTO incident_histories (incident_id, type, description, responder_id, created_at)
       SELECT incident_id, 'responder.created', 'Added responder', id, created_at FROM responders`,
    ],
    [
      'enable triggers',
      `ALTER TABLE incidents ENABLE TRIGGER USER; ALTER TABLE hypotheses ENABLE TRIGGER USER;
       ALTER TABLE evidences ENABLE TRIGGER USER; ALTER TABLE comments ENABLE TRIGGER USER; ALTER TABLE responders ENABLE TRIGGER USER`,
    ],
  ];
}

async function generate(): Promise<void> {
  await recreateDatabase(DB_NAME);
  const db = await openPostgres(url, 2);
  try {
    await migrate(db);
    await db.transaction(async (tx) => {
      for (const [label, sql] of dataSql()) {
        const t0 = performance.now();
        for (const statement of sql.split(/;\s*\n/)) if (statement.trim()) await tx.query(statement);
        console.log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
    });
    // Bulk-loaded pages get their hint bits and visibility map here, as autovacuum would do.
    await db.query('VACUUM ANALYZE');
  } finally {
    await db.close();
  }
}

// The selects of the console's incident screens (web/src/features/incidents/incidentsApi.ts, filters.ts).
const LIST_SELECT =
  '*,commander:commander_id(id,name,avatar),' +
  'responders(id,type,deleted_at,team:team_id(id,name,icon),person:person_id(id,name,avatar))';
const EVIDENCE_SELECT =
  '*,check:check_id(id,name,status,icon,type),component:component_id(id,name,icon,health,type),' +
  'config:config_id(id,name,type,health),config_change:config_change_id(id,summary,change_type,severity),' +
  'config_analysis:config_analysis_id(id,message,analyzer,severity,status)';
const HISTORY_SELECT =
  '*,creator:created_by(id,name,avatar),responder:responder_id(id,team:team_id(name),person:person_id(name)),' +
  'hypothesis:hypothesis_id(id,title),evidence:evidence_id(id,description,type)';

async function main(): Promise<void> {
  const reuse = flags.reuse === true && (await databaseExists(DB_NAME));
  if (!reuse) {
    console.log(`Generating ${DB_NAME}: ${incidents} incidents, ${evidences} evidences, ${comments} comments…`);
    await generate();
  }
  const app = await startOpsdeck({
    databaseUrl: url,
    port: 0,
    host: '127.0.0.1',
    engines: false,
    demo: false,
    databasePoolSize: 10,
  });
  try {
    const db = app.ctx.db;
    // Applies index changes of newer migrations to a reused database.
    await db.query('ANALYZE incidents');
    const { rows: admin } = await db.query<{ id: string }>(
      `INSERT INTO people (name, email) VALUES ('Bench admin', 'bench-admin-' || gen_random_uuid() || '@bench.test') RETURNING id`,
    );
    await db.query(`INSERT INTO person_roles (person_id, role) VALUES ($1, 'admin')`, [admin[0]!.id]);
    const { token } = await createToken(db, { name: 'bench', personId: admin[0]!.id, createdBy: null });
    const { rows: detail } = await db.query<{ id: string; n: number }>(
      `SELECT incident_id AS id, count(*)::int AS n FROM hypotheses GROUP BY incident_id ORDER BY count(*) DESC LIMIT 1`,
    );
    const { rows: owners } = await db.query<{ id: string }>(`SELECT id FROM people ORDER BY name LIMIT 20`);
    const detailId = detail[0]!.id;
    console.log(`Detail incident ${detailId}: ${detail[0]!.n} hypotheses`);

    const { rows: components } = await db.query<{ id: string }>(`SELECT id FROM components ORDER BY name LIMIT 20`);
    const list = (filters: string) =>
      `/api/db/incidents?select=${LIST_SELECT}&responders.deleted_at=is.null${filters}&order=created_at.desc&limit=50&offset=0`;
    const shapes: { name: string; goal: number; paths: string[]; requests?: number }[] = [
      { name: 'list-default', goal: 100, paths: [list('&status=eq.open')] },
      {
        name: 'list-filtered',
        goal: 100,
        paths: ['open', 'investigating', 'mitigated'].flatMap((status) =>
          ['high', 'critical', 'low'].map((severity) =>
            list(`&status=eq.${status}&severity=eq.${severity}&type=eq.availability`),
          ),
        ),
      },
      { name: 'list-owner', goal: 100, paths: owners.map((o) => list(`&created_by=eq.${o.id}`)) },
      { name: 'list-component', goal: 100, paths: components.map((c) => list(`&component_ids=cs.{${c.id}}`)) },
      {
        // The embed filter through hypotheses and evidences: every incident is aggregated to count them.
        name: 'list-component (embed filter)',
        goal: 100,
        requests: 3,
        paths: components.map(
          (c) =>
            `/api/db/incidents?select=${LIST_SELECT},hypotheses!inner(id,evidences!inner(component_id))` +
            `&responders.deleted_at=is.null&hypotheses.evidences.component_id=eq.${c.id}&order=created_at.desc&limit=50&offset=0`,
        ),
      },
      {
        name: 'detail-nested',
        goal: 150,
        paths: [
          `/api/db/incidents?id=eq.${detailId}&select=*,commander:commander_id(id,name,avatar),hypotheses(*,evidences(*),comments(*))`,
        ],
      },
      {
        name: 'detail-incident',
        goal: 150,
        paths: [
          `/api/db/incidents?id=eq.${detailId}&select=*,commander:commander_id(id,name,avatar),communicator:communicator_id(id,name,avatar),creator:created_by(id,name,avatar)`,
        ],
      },
      {
        name: 'detail-hypotheses',
        goal: 150,
        paths: [
          `/api/db/hypotheses?select=*,evidences(${EVIDENCE_SELECT})&incident_id=eq.${detailId}&order=created_at&limit=500`,
        ],
      },
      {
        name: 'detail-comments',
        goal: 150,
        paths: [
          `/api/db/comments?select=*,author:created_by(id,name,avatar)&incident_id=eq.${detailId}&order=created_at&limit=500`,
        ],
      },
      {
        name: 'detail-responders',
        goal: 150,
        paths: [
          `/api/db/responders?select=*,team:team_id(id,name,icon,spec),person:person_id(id,name,avatar)&incident_id=eq.${detailId}&deleted_at=is.null&order=created_at&limit=200`,
        ],
      },
      {
        name: 'detail-histories',
        goal: 150,
        paths: [
          `/api/db/incident_histories?select=${HISTORY_SELECT}&incident_id=eq.${detailId}&order=created_at.desc&limit=200`,
        ],
      },
    ];

    const rows: (string | number)[][] = [];
    for (const shape of shapes) {
      const times: number[] = [];
      let bytes = 0;
      let total = '';
      // A statement past STATEMENT_TIMEOUT_MS answers 504: counted (its time too), not fatal.
      const errors = new Map<number, number>();
      const n = shape.requests ?? requests;
      const skip = shape.requests ? 1 : warmup;
      for (let i = 0; i < skip + n; i++) {
        const path = shape.paths[i % shape.paths.length]!;
        const t0 = performance.now();
        const res = await fetch(`${app.url}${path}`, {
          headers: { authorization: `Bearer ${token}`, prefer: 'count=exact' },
        });
        const body = await res.text();
        const ms = performance.now() - t0;
        const failed = res.status !== 200 && res.status !== 206;
        if (failed && i >= skip) errors.set(res.status, (errors.get(res.status) ?? 0) + 1);
        if (failed && res.status !== 504) throw new Error(`${shape.name}: HTTP ${res.status} ${body.slice(0, 300)}`);
        if (i >= skip) {
          times.push(ms);
          bytes += body.length;
          total = res.headers.get('content-range') ?? total;
        }
      }
      const p95 = percentile(times, 95);
      rows.push([
        shape.name,
        n,
        percentile(times, 50).toFixed(1),
        p95.toFixed(1),
        percentile(times, 99).toFixed(1),
        Math.round(bytes / n / 1024),
        total,
        `< ${shape.goal}`,
        p95 < shape.goal ? 'yes' : 'NO',
        [...errors].map(([status, count]) => `${count}×${status}`).join(' ') || '-',
      ]);
    }
    const { rows: counts } = await db.query<{ t: string; n: string }>(
      `SELECT 'incidents' AS t, count(*)::text AS n FROM incidents UNION ALL SELECT 'hypotheses', count(*)::text FROM hypotheses
       UNION ALL SELECT 'evidences', count(*)::text FROM evidences UNION ALL SELECT 'comments', count(*)::text FROM comments
       UNION ALL SELECT 'responders', count(*)::text FROM responders UNION ALL SELECT 'incident_histories', count(*)::text FROM incident_histories`,
    );
    console.log(`\nRows: ${counts.map((c) => `${c.t} ${Number(c.n).toLocaleString('en')}`).join(', ')}\n`);
    printTable(
      ['shape', 'requests', 'p50 ms', 'p95 ms', 'p99 ms', 'KiB', 'content-range', 'goal p95', 'met', 'errors'],
      rows,
    );
  } finally {
    await app.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
