// The /health page's copy of the summary in the console format (docs/api.md): the first answer is
// whole (columns once, one array per check), the next ones only the checks changed since the
// version held and the ids removed, and a poll with If-None-Match gets a bodiless 304 when nothing
// changed. The page filters, groups and sorts this copy itself, without asking the server again.
import type { CheckSummary, HealthSummary } from './types';

/** The answer of GET /api/canary/api/summary?format=console[&since=version]. */
export interface ConsoleAnswer {
  format: 'console';
  version: string;
  /** Whole (the first answer, or a version the server did not know) or a delta. */
  full: boolean;
  columns: string[];
  rows: unknown[][];
  removed: string[];
  duration: number;
}

/** What the page holds for one range: the summary it shows, and what the next poll sends back. */
export interface ConsoleCopy {
  version: string;
  etag: string | null;
  summary: HealthSummary;
}

/** A console row as the summary item the page's code reads (fields the format leaves out are null). */
export function rowToCheck(columns: readonly string[], row: readonly unknown[]): CheckSummary {
  const v: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) v[columns[i]!] = row[i] ?? null;
  return {
    id: v.id as string,
    canary_id: v.canary_id as string,
    canary_name: (v.canary_name as string) ?? '',
    canary_namespace: (v.canary_namespace as string) ?? '',
    agent_id: (v.agent_id as string | null) ?? null,
    agent_name: (v.agent_name as string | null) ?? null,
    labels: (v.labels as Record<string, string> | null) ?? null,
    status: (v.status as CheckSummary['status']) ?? null,
    type: (v.type as string) ?? '',
    name: (v.name as string) ?? '',
    namespace: (v.namespace as string | null) ?? null,
    owner: null,
    severity: (v.severity as string | null) ?? null,
    icon: (v.icon as string | null) ?? null,
    description: (v.description as string | null) ?? null,
    endpoint: (v.endpoint as string | null) ?? null,
    uptime: { passed: Number(v.passed ?? 0), failed: Number(v.failed ?? 0) },
    latency: {
      p95: (v.p95 as number | null) ?? null,
      p97: null,
      p99: null,
      rolling1h: (v.rolling1h as number | null) ?? null,
    },
    last_runtime: (v.last_runtime as string | null) ?? null,
    last_transition_time: (v.last_transition_time as string | null) ?? null,
    next_runtime: (v.next_runtime as string | null) ?? null,
    created_at: '',
    updated_at: '',
    deleted_at: null,
  };
}

/**
 * The copy after an answer: the answer's checks when it is whole (or nothing is held), else the
 * held checks with the changed ones replaced (in place in the order), new ones after them and the
 * removed ones gone. Unchanged checks keep their objects, so the page's rows do not re-render.
 */
export function applyConsole(prev: ConsoleCopy | undefined, answer: ConsoleAnswer, etag: string | null): ConsoleCopy {
  const changed = answer.rows.map((r) => rowToCheck(answer.columns, r));
  let checks: CheckSummary[];
  if (answer.full || !prev) {
    checks = changed;
  } else {
    const byId = new Map(changed.map((c) => [c.id, c]));
    const removed = new Set(answer.removed);
    checks = [];
    for (const c of prev.summary.checks_summary) {
      if (removed.has(c.id)) continue;
      const next = byId.get(c.id);
      checks.push(next ?? c);
      if (next) byId.delete(c.id);
    }
    checks.push(...byId.values());
  }
  return {
    version: answer.version,
    etag,
    summary: { runnerName: 'local', duration: answer.duration, checks_summary: checks },
  };
}
