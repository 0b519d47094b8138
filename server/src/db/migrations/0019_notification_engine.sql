-- The notification event consumer (server/src/notifications/consumer.ts): group keys on send history
-- and flap-damping state per resource and rule.

-- Grouping: rows of one rule, recipient and groupBy values share a key; the pending leader is found by it.
ALTER TABLE notification_send_history ADD COLUMN group_key text;
CREATE INDEX notification_send_history_group_idx ON notification_send_history (notification_id, group_key, created_at DESC)
  WHERE group_key IS NOT NULL;

-- Flap damping: the recent state changes of a resource (times within the longest window in use).
CREATE TABLE notification_resource_flips (
  resource_id  uuid PRIMARY KEY,
  changes      timestamptz[] NOT NULL DEFAULT '{}',
  last_state   text,
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- A rule told its recipients that a resource is flapping: further changes are held until it settles.
CREATE TABLE notification_flap_notices (
  notification_id  uuid NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
  resource_id      uuid NOT NULL,
  since            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (notification_id, resource_id)
);
