// The RBAC resource names of spec/1 §3; every exposed table, view and service endpoint belongs to one.
export const RESOURCES = [
  'database',
  'rbac',
  'auth',
  'responder',
  'incident',
  'evidences',
  'comments',
  'canaries',
  'topologies',
  'config_scrapers',
  'identities',
  'connections',
  'kratos',
  'agents',
  'properties',
  'logging_backends',
  'integrations',
  'notifications',
  'playbooks',
  'playbook_runs',
] as const;

export type Resource = (typeof RESOURCES)[number];
export type Action = 'read' | 'write';
