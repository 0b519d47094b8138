-- Every change that can alter who a session or access token stands for (its person, roles, state,
-- name, expiry, or the session/token itself) is announced on the channel opsdeck_auth with the
-- person's id (the trigger's argument names the column that holds it), so each replica drops what it remembers of that person's callers (auth/identity.ts).
-- Whatever writes the change (API, /api/db, better-auth, SQL by hand) triggers it.

CREATE FUNCTION opsdeck_auth_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pg_notify('opsdeck_auth', to_jsonb(OLD) ->> TG_ARGV[0]);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM pg_notify('opsdeck_auth', to_jsonb(NEW) ->> TG_ARGV[0]);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER people_auth_notify
  AFTER UPDATE OF name, email, avatar, state, deleted_at, two_factor_enabled OR DELETE ON people
  FOR EACH ROW EXECUTE FUNCTION opsdeck_auth_notify('id');

CREATE TRIGGER person_roles_auth_notify
  AFTER INSERT OR UPDATE OR DELETE ON person_roles
  FOR EACH ROW EXECUTE FUNCTION opsdeck_auth_notify('person_id');

-- Not on last_used_at (written at most once a minute per token by the server itself).
CREATE TRIGGER access_tokens_auth_notify
  AFTER UPDATE OF value, person_id, expires_at OR DELETE ON access_tokens
  FOR EACH ROW EXECUTE FUNCTION opsdeck_auth_notify('person_id');

CREATE TRIGGER auth_sessions_auth_notify
  AFTER UPDATE OF token, person_id, expires_at OR DELETE ON auth_sessions
  FOR EACH ROW EXECUTE FUNCTION opsdeck_auth_notify('person_id');
