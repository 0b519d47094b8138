-- Identity: sign-in accounts, sessions, verification tokens, TOTP, rate limits (used through
-- better-auth, mapped to these snake_case tables), roles per person and server-held secrets.

ALTER TABLE people ADD COLUMN email_verified boolean NOT NULL DEFAULT false;
ALTER TABLE people ADD COLUMN two_factor_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE people ADD COLUMN state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'inactive'));

CREATE TABLE person_roles (
  person_id uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  role      text NOT NULL CHECK (role IN ('admin', 'editor', 'commander', 'responder', 'viewer')),
  PRIMARY KEY (person_id, role)
);

CREATE TABLE auth_sessions (
  id         text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  token      text NOT NULL UNIQUE,
  person_id  uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  ip_address text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_sessions_person_id_idx ON auth_sessions (person_id);

CREATE TABLE auth_accounts (
  id                       text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  account_id               text NOT NULL,
  provider_id              text NOT NULL,
  person_id                uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  access_token             text,
  refresh_token            text,
  id_token                 text,
  access_token_expires_at  timestamptz,
  refresh_token_expires_at timestamptz,
  scope                    text,
  password                 text,
  created_at               timestamptz NOT NULL DEFAULT now(),
  updated_at               timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX auth_accounts_provider_account_key ON auth_accounts (provider_id, account_id);
CREATE INDEX auth_accounts_person_id_idx ON auth_accounts (person_id);

CREATE TABLE auth_verifications (
  id         text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  identifier text NOT NULL,
  value      text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_verifications_identifier_idx ON auth_verifications (identifier);

CREATE TABLE auth_two_factors (
  id                        text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  secret                    text NOT NULL,
  backup_codes              text NOT NULL,
  person_id                 uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  verified                  boolean NOT NULL DEFAULT true,
  failed_verification_count integer NOT NULL DEFAULT 0,
  locked_until              timestamptz
);
CREATE INDEX auth_two_factors_person_id_idx ON auth_two_factors (person_id);

CREATE TABLE auth_rate_limits (
  id           text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  key          text NOT NULL UNIQUE,
  count        integer NOT NULL,
  last_request bigint NOT NULL
);

-- Values the server generates once and every replica shares (signing secrets). Never exposed.
CREATE TABLE server_settings (
  name       text PRIMARY KEY,
  value      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- People with their roles, for the console's user and role lookups.
CREATE VIEW people_roles AS
  SELECT p.id, p.name, p.email, p.avatar,
    coalesce(array_agg(r.role ORDER BY r.role) FILTER (WHERE r.role IS NOT NULL), '{}') AS roles
  FROM people p LEFT JOIN person_roles r ON r.person_id = p.id
  WHERE p.deleted_at IS NULL
  GROUP BY p.id;
