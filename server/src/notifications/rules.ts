// The live notification rules (`notifications` rows, deleted_at null) as the consumer uses them: loaded
// once and kept briefly, reloaded when any rule's updated_at/deleted_at (or the count) moves, so an
// edit applies to the next event without a restart; and recording a rule's run-time error.
import type { Queryable } from '../db/database.js';

export interface Inhibition {
  direction: 'outgoing' | 'incoming' | 'all';
  depth: number;
  soft: boolean;
  from: string[];
  to: string[];
}

/** One entry of `custom_services` (or a `to` of the spec): where a message goes. */
export interface ServiceTarget {
  name?: string;
  email?: string;
  connection?: string;
  /** Set by the apply API next to `connection` / `playbook`: the row it resolved to. */
  connection_id?: string;
  playbook_id?: string;
  url?: string;
  person?: string;
  team?: string;
  playbook?: string;
  properties?: Record<string, string>;
}

export interface Rule {
  id: string;
  name: string;
  namespace: string;
  events: string[];
  filter: string | null;
  personId: string | null;
  teamId: string | null;
  playbookId: string | null;
  services: ServiceTarget[];
  /** `to` of the stored spec, read when the recipient columns are empty (a rule applied as YAML). */
  specTo: ServiceTarget | undefined;
  repeatIntervalMs: number | null;
  waitForMs: number | null;
  waitForEvalPeriodMs: number | null;
  groupBy: string[];
  groupByIntervalMs: number | null;
  inhibitions: Inhibition[];
  flapping: { flaps: number; windowMs: number };
  error: string | null;
}

export const DEFAULT_FLAPS = 5;
export const DEFAULT_FLAP_WINDOW_MS = 10 * 60_000;

const nsToMs = (v: unknown): number | null => (v == null || Number(v) <= 0 ? null : Number(v) / 1e6);

type RuleRow = Record<string, unknown>;

/** A duration text of the spec ("10m") in ms; the schema already checked it. */
function durationMs(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const units: Record<string, number> = { ms: 1, s: 1e3, m: 6e4, h: 36e5, d: 864e5, w: 6048e5, mo: 2592e6 };
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(ms|mo|s|m|h|d|w)/g)) total += Number(m[1]) * units[m[2]!]!;
  return total || null;
}

function asObject(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function typeNames(v: unknown): string[] {
  if (typeof v === 'string') return v ? [v] : [];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function ruleFromRow(row: RuleRow): Rule {
  const spec = asObject(asObject(row.spec).spec);
  const flapping = asObject(spec.flapping);
  const inhibitions = Array.isArray(row.inhibitions) ? (row.inhibitions as Record<string, unknown>[]) : [];
  const to = asObject(spec.to);
  return {
    id: String(row.id),
    name: String(row.name),
    namespace: String(row.namespace ?? 'default'),
    events: (row.events as string[] | null) ?? [],
    filter: typeof row.filter === 'string' && row.filter.trim() ? row.filter : null,
    personId: (row.person_id as string | null) ?? null,
    teamId: (row.team_id as string | null) ?? null,
    playbookId: (row.playbook_id as string | null) ?? null,
    services: Array.isArray(row.custom_services) ? (row.custom_services as ServiceTarget[]) : [],
    specTo: Object.keys(to).length ? (to as ServiceTarget) : undefined,
    repeatIntervalMs: nsToMs(row.repeat_interval),
    waitForMs: nsToMs(row.wait_for),
    waitForEvalPeriodMs: nsToMs(row.wait_for_eval_period),
    groupBy: (row.group_by as string[] | null) ?? [],
    groupByIntervalMs: nsToMs(row.group_by_interval),
    inhibitions: inhibitions.map((i) => ({
      direction: i.direction === 'incoming' || i.direction === 'outgoing' ? i.direction : 'all',
      depth: typeof i.depth === 'number' && i.depth > 0 ? i.depth : 5,
      soft: i.soft === true,
      // mission-control's `inhibit` names one `from` type; lists are read too.
      from: typeNames(i.from),
      to: typeNames(i.to),
    })),
    flapping: {
      flaps: typeof flapping.flaps === 'number' ? flapping.flaps : DEFAULT_FLAPS,
      windowMs: durationMs(flapping.window) ?? DEFAULT_FLAP_WINDOW_MS,
    },
    error: (row.error as string | null) ?? null,
  };
}

/** Live rules, cached for `ttlMs` and checked for changes by a one-row fingerprint query after that. */
export class RuleCache {
  private rules: Rule[] = [];
  private fingerprint = '';
  private checkedAt = 0;
  private loadedAt = 0;

  /** ttlMs: how long rules are used unchecked; reloadMs: a full reload even without a visible change
   *  (a write that did not move updated_at). */
  constructor(
    private readonly ttlMs = 1000,
    private readonly reloadMs = 30_000,
  ) {}

  /** Drops the cache: the next call reloads. */
  invalidate(): void {
    this.fingerprint = '';
    this.checkedAt = 0;
    this.loadedAt = 0;
  }

  async forEvent(tx: Queryable, eventName: string): Promise<Rule[]> {
    await this.refresh(tx);
    return this.rules.filter((r) => r.events.includes(eventName));
  }

  /** A live rule by id (after a refresh). */
  async byId(tx: Queryable, id: string): Promise<Rule | undefined> {
    await this.refresh(tx);
    return this.rules.find((r) => r.id === id);
  }

  /** Whether any live rule exists (flap damping counts state changes only then). */
  async any(tx: Queryable): Promise<boolean> {
    await this.refresh(tx);
    return this.rules.length > 0;
  }

  private async refresh(tx: Queryable): Promise<void> {
    const now = Date.now();
    if (now - this.checkedAt >= this.ttlMs) {
      const { rows } = await tx.query<{ fp: string }>(
        `SELECT count(*)::text || '/' || coalesce(max(greatest(updated_at, deleted_at))::text, '') AS fp FROM notifications`,
      );
      const fp = rows[0]?.fp ?? '';
      if (fp !== this.fingerprint || now - this.loadedAt >= this.reloadMs) {
        const { rows: live } = await tx.query<RuleRow>(
          `SELECT id, name, namespace, events, filter, person_id, team_id, custom_services, playbook_id, repeat_interval,
                  wait_for, wait_for_eval_period, group_by, group_by_interval, inhibitions, spec, error
           FROM notifications WHERE deleted_at IS NULL ORDER BY created_at, id`,
        );
        this.rules = live.map(ruleFromRow);
        this.fingerprint = fp;
        this.loadedAt = now;
      }
      this.checkedAt = now;
    }
  }
}

/** Records a run-time error on a rule (a filter that fails), or clears it after a success. */
export async function setRuleError(tx: Queryable, rule: Rule, error: string | null): Promise<void> {
  if (rule.error === error) return;
  await tx.query(
    error === null
      ? 'UPDATE notifications SET error = NULL, error_at = NULL WHERE id = $1 AND error IS NOT NULL'
      : 'UPDATE notifications SET error = $2, error_at = now() WHERE id = $1',
    error === null ? [rule.id] : [rule.id, error.slice(0, 2000)],
  );
  // The cached copy follows, so a repeated error is not written on every event.
  rule.error = error;
}
