// The shapes the playbook screens read (spec/1 §3; spec/3 §3, §5): playbooks with their parameters,
// runs and their actions, as served by /api/playbook and /api/db (playbook_run_list, playbooks).

export type ParameterType =
  | 'code'
  | 'checkbox'
  | 'list'
  | 'team'
  | 'people'
  | 'component'
  | 'config'
  | 'check'
  | 'text'
  /** Typed hidden, stored sealed, shown back only as the mask. */
  | 'secret'
  /** A stored connection, picked by name (GET /api/playbook/connections). */
  | 'connection';

export interface PlaybookParameter {
  name: string;
  label?: string;
  type?: ParameterType;
  required?: boolean;
  /** As written in the spec; from POST /api/playbook/{id}/params already rendered for the resource. */
  default?: string;
  properties?: {
    size?: 'very-small' | 'small' | 'medium' | 'large' | 'full';
    language?: string;
    jsonSchemaUrl?: string;
    options?: Array<{ label: string; value: string }>;
    filter?: unknown;
    multiline?: boolean | string;
    maxLength?: number;
    minLength?: number;
    regex?: string;
    format?: string;
    min?: number;
    max?: number;
  };
}

/** A resource a playbook runs on: exactly one of the three ids (or none for a playbook without selectors). */
export interface PlaybookResourceRef {
  config_id?: string;
  component_id?: string;
  check_id?: string;
}

/** GET /api/playbook/list → one of these per runnable playbook. */
export interface PlaybookSummary {
  id: string;
  name: string;
  title?: string | null;
  icon?: string | null;
  category?: string | null;
  description?: string | null;
  parameters?: PlaybookParameter[];
  /** Present when the playbook declares resource selectors of that kind. */
  configs?: unknown[];
  components?: unknown[];
  checks?: unknown[];
}

/** A `playbooks` row through /api/db. */
export interface PlaybookRow {
  id: string;
  name: string;
  namespace: string;
  title: string | null;
  icon: string | null;
  description: string | null;
  category: string | null;
  labels: Record<string, string>;
  spec: { apiVersion?: string; kind?: string; metadata?: Record<string, unknown>; spec?: Record<string, unknown> };
  source: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** POST /api/playbook/{id}/params. */
export interface PlaybookParams {
  params: PlaybookParameter[];
  resource: { type: 'config' | 'component' | 'check'; id: string; name: string } | null;
}

export type PlaybookRunStatus =
  'pending_approval' | 'pending' | 'scheduled' | 'running' | 'completed' | 'failed' | 'cancelled';
export type PlaybookActionStatus = 'scheduled' | 'running' | 'sleeping' | 'completed' | 'failed' | 'skipped';

/** Runs until one of these, then stop polling (spec/3 §5). */
export const FINISHED_RUN_STATUSES: readonly PlaybookRunStatus[] = ['completed', 'failed', 'cancelled'];

/** A row of playbook_run_list (the runs list and the resource sections). */
export interface PlaybookRunListRow {
  id: string;
  playbook_id: string;
  status: PlaybookRunStatus;
  parameters: Record<string, unknown>;
  config_id: string | null;
  component_id: string | null;
  check_id: string | null;
  parent_id: string | null;
  error: string | null;
  scheduled_time: string;
  start_time: string | null;
  end_time: string | null;
  created_at: string;
  created_by: string | null;
  agent_id: string;
  playbooks: { id: string; name: string; title: string | null; icon: string | null; category: string | null };
  duration_ms: number | null;
  /** What started the run (absent in rows written before triggers existed). */
  trigger?: RunTrigger;
}

/** playbook_runs.trigger. */
export interface RunTrigger {
  type: 'manual' | 'event' | 'schedule' | 'webhook';
  event?: string;
  schedule?: string;
  path?: string;
}

/** The approval part of GET /api/playbook/run/{id}; the server decides can_approve for the caller. */
export interface RunApproval {
  type: 'any' | 'all';
  approvers: { people: { id: string; name: string }[]; teams: { id: string; name: string }[] };
  approvals: {
    person_id: string;
    person_name: string;
    team_id: string | null;
    team_name: string | null;
    status: 'approved' | 'rejected';
    reason: string | null;
    created_at: string;
  }[];
  can_approve: boolean;
  can_reject: boolean;
}

export interface PlaybookRunAction {
  id: string;
  playbook_run_id: string;
  name: string;
  action_index: number;
  status: PlaybookActionStatus;
  scheduled_time: string;
  start_time: string | null;
  end_time: string | null;
  /** exec {stdout, stderr, exitCode}; http {code, headers, content, json}; sql {rows, count}; logs. */
  result: Record<string, unknown> | null;
  error: string | null;
  /** Times the action was tried again after failing (its `retry`). */
  retry_count?: number;
}

/** GET /api/playbook/run/action/{id}/artifacts: a file an action saved. */
export interface ActionArtifact {
  id: string;
  path: string;
  filename: string;
  size: number;
  content_type: string;
  checksum: string;
  created_at: string;
}

/** GET /api/playbook/run/{id}. */
export interface PlaybookRunDetail extends Omit<PlaybookRunListRow, 'playbooks' | 'duration_ms'> {
  spec: Record<string, unknown>;
  playbooks: { id: string; name: string; title: string | null; icon: string | null };
  config: { id: string; name: string; type: string } | null;
  component: { id: string; name: string; type: string } | null;
  check: { id: string; name: string; type: string } | null;
  actions: PlaybookRunAction[];
  approval: RunApproval | null;
}

/** POST /api/playbook/run. */
export interface PlaybookRunRequest extends PlaybookResourceRef {
  id: string;
  params?: Record<string, unknown>;
  /** The run this one repeats (Re-run). */
  parent_id?: string;
}
