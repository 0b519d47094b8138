// The columns of the health summary's console format (`format=console`, docs/api.md): what the
// /health page shows of each check, in the order the server writes them and the page reads them.
export const HEALTH_CONSOLE_COLUMNS = [
  'id',
  'canary_id',
  'canary_name',
  'canary_namespace',
  'agent_id',
  'agent_name',
  'labels',
  'status',
  'type',
  'name',
  'namespace',
  'severity',
  'icon',
  'description',
  'endpoint',
  'passed',
  'failed',
  'p95',
  'rolling1h',
  'last_runtime',
  'last_transition_time',
  'next_runtime',
] as const;

export type HealthConsoleColumn = (typeof HEALTH_CONSOLE_COLUMNS)[number];
