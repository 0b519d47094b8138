-- The views the /notifications screens read (spec/3 §2-§3; docs/api.md "Notifications"): rules with
-- their send counts, send history with the names of what it is about, silences with the names of
-- what they silence and whether they have expired. Read-only through /api/db (resource notifications).

-- Counts per rule and status come from this index alone (an index-only scan per rule).
CREATE INDEX notification_send_history_rule_status_idx
  ON notification_send_history (notification_id, status) INCLUDE (duration_millis);
-- The history tab filters by status and resource type, newest first.
CREATE INDEX notification_send_history_status_idx ON notification_send_history (status, created_at DESC);
CREATE INDEX notification_send_history_type_idx ON notification_send_history (resource_type, created_at DESC);
CREATE INDEX notification_silences_check_idx ON notification_silences (check_id) WHERE check_id IS NOT NULL;
CREATE INDEX notification_silences_component_idx ON notification_silences (component_id) WHERE component_id IS NOT NULL;
CREATE INDEX notification_silences_config_idx ON notification_silences (config_id) WHERE config_id IS NOT NULL;
CREATE INDEX notification_silences_canary_idx ON notification_silences (canary_id) WHERE canary_id IS NOT NULL;

-- Live rules (spec/3 §2 rule fields). Durations stay nanoseconds; person and team embedded.
CREATE VIEW notifications_summary AS
  SELECT n.id, n.name, n.namespace, n.events, n.title, n.filter, n.template, n.properties,
         n.repeat_interval, n.wait_for, n.wait_for_eval_period, n.group_by, n.group_by_interval,
         n.inhibitions, n.fallback, n.labels,
         n.person_id, n.team_id, n.custom_services, n.playbook_id,
         CASE WHEN p.id IS NULL THEN NULL
              ELSE json_build_object('id', p.id, 'name', p.name, 'email', p.email) END AS person,
         CASE WHEN t.id IS NULL THEN NULL ELSE json_build_object('id', t.id, 'name', t.name) END AS team,
         n.source, n.error, n.error_at,
         coalesce(s.pending, 0) AS pending,
         coalesce(s.failed, 0) AS failed,
         coalesce(s.sent, 0) AS sent,
         s.avg_duration_ms,
         (SELECT h.error FROM notification_send_history h
           WHERE h.notification_id = n.id AND h.status = 'error' AND h.error IS NOT NULL
           GROUP BY h.error ORDER BY count(*) DESC, max(h.created_at) DESC LIMIT 1) AS most_common_error,
         n.created_by, n.created_at, n.updated_at
  FROM notifications n
  LEFT JOIN people p ON p.id = n.person_id
  LEFT JOIN teams t ON t.id = n.team_id
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE h.status = 'pending') AS pending,
           count(*) FILTER (WHERE h.status = 'error') AS failed,
           count(*) FILTER (WHERE h.status = 'sent') AS sent,
           round(avg(h.duration_millis) FILTER (WHERE h.status = 'sent'))::integer AS avg_duration_ms
    FROM notification_send_history h WHERE h.notification_id = n.id
  ) s ON true
  WHERE n.deleted_at IS NULL;

-- Send history with the resource's name and kind, the rule's name and the person's name.
-- resource_type is one of canary, check, component, config (or incident, playbook).
CREATE VIEW notification_send_history_summary AS
  SELECT h.id, h.notification_id, h.status, h.source_event, h.resource_id, h.resource_type,
         h.resource_health, h.resource_status,
         jsonb_build_object('id', h.resource_id, 'name', r.name, 'type', r.type) || coalesce(h.resource, '{}'::jsonb)
           AS resource,
         r.name AS resource_name,
         h.person_id, h.team_id, h.connection_id, h.recipient, h.title, h.body, h.error, h.duration_millis,
         h.count, h.first_observed, h.attempts, h.not_before, h.silenced_by, h.inhibited_by, h.group_id,
         h.parent_id, h.reason, h.created_at, h.updated_at,
         n.name AS notification_name,
         CASE WHEN n.id IS NULL THEN NULL
              ELSE json_build_object('id', n.id, 'name', n.name, 'namespace', n.namespace) END AS notification,
         p.name AS person_name,
         CASE WHEN p.id IS NULL THEN NULL
              ELSE json_build_object('id', p.id, 'name', p.name, 'email', p.email) END AS person
  FROM notification_send_history h
  LEFT JOIN notifications n ON n.id = h.notification_id
  LEFT JOIN people p ON p.id = h.person_id
  LEFT JOIN LATERAL (
    SELECT c.name, c.type FROM checks c WHERE h.resource_type = 'check' AND c.id = h.resource_id
    UNION ALL
    SELECT ca.name, 'canary' FROM canaries ca WHERE h.resource_type = 'canary' AND ca.id = h.resource_id
    UNION ALL
    SELECT co.name, co.type FROM components co WHERE h.resource_type = 'component' AND co.id = h.resource_id
    UNION ALL
    SELECT ci.name, ci.type FROM config_items ci WHERE h.resource_type = 'config' AND ci.id = h.resource_id
    LIMIT 1
  ) r ON true;

-- Live silences with the names of what they silence; expired once until has passed.
CREATE VIEW notification_silences_summary AS
  SELECT s.id, s.name, s.namespace, s.description, s.filter, s.selectors, s."from", s.until, s.recursive,
         s.config_id, s.check_id, s.canary_id, s.component_id, s.source, s.error,
         s.created_by, s.created_at, s.updated_at,
         ch.name AS check_name, ch.type AS check_type,
         coalesce(ca.name, cca.name) AS canary_name,
         co.name AS component_name, co.icon AS component_icon,
         ci.name AS config_name, ci.type AS config_type,
         p.name AS created_by_name,
         (s.until < now()) AS expired
  FROM notification_silences s
  LEFT JOIN checks ch ON ch.id = s.check_id
  LEFT JOIN canaries cca ON cca.id = ch.canary_id
  LEFT JOIN canaries ca ON ca.id = s.canary_id
  LEFT JOIN components co ON co.id = s.component_id
  LEFT JOIN config_items ci ON ci.id = s.config_id
  LEFT JOIN people p ON p.id = s.created_by
  WHERE s.deleted_at IS NULL;
