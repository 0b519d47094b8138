// Deterministic benchmark data for `npm run bench -- rest`: the same rows (and uuids) every run,
// generated inside PostgreSQL with generate_series. Ids are md5('<kind>-<n>')::uuid.
import type { Queryable } from '../server/src/db/database.js';

export interface DataSize {
  people: number;
  teams: number;
  agents: number;
  jobs: number;
}

export function dataSize(rows: number): DataSize {
  return {
    people: rows,
    teams: Math.max(10, Math.round(rows / 100)),
    agents: Math.max(10, Math.round(rows / 100)),
    jobs: rows,
  };
}

/** 2025-01-31 00:00 UTC: job_history.created_at counts back from here over 30 days. */
const EPOCH = `'2025-01-31 00:00:00+00'::timestamptz`;

export function dataStatements(size: DataSize): { label: string; sql: string }[] {
  const { people, teams, agents, jobs } = size;
  // 90% of the people are in one team, the first 10% in a second one: team_members ≈ people rows.
  const inOneTeam = Math.floor(people * 0.9);
  const inTwoTeams = people - inOneTeam;
  return [
    {
      label: `people (${people})`,
      sql: `INSERT INTO people (id, name, email, avatar, type, external_id, properties, last_login, created_at, updated_at)
        SELECT md5('person-' || i)::uuid,
               'Person ' || i,
               'person' || i || '@example.com',
               'https://avatars.example.com/' || i || '.png',
               (ARRAY['human', 'service', 'bot'])[1 + i % 3],
               'ext-' || i,
               jsonb_build_object(
                 'timezone', (ARRAY['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo'])[1 + i % 4],
                 'role', (ARRAY['viewer', 'editor', 'admin'])[1 + i % 3],
                 'level', i % 5,
                 'oncall', i % 7 = 0),
               ${EPOCH} - (i % 1000) * interval '1 hour',
               ${EPOCH} - interval '60 days' - i * interval '1 minute',
               ${EPOCH} - interval '60 days' - i * interval '1 minute'
          FROM generate_series(1, ${people}) AS i`,
    },
    {
      label: `teams (${teams})`,
      sql: `INSERT INTO teams (id, name, icon, spec, source, created_by, created_at, updated_at)
        SELECT md5('team-' || i)::uuid,
               'team-' || lpad(i::text, 5, '0'),
               (ARRAY['server', 'database', 'cloud', 'shield', 'bell'])[1 + i % 5],
               jsonb_build_object('components', jsonb_build_array('component-' || i)),
               'bench',
               md5('person-' || (1 + (i * 37) % ${people}))::uuid,
               ${EPOCH} - interval '90 days' + i * interval '1 minute',
               ${EPOCH} - interval '90 days' + i * interval '1 minute'
          FROM generate_series(1, ${teams}) AS i`,
    },
    {
      label: `team_members (${people})`,
      sql: `INSERT INTO team_members (team_id, person_id)
        SELECT md5('team-' || (1 + (i * 7) % ${teams}))::uuid, md5('person-' || i)::uuid
          FROM generate_series(1, ${inOneTeam}) AS i
        UNION ALL
        SELECT md5('team-' || (1 + (i * 7 + ${Math.floor(teams / 2)}) % ${teams}))::uuid, md5('person-' || i)::uuid
          FROM generate_series(1, ${inTwoTeams}) AS i`,
    },
    {
      label: `agents (${agents})`,
      sql: `INSERT INTO agents (id, name, hostname, description, ip, version, username, person_id, properties,
                                created_by, created_at, updated_at, last_seen, last_received)
        SELECT md5('agent-' || i)::uuid,
               'agent-' || lpad(i::text, 5, '0'),
               'host-' || i || '.example.internal',
               'Benchmark agent ' || i,
               '10.' || (i / 65536) % 256 || '.' || (i / 256) % 256 || '.' || i % 256,
               'v1.' || i % 10 || '.0',
               'agent' || i,
               md5('person-' || (1 + (i * 97) % ${people}))::uuid,
               jsonb_build_object('region', (ARRAY['eu-west-1', 'us-east-1', 'ap-south-1'])[1 + i % 3]),
               md5('person-' || i)::uuid,
               ${EPOCH} - interval '45 days' + i * interval '1 minute',
               ${EPOCH} - interval '45 days' + i * interval '1 minute',
               ${EPOCH} - (i % 60) * interval '1 minute',
               ${EPOCH} - (i % 60) * interval '1 minute'
          FROM generate_series(1, ${agents}) AS i`,
    },
    {
      // created_at: one row every 30 days / jobs, all distinct, so ORDER BY created_at is total.
      label: `job_history (${jobs})`,
      sql: `INSERT INTO job_history (id, name, success_count, error_count, details, hostname, duration_millis,
                                     resource_type, resource_id, status, agent_id, time_start, time_end, created_at)
        SELECT md5('job-' || i)::uuid,
               (ARRAY['SyncTopology', 'CheckHealth', 'PushCatalog', 'CleanupEvents', 'RefreshTokens',
                      'ScrapeConfigs', 'ReconcileAgents', 'SendNotifications', 'ArchiveLogs', 'RotateCerts'])[1 + i % 10],
               (i * 13) % 500,
               CASE WHEN i % 13 = 0 THEN 1 + i % 9 ELSE 0 END,
               jsonb_build_object('attempt', 1 + i % 3, 'shard', i % 16),
               'host-' || (1 + i % ${agents}) || '.example.internal',
               (i * 37) % 60000,
               (ARRAY['agent', 'connection', 'team', 'topology'])[1 + i % 4],
               'resource-' || (i % 5000),
               CASE WHEN i % 13 = 0 THEN 'failed' WHEN i % 13 = 1 THEN 'warning' WHEN i % 13 = 2 THEN 'running'
                    WHEN i % 13 = 3 THEN 'skipped' ELSE 'success' END,
               md5('agent-' || (1 + i % ${agents}))::uuid,
               ${EPOCH} - (i * 2592000.0 / ${jobs}) * interval '1 second' - ((i * 37) % 60000) * interval '1 millisecond',
               ${EPOCH} - (i * 2592000.0 / ${jobs}) * interval '1 second',
               ${EPOCH} - (i * 2592000.0 / ${jobs}) * interval '1 second'
          FROM generate_series(1, ${jobs}) AS i`,
    },
  ];
}

export async function generateData(db: Queryable, size: DataSize, log: (s: string) => void): Promise<void> {
  for (const { label, sql } of dataStatements(size)) {
    const t = performance.now();
    await db.query(sql);
    log(`  ${label.padEnd(22)} ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  // VACUUM too: autovacuum would set the visibility map within a minute or so of the bulk insert, and
  // index-only scans (the counts) depend on it; measured runs should not depend on when it ran.
  const t = performance.now();
  await db.query('VACUUM ANALYZE');
  log(`  ${'VACUUM ANALYZE'.padEnd(22)} ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

// ---------------------------------------------------------------------------------------------
// What the console's main screens read, for `npm run bench -- load`: canaries and checks with an
// hour of results at one a minute (the health page's summary), catalog items (the catalog list),
// components in trees under root cards (the topology page) and incidents (the incident list).
// Canaries are not due for a day: the engines of the servers under load stay idle.

export interface ConsoleDataSize {
  checks: number;
  configs: number;
  components: number;
  incidents: number;
}

export function consoleDataStatements(size: ConsoleDataSize): { label: string; sql: string }[] {
  const { checks, configs, components, incidents } = size;
  const canaries = Math.max(1, Math.ceil(checks / 50));
  const roots = Math.max(1, Math.round(components / 20));
  return [
    {
      label: `canaries (${canaries})`,
      sql: `INSERT INTO canaries (id, name, namespace, spec, schedule, source, next_runtime)
        SELECT md5('canary-' || i)::uuid, 'canary-' || lpad(i::text, 4, '0'), 'bench', '{}', '@every 1h', 'bench',
               now() + interval '1 day'
          FROM generate_series(1, ${canaries}) AS i`,
    },
    {
      label: `checks (${checks})`,
      sql: `INSERT INTO checks (id, canary_id, type, name, namespace, status, spec, next_runtime)
        SELECT md5('check-' || i)::uuid, md5('canary-' || (1 + (i - 1) / 50))::uuid, 'http',
               'check-' || lpad(i::text, 5, '0'), 'bench',
               CASE WHEN i % 25 = 0 THEN 'unhealthy' ELSE 'healthy' END,
               jsonb_build_object('url', 'http://127.0.0.1:9/' || i), now() + interval '1 day'
          FROM generate_series(1, ${checks}) AS i`,
    },
    {
      label: `check_statuses (${checks * 60}: 1 h at 1/min)`,
      sql: `INSERT INTO check_statuses (check_id, time, status, duration, message)
        SELECT md5('check-' || i)::uuid, date_trunc('minute', now()) - m * interval '1 minute' + (i % 60) * interval '1 second',
               i % 25 <> 0 OR m % 3 = 0, 5 + (i * 7 + m) % 90, '200 OK'
          FROM generate_series(1, ${checks}) AS i, generate_series(0, 59) AS m`,
    },
    {
      label: `config_items (${configs})`,
      sql: `INSERT INTO config_items (id, external_id, type, config_class, name, status, health, labels, tags, config,
                                      created_at, updated_at)
        SELECT md5('config-' || i)::uuid, 'ext-' || i,
               (ARRAY['Kubernetes::Pod', 'Kubernetes::Deployment', 'AWS::EC2::Instance', 'Kubernetes::Service'])[1 + i % 4],
               (ARRAY['Pod', 'Deployment', 'VirtualMachine', 'Service'])[1 + i % 4],
               'item-' || lpad(i::text, 6, '0'),
               (ARRAY['Running', 'Running', 'Pending', 'Stopped'])[1 + i % 4],
               (ARRAY['healthy', 'healthy', 'healthy', 'unhealthy', 'warning'])[1 + i % 5],
               jsonb_build_object('app', 'app-' || (i % 100), 'team', 'team-' || (i % 12)),
               jsonb_build_object('cluster', 'cluster-' || (i % 4), 'namespace', 'ns-' || (i % 40)),
               jsonb_build_object('spec', jsonb_build_object('replicas', i % 5, 'image', 'registry/app:' || (i % 50))),
               now() - interval '30 days', now() - (i % 1000) * interval '1 minute'
          FROM generate_series(1, ${configs}) AS i`,
    },
    {
      label: `components (${roots} root cards, ${components - roots} below them)`,
      sql: `INSERT INTO components (id, name, type, health, status, path, is_leaf)
        SELECT md5('component-' || i)::uuid, 'service-' || i, 'Service',
               (ARRAY['healthy', 'healthy', 'healthy', 'unhealthy', 'warning'])[1 + i % 5], 'Running', '', false
          FROM generate_series(1, ${roots}) AS i;
        INSERT INTO components (id, parent_id, name, type, health, status, path)
        SELECT md5('component-' || i)::uuid, md5('component-' || (1 + i % ${roots}))::uuid, 'instance-' || i, 'Instance',
               (ARRAY['healthy', 'healthy', 'healthy', 'unhealthy', 'warning'])[1 + i % 5], 'Running',
               md5('component-' || (1 + i % ${roots}))::uuid::text
          FROM generate_series(${roots + 1}, ${components}) AS i`,
    },
    {
      label: `incidents (${incidents})`,
      sql: `INSERT INTO incidents (title, description, type, severity, status, created_at, updated_at)
        SELECT 'Incident ' || i || ' on service-' || (i % 50), 'generated',
               (ARRAY['availability', 'performance', 'security', 'cost'])[1 + i % 4],
               (ARRAY['low', 'medium', 'high', 'critical'])[1 + (i / 4) % 4],
               (ARRAY['open', 'investigating', 'mitigated', 'resolved', 'closed'])[1 + (i / 3) % 5],
               now() - i * interval '10 minutes', now() - i * interval '10 minutes'
          FROM generate_series(1, ${incidents}) AS i`,
    },
  ];
}
