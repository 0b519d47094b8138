-- Deterministic seed for the PostgREST conformance test: fixed ids, fixed timestamps, so the
-- real PostgREST and Opsdeck's /api/db, each on its own copy, answer byte-for-byte alike.
-- Applied after the Opsdeck migrations. The last section adds test-only objects (a table
-- with array columns, a one-to-one table, functions) that only the test registry exposes.

-- People: 01..12. 07 is soft-deleted, 11 has commas/parentheses in its name, 12 is mostly null.
INSERT INTO people (id, name, email, avatar, type, external_id, properties, last_login, created_at, updated_at, deleted_at) VALUES
  ('11111111-0000-0000-0000-000000000001', 'Alice Anders',       'alice@example.com', 'https://img.example.com/alice.png', 'human', 'ext-001', '{"role": "admin",  "level": 3, "tz": "UTC",           "tags": ["ops", "oncall"], "address": {"city": "Berlin", "zip": "10115"}}', '2024-03-01T10:00:00+00', '2024-01-01T00:00:00+00', '2024-01-01T00:00:00+00', NULL),
  ('11111111-0000-0000-0000-000000000002', 'Bob Brown',          'bob@example.com',   NULL,                                'human', 'ext-002', '{"role": "editor", "level": 2, "tz": "Europe/Paris",  "tags": ["dev"],           "address": {"city": "Paris", "zip": "75001"}}',  '2024-03-02T11:30:00+00', '2024-01-02T00:00:00+00', '2024-01-02T00:00:00+00', NULL),
  ('11111111-0000-0000-0000-000000000003', 'Carol Chen',         'carol@example.com', 'https://img.example.com/carol.png', 'human', NULL,      '{"role": "viewer", "level": 1, "tz": "Asia/Tokyo",    "tags": ["data", "ops"],   "address": {"city": "Tokyo", "zip": "100-0001"}}', NULL,                  '2024-01-03T00:00:00+00', '2024-01-05T00:00:00+00', NULL),
  ('11111111-0000-0000-0000-000000000004', 'Dan Diaz',           'dan@example.com',   NULL,                                'human', 'ext-004', '{"role": "editor", "level": 2,                        "tags": []}',              '2024-02-20T08:15:00+00', '2024-01-04T00:00:00+00', '2024-01-04T00:00:00+00', NULL),
  ('11111111-0000-0000-0000-000000000005', 'Eve Evans',          NULL,                NULL,                                'human', NULL,      '{"role": "admin",  "level": 3, "tz": "UTC",           "tags": ["security"]}',    NULL,                  '2024-01-05T00:00:00+00', '2024-01-05T00:00:00+00', NULL),
  ('11111111-0000-0000-0000-000000000006', 'Frank Fischer',      'frank@example.com', NULL,                                'human', 'ext-006', '{"role": "viewer", "level": 1,                        "tags": ["security", "ops"]}', '2024-02-01T09:00:00+00', '2024-01-06T00:00:00+00', '2024-01-06T00:00:00+00', NULL),
  ('11111111-0000-0000-0000-000000000007', 'Grace Green',        'grace@example.com', NULL,                                'human', NULL,      '{"role": "editor", "level": 2, "tz": "UTC"}',                                 NULL,                  '2024-01-07T00:00:00+00', '2024-02-07T00:00:00+00', '2024-02-07T00:00:00+00'),
  ('11111111-0000-0000-0000-000000000008', 'Heidi Hall',         'heidi@example.com', 'https://img.example.com/heidi.png', 'human', 'ext-008', '{"role": "viewer", "level": 1, "tz": "America/Denver", "tags": ["data"]}',        '2024-03-03T12:00:00+00', '2024-01-08T00:00:00+00', '2024-01-08T00:00:00+00', NULL),
  ('11111111-0000-0000-0000-000000000009', 'Ivan Ivanov',        'ivan@example.com',  NULL,                                'human', NULL,      '{"role": "viewer", "level": 1,                        "tags": ["data", "dev"]}', NULL,                  '2024-01-09T00:00:00+00', '2024-01-09T00:00:00+00', NULL),
  ('11111111-0000-0000-0000-000000000010', 'Judy Jones',         'judy@example.com',  NULL,                                'agent', 'ext-010', '{"role": "agent",  "level": 0}',                                               '2024-03-04T06:45:00+00', '2024-01-10T00:00:00+00', '2024-01-10T00:00:00+00', NULL),
  ('11111111-0000-0000-0000-000000000011', 'Mallory (Ops), Jr.', 'mallory@example.com', NULL,                              'human', NULL,      '{"role": "editor", "level": 2, "tz": "UTC",           "tags": ["ops"]}',         NULL,                  '2024-01-11T00:00:00+00', '2024-01-11T00:00:00+00', NULL),
  ('11111111-0000-0000-0000-000000000012', 'Niaj Null',          NULL,                NULL,                                NULL,    NULL,      NULL,                                                                           NULL,                  '2024-01-12T00:00:00+00', '2024-01-12T00:00:00+00', NULL);

INSERT INTO teams (id, name, icon, spec, source, created_by, created_at, updated_at, deleted_at) VALUES
  ('22222222-0000-0000-0000-000000000001', 'Platform', 'server', '{"slack": "#platform", "oncall": {"primary": "alice", "secondary": "bob"}, "size": 4}', 'ui',   '11111111-0000-0000-0000-000000000001', '2024-01-15T00:00:00+00', '2024-01-15T00:00:00+00', NULL),
  ('22222222-0000-0000-0000-000000000002', 'Security', 'shield', '{"slack": "#security", "oncall": {"primary": "eve"}, "size": 3}',                      'ui',   '11111111-0000-0000-0000-000000000005', '2024-01-16T00:00:00+00', '2024-01-16T00:00:00+00', NULL),
  ('22222222-0000-0000-0000-000000000003', 'Data',     'database', '{"slack": "#data", "size": 4}',                                                       'yaml', '11111111-0000-0000-0000-000000000003', '2024-01-17T00:00:00+00', '2024-01-17T00:00:00+00', NULL),
  ('22222222-0000-0000-0000-000000000004', 'Support',  NULL,     NULL,                                                                                   NULL,   NULL,                                   '2024-01-18T00:00:00+00', '2024-01-18T00:00:00+00', NULL);

INSERT INTO team_members (team_id, person_id) VALUES
  ('22222222-0000-0000-0000-000000000001', '11111111-0000-0000-0000-000000000001'),
  ('22222222-0000-0000-0000-000000000001', '11111111-0000-0000-0000-000000000002'),
  ('22222222-0000-0000-0000-000000000001', '11111111-0000-0000-0000-000000000003'),
  ('22222222-0000-0000-0000-000000000001', '11111111-0000-0000-0000-000000000004'),
  ('22222222-0000-0000-0000-000000000002', '11111111-0000-0000-0000-000000000001'),
  ('22222222-0000-0000-0000-000000000002', '11111111-0000-0000-0000-000000000005'),
  ('22222222-0000-0000-0000-000000000002', '11111111-0000-0000-0000-000000000006'),
  ('22222222-0000-0000-0000-000000000003', '11111111-0000-0000-0000-000000000003'),
  ('22222222-0000-0000-0000-000000000003', '11111111-0000-0000-0000-000000000007'),
  ('22222222-0000-0000-0000-000000000003', '11111111-0000-0000-0000-000000000008'),
  ('22222222-0000-0000-0000-000000000003', '11111111-0000-0000-0000-000000000009'),
  ('22222222-0000-0000-0000-000000000004', '11111111-0000-0000-0000-000000000010'),
  ('22222222-0000-0000-0000-000000000004', '11111111-0000-0000-0000-000000000011');

INSERT INTO properties (name, value, created_by, created_at, updated_at) VALUES
  ('feature.dark_mode',   'true',             '11111111-0000-0000-0000-000000000001', '2024-01-20T00:00:00+00', '2024-01-20T00:00:00+00'),
  ('jobs.concurrency',    '4',                NULL,                                   '2024-01-21T00:00:00+00', '2024-01-21T00:00:00+00'),
  ('retention.days',      '30',               '11111111-0000-0000-0000-000000000002', '2024-01-22T00:00:00+00', '2024-01-22T00:00:00+00'),
  ('smtp.host',           'mail.example.com', NULL,                                   '2024-01-23T00:00:00+00', '2024-01-23T00:00:00+00'),
  ('ui.theme',            'light',            '11111111-0000-0000-0000-000000000001', '2024-01-24T00:00:00+00', '2024-01-24T00:00:00+00'),
  ('notifications.email', 'false',            '11111111-0000-0000-0000-000000000005', '2024-01-25T00:00:00+00', '2024-01-25T00:00:00+00');

-- Agents: person_id and created_by are two foreign keys to people (an ambiguous embed).
INSERT INTO agents (id, name, hostname, description, ip, version, username, person_id, properties, tls, cleanup, created_by, created_at, updated_at, deleted_at, last_seen, last_received) VALUES
  ('33333333-0000-0000-0000-000000000001', 'agent-east',  'east.internal',  'Primary east agent', '10.0.0.1', '1.2.0', 'svc-east',  '11111111-0000-0000-0000-000000000010', '{"region": "us-east", "labels": {"env": "prod", "tier": "gold"}, "cpus": 8}',    NULL, false, '11111111-0000-0000-0000-000000000001', '2024-01-10T00:00:00+00', '2024-01-10T00:00:00+00', NULL, '2024-03-05T00:00:00+00', '2024-03-05T00:00:00+00'),
  ('33333333-0000-0000-0000-000000000002', 'agent-west',  'west.internal',  'Primary west agent', '10.0.0.2', '1.2.0', 'svc-west',  '11111111-0000-0000-0000-000000000010', '{"region": "us-west", "labels": {"env": "prod", "tier": "silver"}, "cpus": 4}',  NULL, false, '11111111-0000-0000-0000-000000000001', '2024-01-11T00:00:00+00', '2024-01-11T00:00:00+00', NULL, '2024-03-04T00:00:00+00', NULL),
  ('33333333-0000-0000-0000-000000000003', 'agent-north', 'north.internal', NULL,                 '10.0.0.3', '1.1.5', NULL,        NULL,                                   '{"region": "eu-north", "labels": {"env": "staging"}, "cpus": 2}',                  NULL, true,  '11111111-0000-0000-0000-000000000002', '2024-01-12T00:00:00+00', '2024-01-12T00:00:00+00', NULL, NULL,                     NULL),
  ('33333333-0000-0000-0000-000000000004', 'agent-south', 'south.internal', 'Backup',             NULL,       '1.0.0', 'svc-south', '11111111-0000-0000-0000-000000000004', '{"region": "sa-east", "labels": {"env": "dev"}}',                                 'mtls', false, '11111111-0000-0000-0000-000000000002', '2024-01-13T00:00:00+00', '2024-01-13T00:00:00+00', NULL, '2024-02-28T00:00:00+00', '2024-02-28T00:00:00+00'),
  ('33333333-0000-0000-0000-000000000005', 'agent-lab',   NULL,             'Lab (temporary)',    '10.0.9.9', '2.0.0-rc1', NULL,    NULL,                                   NULL,                                                                                  NULL, true,  NULL,                                   '2024-01-14T00:00:00+00', '2024-01-14T00:00:00+00', NULL, NULL,                     NULL),
  ('33333333-0000-0000-0000-000000000006', 'agent-edge',  'edge.internal',  'Edge, DMZ',          '10.1.0.1', '1.2.0', 'svc-edge',  '11111111-0000-0000-0000-000000000001', '{"region": "us-east", "labels": {"env": "prod", "tier": "bronze"}, "cpus": 1}', 'mtls', false, '11111111-0000-0000-0000-000000000005', '2024-01-15T00:00:00+00', '2024-01-15T00:00:00+00', NULL, '2024-03-06T00:00:00+00', '2024-03-06T00:00:00+00');

INSERT INTO access_tokens (id, name, value, person_id, created_by, created_at, expires_at, last_used_at) VALUES
  ('55555555-0000-0000-0000-000000000001', 'ci-token',      'secret-token-1', '11111111-0000-0000-0000-000000000001', '11111111-0000-0000-0000-000000000001', '2024-01-20T00:00:00+00', '2025-01-20T00:00:00+00', '2024-03-01T00:00:00+00'),
  ('55555555-0000-0000-0000-000000000002', 'agent-east',    'secret-token-2', '11111111-0000-0000-0000-000000000010', '11111111-0000-0000-0000-000000000001', '2024-01-21T00:00:00+00', NULL,                     NULL),
  ('55555555-0000-0000-0000-000000000003', 'laptop',        'secret-token-3', '11111111-0000-0000-0000-000000000002', '11111111-0000-0000-0000-000000000002', '2024-01-22T00:00:00+00', '2024-06-01T00:00:00+00', '2024-02-15T00:00:00+00'),
  ('55555555-0000-0000-0000-000000000004', 'old-token',     'secret-token-4', '11111111-0000-0000-0000-000000000005', NULL,                                   '2023-12-01T00:00:00+00', '2024-01-01T00:00:00+00', NULL);

-- Job history: 40 generated rows, every column a pure function of g so both copies agree.
INSERT INTO job_history (id, name, success_count, error_count, details, hostname, duration_millis, resource_type, resource_id, status, agent_id, time_start, time_end, created_at)
SELECT
  format('44444444-0000-0000-0000-%s', lpad(g::text, 12, '0'))::uuid,
  (ARRAY['HealthCheckRun', 'ScraperRun', 'CleanupJob', 'NotificationSend', 'TopologyBuild'])[1 + g % 5],
  (g * 7) % 11,
  CASE WHEN g % 4 = 1 THEN g % 3 + 1 ELSE 0 END,
  CASE WHEN g % 7 = 0 THEN NULL
       ELSE jsonb_build_object(
         'attempt', g % 4,
         'tags', (ARRAY['["a", "b"]', '["b", "c"]', '["c", "d"]'])[1 + g % 3]::jsonb,
         'source', jsonb_build_object('kind', (ARRAY['cron', 'manual', 'webhook'])[1 + g % 3], 'retry', g % 2 = 0))
  END,
  CASE WHEN g % 5 = 4 THEN NULL ELSE format('worker-%s', g % 3) END,
  CASE WHEN g % 6 = 5 THEN NULL ELSE (g * 137) % 5000 END,
  (ARRAY['canary', 'scraper', NULL, 'topology'])[1 + g % 4],
  CASE WHEN g % 4 = 2 THEN NULL ELSE format('res-%s', g % 8) END,
  (ARRAY['SUCCESS', 'FAILED', 'WARNING', 'RUNNING', NULL, 'SUCCESS', 'SUCCESS'])[1 + g % 7],
  CASE WHEN g % 3 = 0 THEN NULL ELSE format('33333333-0000-0000-0000-%s', lpad((1 + g % 6)::text, 12, '0'))::uuid END,
  '2024-02-01T00:00:00+00'::timestamptz + g * interval '1 hour',
  CASE WHEN g % 7 = 3 THEN NULL ELSE '2024-02-01T00:00:00+00'::timestamptz + g * interval '1 hour' + (g % 9) * interval '1 minute' END,
  '2024-02-01T00:00:00+00'::timestamptz + g * interval '1 hour'
FROM generate_series(1, 40) AS g
ORDER BY g;

INSERT INTO event_queue (id, name, properties, error, attempts, priority, last_attempt, created_at) VALUES
  ('66666666-0000-0000-0000-000000000001', 'check.failed',      '{"check_id": "c-1", "status": "unhealthy", "tags": ["prod", "db"], "severity": 3}',      NULL,               0, 10, NULL,                     '2024-03-01T00:00:00+00'),
  ('66666666-0000-0000-0000-000000000002', 'check.passed',      '{"check_id": "c-1", "status": "healthy", "tags": ["prod", "db"], "severity": 0}',        NULL,               0, 0,  NULL,                     '2024-03-01T00:05:00+00'),
  ('66666666-0000-0000-0000-000000000003', 'check.failed',      '{"check_id": "c-2", "status": "unhealthy", "tags": ["staging"], "severity": 2}',         'smtp timeout',     2, 10, '2024-03-01T00:20:00+00', '2024-03-01T00:10:00+00'),
  ('66666666-0000-0000-0000-000000000004', 'incident.created',  '{"incident_id": "i-1", "severity": 4, "tags": ["prod"], "owner": {"team": "Platform"}}', NULL,               1, 20, '2024-03-01T00:30:00+00', '2024-03-01T00:15:00+00'),
  ('66666666-0000-0000-0000-000000000005', 'component.status',  '{"component_id": "comp-1", "status": "warning", "tags": []}',                            'webhook 500',      5, 5,  '2024-03-01T01:00:00+00', '2024-03-01T00:20:00+00'),
  ('66666666-0000-0000-0000-000000000006', 'check.failed',      '{"check_id": "c-3", "status": "unhealthy", "tags": ["prod", "web"], "severity": 3}',     NULL,               0, 10, NULL,                     '2024-03-01T00:25:00+00'),
  ('66666666-0000-0000-0000-000000000007', 'playbook.approved', '{"run_id": "r-1", "tags": ["ops"], "owner": {"team": "Security"}}',                        NULL,               0, 1,  NULL,                     '2024-03-01T00:30:00+00'),
  ('66666666-0000-0000-0000-000000000008', 'team.update',       NULL,                                                                                     NULL,               0, 0,  NULL,                     '2024-03-01T00:35:00+00');

INSERT INTO connections (id, name, namespace, type, url, username, password, certificate, insecure_tls, properties, source, created_by, created_at, updated_at, deleted_at) VALUES
  ('77777777-0000-0000-0000-000000000001', 'main-db',     'default', 'postgres', 'postgres://db.internal:5432/app', 'app',   'pw-1', NULL,      false, '{"sslmode": "require"}',           'ui',   '11111111-0000-0000-0000-000000000001', '2024-01-30T00:00:00+00', '2024-01-30T00:00:00+00', NULL),
  ('77777777-0000-0000-0000-000000000002', 'status-page', 'default', 'http',     'https://status.example.com',      NULL,    NULL,   NULL,      true,  NULL,                               'yaml', NULL,                                   '2024-01-31T00:00:00+00', '2024-01-31T00:00:00+00', NULL),
  ('77777777-0000-0000-0000-000000000003', 'ops-slack',   'ops',     'slack',    NULL,                              NULL,    'xoxb', NULL,      false, '{"channel": "#alerts"}',           'ui',   '11111111-0000-0000-0000-000000000002', '2024-02-01T00:00:00+00', '2024-02-01T00:00:00+00', NULL),
  ('77777777-0000-0000-0000-000000000004', 'aws-prod',    'ops',     'aws',      NULL,                              'AKIA1', 'sk-1', 'cert-1',  false, '{"region": "eu-west-1"}',          'ui',   '11111111-0000-0000-0000-000000000001', '2024-02-02T00:00:00+00', '2024-02-02T00:00:00+00', NULL);

-- ---------------------------------------------------------------------------------------
-- Test-only objects (exposed only by the test's registry).

-- Array and nested-jsonb columns for cs/cd/ov and JSON paths; a constant default timestamp
-- keeps inserted rows deterministic.
CREATE TABLE test_items (
  id         integer PRIMARY KEY,
  title      text NOT NULL,
  tags       text[],
  labels     jsonb,
  score      numeric,
  person_id  uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT '2024-06-01T00:00:00+00'
);

INSERT INTO test_items (id, title, tags, labels, score, person_id) VALUES
  (1,  'alpha',   '{red,green}',        '{"a": {"b": "x1", "n": 1}, "env": "prod"}',     1.5,  '11111111-0000-0000-0000-000000000001'),
  (2,  'beta',    '{green,blue}',       '{"a": {"b": "x2", "n": 2}, "env": "staging"}',  2.25, '11111111-0000-0000-0000-000000000001'),
  (3,  'gamma',   '{blue}',             '{"a": {"b": "x3", "n": 3}, "env": "prod"}',     3,    '11111111-0000-0000-0000-000000000002'),
  (4,  'delta',   '{}',                 '{"env": "dev"}',                                NULL, '11111111-0000-0000-0000-000000000003'),
  (5,  'epsilon', NULL,                 NULL,                                            0,    NULL),
  (6,  'zeta',    '{red,blue,yellow}',  '{"a": {"b": "x1", "n": 6}, "env": "prod", "k": [1, 2]}', 6.75, '11111111-0000-0000-0000-000000000004'),
  (7,  'eta',     '{"with space","a,b"}', '{"a": {"b": "x7"}}',                          -1,   '11111111-0000-0000-0000-000000000005'),
  (8,  'theta',   '{red}',              '{"env": "prod", "a": {"n": 8}}',                8,    '11111111-0000-0000-0000-000000000002'),
  (9,  'iota',    '{green}',            '{"env": "staging"}',                            9.5,  NULL),
  (10, 'kappa',   '{yellow,red}',       '{"a": {"b": "x10", "n": 10}}',                  10,   '11111111-0000-0000-0000-000000000006');

-- One-to-one with people (the foreign key is also the primary key).
CREATE TABLE person_profiles (
  person_id uuid PRIMARY KEY REFERENCES people (id),
  bio       text,
  website   text
);

INSERT INTO person_profiles (person_id, bio, website) VALUES
  ('11111111-0000-0000-0000-000000000001', 'Runs the platform team.', 'https://alice.example.com'),
  ('11111111-0000-0000-0000-000000000002', 'Builds things.',          NULL),
  ('11111111-0000-0000-0000-000000000005', 'Keeps us safe.',          'https://eve.example.com');

CREATE FUNCTION people_named(pattern text) RETURNS SETOF people
  LANGUAGE sql STABLE AS $$ SELECT * FROM people WHERE name ILIKE pattern ORDER BY name $$;

CREATE FUNCTION add_numbers(a integer, b integer) RETURNS integer
  LANGUAGE sql IMMUTABLE AS $$ SELECT a + b $$;

CREATE FUNCTION greet(name text, greeting text DEFAULT 'Hello') RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT greeting || ', ' || name || '!' $$;

CREATE FUNCTION team_sizes() RETURNS TABLE (team text, members bigint)
  LANGUAGE sql STABLE AS $$
    SELECT t.name, count(m.person_id) FROM teams t LEFT JOIN team_members m ON m.team_id = t.id GROUP BY t.name
  $$;
