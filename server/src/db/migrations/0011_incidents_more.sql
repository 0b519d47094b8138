-- Incidents, server-side rules that hold however a row is written (/api/db, /api/incidents,
-- the rule engine): allowed status moves, the changelog (incident_histories), timestamps, the
-- events of FORMATS.md (incident.created, incident.status.<status>), and the views the console
-- reads (incident_summary, incidents_by_component, incidents_by_config).
--
-- The actor: /api/db and /api/incidents writes run in a transaction that sets the
-- transaction-local setting request.person_id to the caller's person id. When it is set,
-- created_by of a new row is the caller (a created_by in the body is replaced, so it cannot be
-- forged); when it is not (engines, migrations), the row's own created_by stays.

-- The caller of this transaction, or null.
CREATE FUNCTION incident_actor() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT NULLIF(current_setting('request.person_id', true), '')::uuid
$$;

-- Allowed moves (spec/2 §4); staying in the same status is always allowed.
CREATE FUNCTION incident_status_allowed(from_status text, to_status text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT from_status = to_status OR CASE from_status
    WHEN 'new' THEN true
    WHEN 'open' THEN to_status IN ('investigating', 'mitigated', 'resolved', 'closed')
    WHEN 'investigating' THEN to_status IN ('mitigated', 'resolved', 'closed')
    WHEN 'mitigated' THEN to_status IN ('resolved', 'closed', 'open')
    WHEN 'resolved' THEN to_status IN ('closed', 'open')
    WHEN 'closed' THEN to_status = 'open'
    ELSE false
  END
$$;

CREATE FUNCTION incident_status_moves(from_status text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE from_status
    WHEN 'new' THEN 'open, investigating, mitigated, resolved or closed'
    WHEN 'open' THEN 'investigating, mitigated, resolved or closed'
    WHEN 'investigating' THEN 'mitigated, resolved or closed'
    WHEN 'mitigated' THEN 'resolved, closed or open'
    WHEN 'resolved' THEN 'closed or open'
    WHEN 'closed' THEN 'open'
  END
$$;

-- Writes one changelog row.
CREATE FUNCTION incident_history_add(
  p_incident uuid, p_type text, p_description text, p_created_by uuid,
  p_responder uuid DEFAULT NULL, p_evidence uuid DEFAULT NULL, p_hypothesis uuid DEFAULT NULL, p_comment uuid DEFAULT NULL
) RETURNS void LANGUAGE sql AS $$
  -- Entries of one incident get strictly increasing times, so they keep their order (now() is the
  -- same for a whole transaction, and two entries may fall in the same microsecond).
  INSERT INTO incident_histories (incident_id, type, description, created_by, responder_id, evidence_id, hypothesis_id, comment_id, created_at)
  VALUES (p_incident, p_type, p_description, coalesce(incident_actor(), p_created_by), p_responder, p_evidence, p_hypothesis, p_comment,
    greatest(clock_timestamp(), (SELECT max(created_at) + interval '1 microsecond' FROM incident_histories WHERE incident_id = p_incident)))
$$;

-- created_by is the caller when one is known; updated_at moves on every update. Columns only the
-- server writes (a responder's delivery outcome, a script's result) are kept from callers: a
-- caller's write leaves them as they were (a changed script clears its result).
CREATE FUNCTION incident_rows_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_actor uuid := incident_actor();
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.created_by := coalesce(v_actor, NEW.created_by);
    IF v_actor IS NOT NULL AND TG_TABLE_NAME = 'responders' THEN
      NEW.delivery_status := NULL;
      NEW.delivery_error := NULL;
    ELSIF v_actor IS NOT NULL AND TG_TABLE_NAME = 'evidences' THEN
      NEW.script_result := NULL;
    END IF;
  ELSE
    NEW.created_by := OLD.created_by;
    NEW.updated_at := now();
    IF v_actor IS NOT NULL AND TG_TABLE_NAME = 'responders' THEN
      NEW.delivery_status := OLD.delivery_status;
      NEW.delivery_error := OLD.delivery_error;
    ELSIF v_actor IS NOT NULL AND TG_TABLE_NAME = 'evidences' THEN
      NEW.script_result := CASE WHEN NEW.script IS DISTINCT FROM OLD.script THEN NULL ELSE OLD.script_result END;
    END IF;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER hypotheses_stamp BEFORE INSERT OR UPDATE ON hypotheses FOR EACH ROW EXECUTE FUNCTION incident_rows_stamp();
CREATE TRIGGER evidences_stamp BEFORE INSERT OR UPDATE ON evidences FOR EACH ROW EXECUTE FUNCTION incident_rows_stamp();
CREATE TRIGGER responders_stamp BEFORE INSERT OR UPDATE ON responders FOR EACH ROW EXECUTE FUNCTION incident_rows_stamp();
CREATE TRIGGER comments_stamp BEFORE INSERT OR UPDATE ON comments FOR EACH ROW EXECUTE FUNCTION incident_rows_stamp();

-- The components the incident's evidence points at, kept by the triggers below, for the list's
-- component filter (`component_ids=cs.{id}`, GIN-indexed) — an embed filter through hypotheses and
-- evidences would aggregate every incident to count them.
ALTER TABLE incidents ADD COLUMN component_ids uuid[] NOT NULL DEFAULT '{}';
CREATE INDEX incidents_component_ids_idx ON incidents USING gin (component_ids);

-- Incidents: refuse disallowed status moves; keep acknowledged / resolved / closed.
CREATE FUNCTION incidents_before_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- component_ids is the server's: a statement of a caller (trigger depth 1) cannot set it.
  IF pg_trigger_depth() = 1 THEN
    NEW.component_ids := CASE WHEN TG_OP = 'INSERT' THEN '{}' ELSE OLD.component_ids END;
  END IF;
  IF TG_OP = 'INSERT' THEN
    NEW.created_by := coalesce(incident_actor(), NEW.created_by);
    IF NEW.status = 'resolved' THEN NEW.resolved := coalesce(NEW.resolved, now()); END IF;
    IF NEW.status = 'closed' THEN NEW.closed := coalesce(NEW.closed, now()); END IF;
    RETURN NEW;
  END IF;
  NEW.created_by := OLD.created_by;
  NEW.updated_at := now();
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    IF NOT incident_status_allowed(OLD.status, NEW.status) THEN
      RAISE EXCEPTION 'Incident status cannot move from % to %', OLD.status, NEW.status
        USING HINT = format('From %s an incident may move to %s.', OLD.status, incident_status_moves(OLD.status));
    END IF;
    IF NEW.status IN ('investigating', 'mitigated', 'resolved', 'closed') THEN
      NEW.acknowledged := coalesce(NEW.acknowledged, now());
    END IF;
    IF NEW.status = 'resolved' THEN NEW.resolved := now(); END IF;
    IF NEW.status = 'closed' THEN NEW.closed := now(); END IF;
    IF NEW.status = 'open' THEN
      NEW.resolved := NULL;
      NEW.closed := NULL;
    END IF;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER incidents_before_write BEFORE INSERT OR UPDATE ON incidents
  FOR EACH ROW EXECUTE FUNCTION incidents_before_write();

-- Incidents: the changelog and the events.
CREATE FUNCTION incidents_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM incident_history_add(NEW.id, 'incident.created', format('Created incident %s: %s', NEW.incident_id, NEW.title), NEW.created_by);
    INSERT INTO event_queue (name, properties) VALUES ('incident.created', jsonb_build_object(
      'id', NEW.id, 'incident_id', NEW.incident_id, 'title', NEW.title, 'type', NEW.type,
      'severity', NEW.severity, 'status', NEW.status, 'created_by', NEW.created_by));
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    PERFORM incident_history_add(NEW.id, 'incident.status_updated', format('Status changed from %s to %s', OLD.status, NEW.status), NULL);
    INSERT INTO event_queue (name, properties) VALUES ('incident.status.' || NEW.status, jsonb_build_object(
      'id', NEW.id, 'incident_id', NEW.incident_id, 'title', NEW.title, 'type', NEW.type,
      'severity', NEW.severity, 'status', NEW.status, 'previous', OLD.status));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER incidents_after_write AFTER INSERT OR UPDATE ON incidents
  FOR EACH ROW EXECUTE FUNCTION incidents_after_write();

-- Hypotheses: a parent belongs to the same incident; created and status changes are logged.
CREATE FUNCTION hypotheses_check_parent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.parent_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM hypotheses p WHERE p.id = NEW.parent_id AND p.incident_id = NEW.incident_id
  ) THEN
    RAISE EXCEPTION 'The parent hypothesis % does not belong to this incident', NEW.parent_id;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER hypotheses_check_parent BEFORE INSERT OR UPDATE OF parent_id, incident_id ON hypotheses
  FOR EACH ROW EXECUTE FUNCTION hypotheses_check_parent();

CREATE FUNCTION hypotheses_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM incident_history_add(NEW.incident_id, 'hypothesis.created', format('Added %s hypothesis: %s', NEW.type, coalesce(NEW.title, '')), NEW.created_by, p_hypothesis => NEW.id);
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    PERFORM incident_history_add(NEW.incident_id, 'hypothesis.status_updated', format('Hypothesis status changed from %s to %s', coalesce(OLD.status, 'Likely'), coalesce(NEW.status, 'Likely')), NULL, p_hypothesis => NEW.id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER hypotheses_after_write AFTER INSERT OR UPDATE ON hypotheses
  FOR EACH ROW EXECUTE FUNCTION hypotheses_after_write();

-- Evidences: created, added to the definition of done, done.
CREATE FUNCTION evidences_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_incident uuid;
BEGIN
  SELECT incident_id INTO v_incident FROM hypotheses WHERE id = NEW.hypothesis_id;
  IF TG_OP = 'INSERT' THEN
    PERFORM incident_history_add(v_incident, 'evidence.created', format('Added %s evidence: %s', NEW.type, coalesce(NEW.description, '')), NEW.created_by, p_evidence => NEW.id, p_hypothesis => NEW.hypothesis_id);
  END IF;
  IF NEW.definition_of_done AND (TG_OP = 'INSERT' OR NOT OLD.definition_of_done) THEN
    PERFORM incident_history_add(v_incident, 'evidence.done_definition_added', format('Added %s evidence to the definition of done', NEW.type), NEW.created_by, p_evidence => NEW.id, p_hypothesis => NEW.hypothesis_id);
  END IF;
  IF TG_OP = 'UPDATE' AND coalesce(NEW.done, false) AND NOT coalesce(OLD.done, false) THEN
    PERFORM incident_history_add(v_incident, 'evidence.done', format('Definition of done met: %s', coalesce(NEW.description, NEW.type)), NULL, p_evidence => NEW.id, p_hypothesis => NEW.hypothesis_id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER evidences_after_write AFTER INSERT OR UPDATE ON evidences
  FOR EACH ROW EXECUTE FUNCTION evidences_after_write();

-- Recomputes incidents.component_ids of one incident.
CREATE FUNCTION incident_refresh_components(p_incident uuid) RETURNS void LANGUAGE sql AS $$
  UPDATE incidents i SET component_ids = c.ids
  FROM (SELECT coalesce(array_agg(DISTINCT e.component_id ORDER BY e.component_id), '{}') AS ids
        FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
        WHERE h.incident_id = p_incident AND e.component_id IS NOT NULL) c
  WHERE i.id = p_incident AND i.component_ids IS DISTINCT FROM c.ids
$$;

CREATE FUNCTION evidences_components_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.component_id IS NOT NULL THEN
    PERFORM incident_refresh_components(h.incident_id) FROM hypotheses h WHERE h.id = OLD.hypothesis_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.component_id IS NOT NULL THEN
    PERFORM incident_refresh_components(h.incident_id) FROM hypotheses h WHERE h.id = NEW.hypothesis_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER evidences_components_changed AFTER INSERT OR DELETE OR UPDATE OF component_id, hypothesis_id ON evidences
  FOR EACH ROW EXECUTE FUNCTION evidences_components_changed();

-- A hypothesis deleted with its evidence (cascade): the evidence trigger no longer finds the incident.
CREATE FUNCTION hypotheses_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incident_refresh_components(OLD.incident_id);
  RETURN NULL;
END $$;

CREATE TRIGGER hypotheses_after_delete AFTER DELETE ON hypotheses
  FOR EACH ROW EXECUTE FUNCTION hypotheses_after_delete();

CREATE FUNCTION responders_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incident_history_add(NEW.incident_id, 'responder.created',
    format('Added %s responder', coalesce(NEW.properties->>'responderType', NEW.type)), NEW.created_by, p_responder => NEW.id);
  RETURN NULL;
END $$;

CREATE TRIGGER responders_after_insert AFTER INSERT ON responders
  FOR EACH ROW EXECUTE FUNCTION responders_after_insert();

CREATE FUNCTION comments_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incident_history_add(NEW.incident_id, 'responder.commented', left(NEW.comment, 200), NEW.created_by,
    p_responder => NEW.responder_id, p_hypothesis => NEW.hypothesis_id, p_comment => NEW.id);
  RETURN NULL;
END $$;

CREATE TRIGGER comments_after_insert AFTER INSERT ON comments
  FOR EACH ROW EXECUTE FUNCTION comments_after_insert();

-- Indexes for the list filters, the embeds of the detail view and the rule engine.
CREATE INDEX incidents_severity_created_idx ON incidents (severity, created_at DESC);
CREATE INDEX incidents_type_created_idx ON incidents (type, created_at DESC);
CREATE INDEX incidents_commander_idx ON incidents (commander_id) WHERE commander_id IS NOT NULL;
-- The owner filter pages newest first without sorting.
CREATE INDEX incidents_created_by_created_idx ON incidents (created_by, created_at DESC);
CREATE INDEX evidences_definition_of_done_idx ON evidences (hypothesis_id) WHERE definition_of_done;
CREATE INDEX responders_incident_all_idx ON responders (incident_id);
CREATE INDEX event_queue_incident_claim_idx ON event_queue (created_at) WHERE name LIKE 'incident.%';

-- The list's summary row: the incident with its commander, responders and counts.
CREATE VIEW incident_summary AS
  SELECT i.id, i.incident_id, i.title, i.description, i.type, i.severity, i.status,
    i.created_by, i.commander_id, i.communicator_id, i.created_at, i.updated_at,
    i.acknowledged, i.resolved, i.closed,
    (SELECT json_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar) FROM people p WHERE p.id = i.commander_id) AS commander,
    (SELECT coalesce(json_agg(json_build_object('id', r.id, 'type', r.type,
        'name', coalesce(p.name, t.name), 'avatar', coalesce(p.avatar, t.icon),
        'person_id', r.person_id, 'team_id', r.team_id) ORDER BY r.created_at), '[]')
       FROM responders r LEFT JOIN people p ON p.id = r.person_id LEFT JOIN teams t ON t.id = r.team_id
      WHERE r.incident_id = i.id AND r.deleted_at IS NULL) AS responders,
    (SELECT count(*) FROM comments c WHERE c.incident_id = i.id) AS comments_count,
    (SELECT count(*) FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id WHERE h.incident_id = i.id) AS evidences_count
  FROM incidents i;

-- Incidents with the components and catalog items their evidence points at.
CREATE VIEW incidents_by_component AS
  SELECT DISTINCT i.id, i.incident_id, i.title, i.type, i.severity, i.status, i.created_at, i.updated_at, e.component_id
  FROM incidents i
  JOIN hypotheses h ON h.incident_id = i.id
  JOIN evidences e ON e.hypothesis_id = h.id
  WHERE e.component_id IS NOT NULL;

CREATE VIEW incidents_by_config AS
  SELECT DISTINCT i.id, i.incident_id, i.title, i.type, i.severity, i.status, i.created_at, i.updated_at, e.config_id
  FROM incidents i
  JOIN hypotheses h ON h.incident_id = i.id
  JOIN evidences e ON e.hypothesis_id = h.id
  WHERE e.config_id IS NOT NULL;

-- The rule engine remembers the last health it saw per rule and component (to open an
-- incident on a change, and to auto-resolve on recovery); its pass is leased.
CREATE TABLE incident_rule_states (
  rule_id      uuid NOT NULL REFERENCES incident_rules (id) ON DELETE CASCADE,
  component_id uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  health       text,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rule_id, component_id)
);

CREATE TABLE incident_engine_leases (
  name        text PRIMARY KEY,
  owner       text,
  lease_until timestamptz
);
