// The /health page's copy of the summary in the console format (docs/api.md): the first answer is
// whole (columns once, one array per check), the next ones only the checks changed since the
// version held and the ids removed, and a poll with If-None-Match gets a bodiless 304 when nothing
// changed. The page filters, groups and sorts this copy itself, without asking the server again.
import { HEALTH_CONSOLE_COLUMNS } from '@opsdeck/common/healthConsole';
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

/** The fields of a console row the page reads, by column name (all of them). */
const FIELDS = HEALTH_CONSOLE_COLUMNS;

/**
 * A reader of console rows as the summary items the page reads (fields the format leaves out are
 * null). The column positions are looked up once per answer, not once per row: a first answer has
 * 10,000 rows and this runs before the first paint.
 */
export function rowReader(columns: readonly string[]): (row: readonly unknown[]) => CheckSummary {
  const at = Object.fromEntries(FIELDS.map((f) => [f, columns.indexOf(f)])) as Record<(typeof FIELDS)[number], number>;
  const get = (row: readonly unknown[], i: number): unknown => (i < 0 ? null : (row[i] ?? null));
  return (row) => ({
    id: get(row, at.id) as string,
    canary_id: get(row, at.canary_id) as string,
    canary_name: (get(row, at.canary_name) as string | null) ?? '',
    canary_namespace: (get(row, at.canary_namespace) as string | null) ?? '',
    agent_id: get(row, at.agent_id) as string | null,
    agent_name: get(row, at.agent_name) as string | null,
    labels: get(row, at.labels) as Record<string, string> | null,
    status: get(row, at.status) as CheckSummary['status'],
    type: (get(row, at.type) as string | null) ?? '',
    name: (get(row, at.name) as string | null) ?? '',
    namespace: get(row, at.namespace) as string | null,
    owner: null,
    severity: get(row, at.severity) as string | null,
    icon: get(row, at.icon) as string | null,
    description: get(row, at.description) as string | null,
    endpoint: get(row, at.endpoint) as string | null,
    uptime: { passed: Number(get(row, at.passed) ?? 0), failed: Number(get(row, at.failed) ?? 0) },
    latency: {
      p95: get(row, at.p95) as number | null,
      p97: null,
      p99: null,
      rolling1h: get(row, at.rolling1h) as number | null,
    },
    last_runtime: get(row, at.last_runtime) as string | null,
    last_transition_time: get(row, at.last_transition_time) as string | null,
    next_runtime: get(row, at.next_runtime) as string | null,
    created_at: '',
    updated_at: '',
    deleted_at: null,
  });
}

/** One console row as a summary item (rowReader for a single row). */
export function rowToCheck(columns: readonly string[], row: readonly unknown[]): CheckSummary {
  return rowReader(columns)(row);
}

/**
 * The copy after an answer: the answer's checks when it is whole (or nothing is held), else the
 * held checks with the changed ones replaced (in place in the order), new ones after them and the
 * removed ones gone. Unchanged checks keep their objects, so the page's rows do not re-render.
 */
export function applyConsole(prev: ConsoleCopy | undefined, answer: ConsoleAnswer, etag: string | null): ConsoleCopy {
  const changed = answer.rows.map(rowReader(answer.columns));
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
