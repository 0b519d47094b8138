// The shapes the health dashboard reads: summary items (GET /api/canary/api/summary), check
// statistics (GET /api/canary/checks/:id/stats), check rows and their status history (/api/db).

export interface CheckUptime {
  passed: number;
  failed: number;
  last_pass?: string | null;
  last_fail?: string | null;
}

export interface CheckLatency {
  p95: number | null;
  p97: number | null;
  p99: number | null;
  rolling1h?: number | null;
}

/** One check of the summary (spec/1 §3 Check; FORMATS.md summary shape). */
export interface CheckSummary {
  id: string;
  canary_id: string;
  canary_name: string;
  canary_namespace: string;
  agent_id: string | null;
  /** The agent's name for checks pushed by an agent (null for local checks). */
  agent_name?: string | null;
  labels: Record<string, string> | null;
  status: 'healthy' | 'unhealthy' | null;
  type: string;
  name: string;
  namespace: string | null;
  owner: string | null;
  severity: string | null;
  icon: string | null;
  description: string | null;
  endpoint: string | null;
  uptime: CheckUptime;
  latency: CheckLatency;
  last_runtime: string | null;
  last_transition_time: string | null;
  next_runtime: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface HealthSummary {
  duration: number;
  runnerName: string;
  checks_summary: CheckSummary[];
}

export interface CheckStatsBucket {
  bucket: string;
  total: number;
  passed: number;
  failed: number;
  /** Average duration in the bucket, ms. */
  duration: number | null;
}

export interface CheckStats {
  uptime: { passed: number; failed: number };
  latency: { p95: number | null; p97: number | null; p99: number | null } | null;
  series: CheckStatsBucket[];
}

/** A `checks` row with its canary (the drawer opened by ?checkId= before the summary has it). */
export interface CheckRow {
  id: string;
  canary_id: string;
  agent_id: string | null;
  type: string;
  name: string;
  namespace: string | null;
  description: string | null;
  icon: string | null;
  labels: Record<string, string> | null;
  owner: string | null;
  severity: string | null;
  endpoint: string | null;
  spec: Record<string, unknown> | null;
  status: 'healthy' | 'unhealthy' | null;
  last_runtime: string | null;
  next_runtime: string | null;
  last_transition_time: string | null;
  created_at: string;
  deleted_at: string | null;
  canaries: { name: string; namespace: string; labels: Record<string, string> | null } | null;
}

/** A component linked to a check (check_component_relationships with its component embedded). */
export interface CheckComponentLink {
  component_id: string;
  components: {
    id: string;
    name: string;
    icon: string | null;
    type: string | null;
    health: string | null;
    deleted_at: string | null;
  } | null;
}

/** A configuration item linked to a check (check_config_relationships with its item embedded). */
export interface CheckConfigLink {
  config_id: string;
  config_items: {
    id: string;
    name: string | null;
    type: string;
    health: string | null;
    deleted_at: string | null;
  } | null;
}

/** One run of a check (spec/1 §3 Check status history entry). */
export interface CheckStatusRow {
  check_id: string;
  time: string;
  status: boolean;
  invalid: boolean;
  duration: number;
  message: string | null;
  error: string | null;
}

/** The answer of Run Now. */
export interface RunCheckResult {
  checkId: string;
  pass: boolean;
  invalid: boolean;
  durationMs: number;
  message: string | null;
  error: string | null;
}

/** Run Now on an agent's check (202): queued for the agent; its result arrives with the agent's push. */
export interface QueuedCheckRun {
  queued: true;
  id: string;
  checkId: string;
  agent: { id: string; name: string };
  message: string;
}

/** The all-zero agent id stands for "no agent": the check runs on this server. */
export const LOCAL_AGENT_ID = '00000000-0000-0000-0000-000000000000';
