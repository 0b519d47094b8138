// The rows the notifications screens read: send history, rules and silences, as the summary views
// of /api/db return them (the tables of migration 0017 plus names and counts).
import type { SendStatus } from '@opsdeck/common/notifications';

/** A recipient entry of a rule that is neither a person nor a team (spec/3 §2 "Others"). */
export interface CustomService {
  name?: string;
  connection?: string;
  url?: string;
  email?: string;
  properties?: Record<string, string>;
}

/** The snapshot of the resource an event was about. */
export interface EventResource {
  id?: string;
  name?: string;
  type?: string;
  namespace?: string;
  status?: string;
  health?: string;
}

export interface SendHistoryRow {
  id: string;
  notification_id: string;
  status: SendStatus;
  source_event: string;
  resource_id: string | null;
  resource_type: string | null;
  resource: EventResource | null;
  person_id: string | null;
  recipient: string | null;
  title: string | null;
  body: string | null;
  error: string | null;
  duration_millis: number | null;
  count: number;
  first_observed: string;
  attempts: number;
  reason: string | null;
  silenced_by: string | null;
  inhibited_by: string | null;
  group_id: string | null;
  parent_id: string | null;
  created_at: string;
  updated_at?: string;
  // Names joined by notification_send_history_summary.
  resource_name?: string | null;
  notification_name?: string | null;
  person_name?: string | null;
}

export interface PersonRef {
  id: string;
  name: string | null;
  email?: string | null;
  avatar?: string | null;
}

export interface TeamRef {
  id: string;
  name: string;
  icon?: string | null;
}

export interface NotificationRuleRow {
  id: string;
  name: string;
  namespace?: string | null;
  title: string | null;
  template: string | null;
  filter: string | null;
  events: string[];
  person_id: string | null;
  team_id: string | null;
  custom_services: CustomService[] | null;
  properties: Record<string, unknown> | null;
  repeat_interval: number | null;
  wait_for: number | null;
  /** The whole resource as written (apiVersion, kind, metadata, spec). */
  spec?: Record<string, unknown> | null;
  source: string | null;
  error: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at?: string | null;
  // From notifications_summary.
  person?: PersonRef | null;
  team?: TeamRef | null;
  pending?: number | null;
  failed?: number | null;
  sent?: number | null;
  avg_duration_ms?: number | null;
  most_common_error?: string | null;
}

export interface SilenceRow {
  id: string;
  name: string | null;
  namespace: string | null;
  description: string | null;
  filter: string | null;
  from: string;
  until: string;
  recursive: boolean;
  config_id: string | null;
  check_id: string | null;
  canary_id: string | null;
  component_id: string | null;
  source: string | null;
  error?: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at?: string | null;
  // From notification_silences_summary.
  check_name?: string | null;
  canary_name?: string | null;
  component_name?: string | null;
  config_name?: string | null;
  config_type?: string | null;
  created_by_name?: string | null;
  expired?: boolean | null;
}
