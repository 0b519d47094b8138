-- What 200 concurrent console readers (bench load, issue 19) spend their time on.

-- The catalog list (/api/db/config_items?deleted_at=is.null&order=name.asc.nullslast,id&limit=50):
-- without an index in that order every page sorted all live items (a sequential scan of 10,000 rows
-- and a hash join to agents for each, ~20 ms); with it a page reads its 50 rows (offset included).
-- Read backwards it serves name.desc (NULLS FIRST) too.
CREATE INDEX config_items_live_name_idx ON config_items (name, id) WHERE deleted_at IS NULL;

-- The topology card query (GET /api/topology) is cached by each replica (topology/cache.ts), keyed
-- by the query and this counter: every committed change to a table the card query reads
-- (components, component_relationships, team_components, teams) adds one, in the writer's own
-- transaction, so a reader that sees the counter unchanged knows the rows are unchanged too.
-- Checks' statuses and configs' health reach the cards only through components.health/summary
-- (the roll-up writes them), so they count through components.
CREATE TABLE topology_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL DEFAULT 0
);
INSERT INTO topology_version DEFAULT VALUES;

-- Once per transaction (a roll-up updates hundreds of components in one statement): the
-- transaction-local setting remembers that this transaction has counted already.
CREATE FUNCTION opsdeck_topology_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('opsdeck.topology_counted', true) IS DISTINCT FROM txid_current()::text THEN
    PERFORM set_config('opsdeck.topology_counted', txid_current()::text, true);
    UPDATE topology_version SET version = version + 1;
  END IF;
  RETURN NULL;
END $$;

-- Deferred to the commit: the counter row is locked last, after every row the transaction writes,
-- so two writers can wait for one another's counter but never in a cycle (no deadlock), and a
-- rolled-back transaction counts nothing.
CREATE CONSTRAINT TRIGGER components_topology_version
  AFTER INSERT OR UPDATE OR DELETE ON components DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION opsdeck_topology_changed();
CREATE CONSTRAINT TRIGGER component_relationships_topology_version
  AFTER INSERT OR UPDATE OR DELETE ON component_relationships DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION opsdeck_topology_changed();
CREATE CONSTRAINT TRIGGER team_components_topology_version
  AFTER INSERT OR UPDATE OR DELETE ON team_components DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION opsdeck_topology_changed();
CREATE CONSTRAINT TRIGGER teams_topology_version
  AFTER INSERT OR UPDATE OR DELETE ON teams DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION opsdeck_topology_changed();

-- TRUNCATE has no rows to fire for: counted at once.
CREATE TRIGGER components_topology_truncate AFTER TRUNCATE ON components
  FOR EACH STATEMENT EXECUTE FUNCTION opsdeck_topology_changed();
CREATE TRIGGER component_relationships_topology_truncate AFTER TRUNCATE ON component_relationships
  FOR EACH STATEMENT EXECUTE FUNCTION opsdeck_topology_changed();
CREATE TRIGGER team_components_topology_truncate AFTER TRUNCATE ON team_components
  FOR EACH STATEMENT EXECUTE FUNCTION opsdeck_topology_changed();
CREATE TRIGGER teams_topology_truncate AFTER TRUNCATE ON teams
  FOR EACH STATEMENT EXECUTE FUNCTION opsdeck_topology_changed();
