-- The replicas running engines on this database (server/src/jobs/replicas.ts). Each one keeps its
-- row alive with the lease heartbeat's period and deletes it when it stops; a killed replica's row
-- runs out (alive_until) and is removed by the others. Read by the health scheduler (a busy replica
-- leaves due canaries to the others only when there are others) and by /metrics (opsdeck_replicas).
CREATE TABLE replicas (
  id          text PRIMARY KEY,
  hostname    text NOT NULL,
  pid         integer NOT NULL,
  version     text NOT NULL,
  mode        text NOT NULL,
  started_at  timestamptz NOT NULL DEFAULT now(),
  seen_at     timestamptz NOT NULL DEFAULT now(),
  alive_until timestamptz NOT NULL
);
CREATE INDEX replicas_alive_idx ON replicas (alive_until);
