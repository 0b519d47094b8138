-- Maintenance windows (issue 21): a one-off span (starts_at..ends_at) or a recurring one (a cron
-- `schedule` in croner syntax, in `timezone`, each run lasting `duration`, e.g. '2h') over checks,
-- components and whole status pages (by slug). While one is active the status pages show its message
-- and, when `silence` is set, notifications for what it covers are silenced with the window named.
CREATE TABLE maintenance_windows (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name           text NOT NULL,
  message        text NOT NULL DEFAULT '',
  starts_at      timestamptz,
  ends_at        timestamptz,
  schedule       text,
  duration       text,
  timezone       text,
  check_ids      uuid[] NOT NULL DEFAULT '{}',
  component_ids  uuid[] NOT NULL DEFAULT '{}',
  status_pages   text[] NOT NULL DEFAULT '{}',
  silence        boolean NOT NULL DEFAULT true,
  -- The MaintenanceWindow resource as applied (read back as YAML); null for windows made in the form.
  spec           jsonb,
  source         text NOT NULL DEFAULT 'UI',
  created_by     uuid REFERENCES people (id),
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  deleted_at     timestamptz,
  CONSTRAINT maintenance_windows_name_not_blank CHECK (btrim(name) <> ''),
  CONSTRAINT maintenance_windows_when CHECK (
    (starts_at IS NOT NULL AND ends_at IS NOT NULL AND ends_at > starts_at AND schedule IS NULL AND duration IS NULL)
    OR (schedule IS NOT NULL AND btrim(schedule) <> '' AND duration IS NOT NULL AND btrim(duration) <> ''
        AND starts_at IS NULL AND ends_at IS NULL)
  )
);
CREATE UNIQUE INDEX maintenance_windows_name_key ON maintenance_windows (name) WHERE deleted_at IS NULL;
-- Active one-off windows are found by their end; recurring ones are few and all read.
CREATE INDEX maintenance_windows_ends_at_idx ON maintenance_windows (ends_at) WHERE deleted_at IS NULL;
