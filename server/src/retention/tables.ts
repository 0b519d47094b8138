// What retention prunes: every table that grows with time, the column its age is read from, how many
// days rows are kept by default and the environment variable that changes it (0 keeps rows forever).
// Rows that still matter whatever their age (a pending notification, a run under way, an open
// insight, an event not yet given up on) are kept by `keep`. Names and SQL fragments here are
// constants: they go into statements as they are.

export interface RetentionTable {
  /** The table pruned; the job is `retention:<table>` in job history. */
  table: string;
  /** The timestamp a row's age is read from. */
  ageColumn: string;
  defaultDays: number;
  env: string;
  /** Older names of the variable, read when `env` is unset. */
  aliases?: readonly string[];
  /** An SQL condition rows must meet to be deleted, besides their age. */
  where?: string;
  /** Rows per delete (one transaction each); smaller where a row cascades into others. */
  batch?: number;
  /**
   * Statements run in a batch's transaction before its delete, with $1 the batch's ids (uuid[]):
   * links from newer rows to the ones going, cleared.
   */
  beforeDelete?: readonly string[];
  /** What the README says the table holds. */
  describe: string;
}

export const RETENTION_TABLES: readonly RetentionTable[] = [
  {
    table: 'check_statuses',
    ageColumn: 'time',
    defaultDays: 30,
    env: 'RETENTION_CHECK_STATUS_DAYS',
    aliases: ['CHECK_RETENTION_DAYS'],
    describe: 'raw health-check results (the hourly and daily roll-ups keep the history)',
  },
  {
    table: 'check_statuses_1h',
    ageColumn: 'created_at',
    defaultDays: 90,
    env: 'RETENTION_CHECK_STATUS_HOURLY_DAYS',
    describe: 'hourly roll-ups of check results',
  },
  {
    table: 'check_statuses_1d',
    ageColumn: 'created_at',
    defaultDays: 730,
    env: 'RETENTION_CHECK_STATUS_DAILY_DAYS',
    describe: 'daily roll-ups of check results',
  },
  {
    table: 'config_changes',
    ageColumn: 'created_at',
    defaultDays: 90,
    env: 'RETENTION_CONFIG_CHANGES_DAYS',
    describe: 'catalog changes (scraped and pushed by agents)',
  },
  {
    table: 'config_analysis',
    ageColumn: 'last_observed',
    defaultDays: 90,
    env: 'RETENTION_CONFIG_ANALYSIS_DAYS',
    where: "status <> 'open'",
    describe: 'resolved and silenced catalog insights, by when they were last seen (open ones stay)',
  },
  {
    table: 'job_history',
    ageColumn: 'created_at',
    defaultDays: 30,
    env: 'RETENTION_JOB_HISTORY_DAYS',
    describe: 'job history (scheduler runs, scrapes, roll-ups, these retention runs, agent pushes)',
  },
  {
    table: 'event_queue',
    ageColumn: 'created_at',
    defaultDays: 14,
    env: 'RETENTION_EVENT_QUEUE_DAYS',
    // Handled events are deleted when consumed; what stays is what was given up on (MAX_ATTEMPTS).
    where: 'attempts >= 5',
    describe: 'events that failed for good (handled events are deleted when consumed)',
  },
  {
    table: 'notification_send_history',
    ageColumn: 'created_at',
    defaultDays: 30,
    env: 'RETENTION_NOTIFICATION_HISTORY_DAYS',
    aliases: ['CHECK_RETENTION_DAYS'],
    where: "status <> 'pending'",
    beforeDelete: [
      `UPDATE notification_send_history SET parent_id = NULL
       WHERE parent_id = ANY($1::uuid[]) AND NOT (id = ANY($1::uuid[]))`,
      `UPDATE notification_send_history SET inhibited_by = NULL
       WHERE inhibited_by = ANY($1::uuid[]) AND NOT (id = ANY($1::uuid[]))`,
    ],
    describe: 'notification send history (pending sends stay)',
  },
  {
    table: 'playbook_runs',
    ageColumn: 'created_at',
    defaultDays: 90,
    env: 'RETENTION_PLAYBOOK_RUNS_DAYS',
    where: "status IN ('completed', 'failed', 'cancelled')",
    // A run takes its actions (their logs and results), artifacts and approvals with it.
    batch: 200,
    describe: 'finished playbook runs with their action logs, artifacts and approvals',
  },
  {
    table: 'audit_log',
    ageColumn: 'at',
    defaultDays: 365,
    env: 'RETENTION_AUDIT_DAYS',
    describe: 'the audit trail',
  },
];

export const DEFAULT_BATCH = 5000;

/** Days kept per table. */
export type RetentionDays = Record<string, number>;

/** Reads each table's days from the environment (its variable, else an alias, else the default). */
export function retentionDaysFromEnv(env: NodeJS.ProcessEnv = process.env): RetentionDays {
  const days: RetentionDays = {};
  for (const t of RETENTION_TABLES) {
    const name = [t.env, ...(t.aliases ?? [])].find((n) => env[n] !== undefined && env[n] !== '');
    if (!name) {
      days[t.table] = t.defaultDays;
      continue;
    }
    const raw = env[name]!;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0)
      throw new Error(`${name} must be a whole number of days (0 keeps rows forever), got "${raw}"`);
    days[t.table] = n;
  }
  return days;
}

export function retentionTable(name: string): RetentionTable {
  const t = RETENTION_TABLES.find((x) => x.table === name);
  if (!t) throw new Error(`no retention for table ${name}`);
  return t;
}
