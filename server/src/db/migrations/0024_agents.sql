-- Agents (spec/1 §2-§4, FORMATS.md "Agents"): the token link and the soft-delete flow on the
-- upstream, the change sequence an agent's pusher follows, its push cursors, and agents_summary.

-- The access token generate made for the agent (revoked when the agent is deleted).
ALTER TABLE agents ADD COLUMN access_token_id uuid REFERENCES access_tokens (id) ON DELETE SET NULL;
CREATE INDEX agents_person_id_idx ON agents (person_id);

-- Pushed rows carry the agent's id: the summary counts and the cleanup look them up by it.
CREATE INDEX canaries_agent_id_idx ON canaries (agent_id) WHERE agent_id <> '00000000-0000-0000-0000-000000000000';
CREATE INDEX checks_agent_id_idx ON checks (agent_id) WHERE agent_id <> '00000000-0000-0000-0000-000000000000';
CREATE INDEX components_agent_id_idx ON components (agent_id) WHERE agent_id <> '00000000-0000-0000-0000-000000000000';
CREATE INDEX config_items_agent_id_idx ON config_items (agent_id) WHERE agent_id IS NOT NULL;
CREATE INDEX job_history_agent_id_idx ON job_history (agent_id) WHERE agent_id IS NOT NULL;

-- change_seq: a database-wide sequence number stamped on every insert and on every update that
-- changes something (the columns named in the trigger's arguments excepted: scheduler bookkeeping).
-- An agent pushes rows in change_seq order and keeps the last one sent per table (agent_push_cursors):
-- a row changed again gets a newer number and is sent again. The upstream stamps its own numbers.
CREATE SEQUENCE agent_push_seq;

CREATE FUNCTION agent_push_seq_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ignored text[] := TG_ARGV || ARRAY['change_seq'];
BEGIN
  IF (to_jsonb(NEW) - ignored) IS DISTINCT FROM (to_jsonb(OLD) - ignored) THEN
    NEW.change_seq := nextval('agent_push_seq');
  END IF;
  RETURN NEW;
END $$;

-- Added without a default first: existing rows keep NULL (no table rewrite); new rows get numbers.
ALTER TABLE canaries ADD COLUMN change_seq bigint;
ALTER TABLE canaries ALTER COLUMN change_seq SET DEFAULT nextval('agent_push_seq');
CREATE TRIGGER canaries_change_seq BEFORE UPDATE ON canaries FOR EACH ROW
  EXECUTE FUNCTION agent_push_seq_bump('next_runtime', 'last_runtime', 'lease_until', 'lease_owner');

ALTER TABLE checks ADD COLUMN change_seq bigint;
ALTER TABLE checks ALTER COLUMN change_seq SET DEFAULT nextval('agent_push_seq');
CREATE TRIGGER checks_change_seq BEFORE UPDATE ON checks FOR EACH ROW
  EXECUTE FUNCTION agent_push_seq_bump('next_runtime');

-- Statuses are written once: the default is enough.
ALTER TABLE check_statuses ADD COLUMN change_seq bigint;
ALTER TABLE check_statuses ALTER COLUMN change_seq SET DEFAULT nextval('agent_push_seq');

ALTER TABLE components ADD COLUMN change_seq bigint;
ALTER TABLE components ALTER COLUMN change_seq SET DEFAULT nextval('agent_push_seq');
CREATE TRIGGER components_change_seq BEFORE UPDATE ON components FOR EACH ROW
  EXECUTE FUNCTION agent_push_seq_bump();

ALTER TABLE config_items ADD COLUMN change_seq bigint;
ALTER TABLE config_items ALTER COLUMN change_seq SET DEFAULT nextval('agent_push_seq');
CREATE TRIGGER config_items_change_seq BEFORE UPDATE ON config_items FOR EACH ROW
  EXECUTE FUNCTION agent_push_seq_bump('last_scraped_time');

ALTER TABLE config_changes ADD COLUMN change_seq bigint;
ALTER TABLE config_changes ALTER COLUMN change_seq SET DEFAULT nextval('agent_push_seq');
CREATE TRIGGER config_changes_change_seq BEFORE UPDATE ON config_changes FOR EACH ROW
  EXECUTE FUNCTION agent_push_seq_bump();

ALTER TABLE config_analysis ADD COLUMN change_seq bigint;
ALTER TABLE config_analysis ALTER COLUMN change_seq SET DEFAULT nextval('agent_push_seq');
CREATE TRIGGER config_analysis_change_seq BEFORE UPDATE ON config_analysis FOR EACH ROW
  EXECUTE FUNCTION agent_push_seq_bump();

ALTER TABLE config_relationships ADD COLUMN change_seq bigint;
ALTER TABLE config_relationships ALTER COLUMN change_seq SET DEFAULT nextval('agent_push_seq');
CREATE TRIGGER config_relationships_change_seq BEFORE UPDATE ON config_relationships FOR EACH ROW
  EXECUTE FUNCTION agent_push_seq_bump();

ALTER TABLE job_history ADD COLUMN change_seq bigint;
ALTER TABLE job_history ALTER COLUMN change_seq SET DEFAULT nextval('agent_push_seq');
CREATE TRIGGER job_history_change_seq BEFORE UPDATE ON job_history FOR EACH ROW
  EXECUTE FUNCTION agent_push_seq_bump();

CREATE INDEX check_statuses_change_seq_idx ON check_statuses (change_seq);

-- Agent side: per pushed table, the last change_seq the upstream acknowledged (2xx).
CREATE TABLE agent_push_cursors (
  table_name     text PRIMARY KEY,
  cursor         bigint NOT NULL DEFAULT 0,
  pushed_rows    bigint NOT NULL DEFAULT 0,
  last_pushed_at timestamptz,
  last_error     text,
  updated_at     timestamptz NOT NULL DEFAULT now()
);

-- Deleting an agent (deleted_at set, by DELETE /api/agent/{id} or PATCH /api/db/agents) revokes its
-- token at once and, with cleanup, soft-deletes what it pushed. Without cleanup its rows stay,
-- pointing at an agent whose deleted_at is set.
CREATE FUNCTION agents_soft_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.person_id IS NOT NULL THEN
    DELETE FROM access_tokens WHERE person_id = NEW.person_id;
    UPDATE people SET deleted_at = now(), state = 'inactive' WHERE id = NEW.person_id AND deleted_at IS NULL;
  END IF;
  IF NEW.cleanup THEN
    UPDATE canaries SET deleted_at = now() WHERE agent_id = NEW.id AND deleted_at IS NULL;
    UPDATE checks SET deleted_at = now() WHERE agent_id = NEW.id AND deleted_at IS NULL;
    UPDATE components SET deleted_at = now() WHERE agent_id = NEW.id AND deleted_at IS NULL;
    UPDATE config_relationships r SET deleted_at = now()
      FROM config_items ci WHERE ci.id = r.config_id AND ci.agent_id = NEW.id AND r.deleted_at IS NULL;
    UPDATE config_items SET deleted_at = now(), delete_reason = 'agent deleted' WHERE agent_id = NEW.id AND deleted_at IS NULL;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER agents_soft_delete AFTER UPDATE OF deleted_at ON agents FOR EACH ROW
  WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION agents_soft_delete();

-- The agents list (spec/1 §7 agents_summary): online = last_seen within 61 s (spec/1 §9), and what
-- each agent has pushed.
CREATE VIEW agents_summary AS
SELECT a.id, a.name, a.description, a.hostname, a.ip, a.version, a.username, a.person_id, a.properties,
       a.cleanup, a.created_by, a.created_at, a.updated_at, a.deleted_at, a.last_seen, a.last_received,
       coalesce(a.last_seen > now() - interval '61 seconds', false) AS online,
       (SELECT count(*) FROM checks c WHERE c.agent_id = a.id AND c.deleted_at IS NULL)::int AS checks_count,
       (SELECT count(*) FROM config_items ci WHERE ci.agent_id = a.id AND ci.deleted_at IS NULL)::int AS config_count,
       (SELECT count(*) FROM components co WHERE co.agent_id = a.id AND co.deleted_at IS NULL)::int AS components_count,
       (SELECT count(*) FROM config_scrapers s WHERE s.agent_id = a.id AND s.deleted_at IS NULL)::int AS config_scrapper_count,
       (SELECT count(*) FROM playbook_runs r WHERE r.agent_id = a.id)::int AS playbook_runs_count
FROM agents a;
