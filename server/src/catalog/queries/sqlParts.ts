// Pure building blocks of the catalog read queries: bound parameters, the catalog's list-filter
// syntax ("a,b,!c"), field paths (column, tags.<key>, labels.<key>), severities and time values.
import { parseRelativeTime, TimeRangeError } from '@opsdeck/common/timeRange';
import type { Database, Queryable } from '../../db/database.js';
import { ordinaryTime } from '../../http/ordinaryTime.js';

/** Collects bound parameters; `add` returns the placeholder to put in the SQL. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A validation problem the caller can fix; the routes answer it with 400. */
export class QueryInputError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export interface ListFilter {
  include: string[];
  exclude: string[];
}

/** "a,b,!c" (or an array of such values) → values to include and values to exclude. */
export function parseListFilter(value: string | readonly string[]): ListFilter {
  const parts = (typeof value === 'string' ? [value] : value).flatMap((v) => v.split(','));
  const out: ListFilter = { include: [], exclude: [] };
  for (const raw of parts) {
    const p = raw.trim();
    if (!p) continue;
    if (p.startsWith('!')) {
      if (p.length > 1) out.exclude.push(p.slice(1));
    } else out.include.push(p);
  }
  return out;
}

/** SQL conditions for a list filter on an expression; an excluded value lets NULL through. */
export function listCondition(expr: string, filter: ListFilter, params: Params): string[] {
  const conds: string[] = [];
  if (filter.include.length === 1) conds.push(`${expr} = ${params.add(filter.include[0])}`);
  else if (filter.include.length > 1) conds.push(`${expr} = ANY(${params.add(filter.include)}::text[])`);
  if (filter.exclude.length) conds.push(`(${expr} IS NULL OR ${expr} <> ALL(${params.add(filter.exclude)}::text[]))`);
  return conds;
}

/** Columns of config_items the summary and filters accept by name. */
export const ITEM_COLUMNS = ['type', 'config_class', 'status', 'health', 'name', 'agent'] as const;

const KEY_PATTERN = /^[A-Za-z0-9_.\-/:]{1,200}$/;

export interface FieldRef {
  /** The SQL expression (over config_items `ci` and agents `ag`). */
  expr: string;
  /** Whether it needs the agents join. */
  agent: boolean;
}

/**
 * A field of an item: a column (`agent` is the agent's name), `tags.<key>` or `labels.<key>`.
 * Keys go into the SQL as bound parameters.
 */
export function itemField(name: string, params: Params, where: string): FieldRef {
  if (name === 'agent') return { expr: 'ag.name', agent: true };
  if ((ITEM_COLUMNS as readonly string[]).includes(name)) return { expr: `ci.${name}`, agent: false };
  const m = /^(tags|labels)\.(.+)$/.exec(name);
  if (m && KEY_PATTERN.test(m[2]!)) return { expr: `(ci.${m[1]} ->> ${params.add(m[2])}::text)`, agent: false };
  throw new QueryInputError(
    `${where}: "${name}" is not a field of a catalog item; use one of ${ITEM_COLUMNS.join(', ')}, tags.<key> or labels.<key>`,
    where,
  );
}

/** Severities from lowest to highest (warning ranks with medium). */
export const SEVERITY_RANK: Readonly<Record<string, number>> = {
  info: 0,
  low: 1,
  medium: 2,
  warning: 2,
  high: 3,
  blocker: 4,
  critical: 5,
};
export const SEVERITIES = Object.keys(SEVERITY_RANK);

/** The severities at or above a minimum one; throws for an unknown severity. */
export function severitiesAtLeast(min: string): string[] {
  const rank = SEVERITY_RANK[min];
  if (rank === undefined)
    throw new QueryInputError(`severity: "${min}" is not a severity; use one of ${SEVERITIES.join(', ')}`, 'severity');
  return SEVERITIES.filter((s) => SEVERITY_RANK[s]! >= rank);
}

/** SQL ranking a severity column (for sorting). */
export function severityRankSql(expr: string): string {
  const whens = Object.entries(SEVERITY_RANK)
    .map(([s, r]) => `WHEN '${s}' THEN ${r}`)
    .join(' ');
  return `(CASE ${expr} ${whens} ELSE -1 END)`;
}

/**
 * A time value: a relative expression (`now-2d`, `now`), a duration back from now (`2d`, `30m`), an
 * ISO date or epoch milliseconds.
 */
export function parseTimeValue(value: string, field: string, now: Date, roundUp = false): Date {
  const v = value.trim();
  const bad = () =>
    new QueryInputError(
      `${field}: "${value}" is not a time; use a relative time like now-2d, a duration like 2d, or an ISO date`,
      field,
    );
  const checked = (d: Date) => {
    if (!ordinaryTime(d.getTime())) throw bad();
    return d;
  };
  if (v.startsWith('now')) {
    try {
      return checked(parseRelativeTime(v, now, { roundUp }));
    } catch (e) {
      if (e instanceof TimeRangeError) throw bad();
      throw e;
    }
  }
  if (/^\d+(ms|s|m|h|d|w|M|y)$/.test(v)) return checked(parseRelativeTime(`now-${v}`, now));
  const t = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!/^\d/.test(v) || Number.isNaN(t)) throw bad();
  return checked(new Date(t));
}

/** A look-back such as '30d', '7d', '24h' → minutes; throws with the field name. */
export function sinceMinutes(value: string, field: string): number {
  const m = /^(\d+)(m|h|d|w)$/.exec(value.trim());
  const unit = m ? { m: 1, h: 60, d: 1440, w: 10080 }[m[2] as 'm' | 'h' | 'd' | 'w'] : undefined;
  if (!m || !unit || Number(m[1]) <= 0)
    throw new QueryInputError(`${field}: "${value}" is not a look-back; use a duration like 30d, 7d or 24h`, field);
  return Number(m[1]) * unit;
}

/** `%text%` for ILIKE with the wildcards of the text itself escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Runs a catalog read in a transaction whose planner prices index pages as cached (random_page_cost
 * 1.1 instead of the default 4, which assumes uncached disk reads). The summary and the changes count
 * read narrow covering indexes of config_items (a few MB) that stay in memory; at the default cost the
 * planner prefers a parallel scan of the wide item heap (the config bodies, ~1 kB a row), which is
 * two to three times slower at 100,000 items.
 */
export function withIndexFriendlyPlanner<T>(db: Database, run: (q: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SET LOCAL random_page_cost = 1.1');
    return run(tx);
  });
}
