// The calls of the health area (spec/1 §7): the summary, per-check statistics, the check and its
// status history through /api/db, Run Now, and agent names for badges.
import { api } from '../../api/client';
import { applyConsole, type ConsoleCopy } from './consoleSummary';
import { requestSummary, takePrefetchedSummary, takeReadySummary } from './summaryPrefetch';
import { db, type ListResult } from '../../api/postgrest';
import type {
  CheckComponentLink,
  CheckConfigLink,
  CheckRow,
  CheckStats,
  CheckStatusRow,
  HealthSummary,
  QueuedCheckRun,
  RunCheckResult,
} from './types';

export interface HistoryQuery {
  /** ISO time: only runs after it (time=gt.). */
  from: string;
  /** ISO time: only runs before it, for ranges that end in the past. */
  to?: string;
  /** Healthy (true), Unhealthy (false) or all (undefined). */
  status?: boolean;
  /** Minimum duration in ms (duration=gte.). */
  minDurationMs?: number;
  pageIndex: number;
  pageSize: number;
}

const enc = encodeURIComponent;

/** The generic list limit (spec/1 §9): more links than this are not listed in the drawer. */
const RELATIONSHIPS_LIMIT = 100;

/**
 * One row per linked item (several selectors may link the same one), without soft-deleted items,
 * sorted by name.
 */
function uniqueLive<R>(
  rows: R[],
  item: (r: R) => { id: string; name: string | null; deleted_at: string | null } | null,
): R[] {
  const seen = new Map<string, R>();
  for (const r of rows) {
    const it = item(r);
    if (it && !it.deleted_at && !seen.has(it.id)) seen.set(it.id, r);
  }
  return [...seen.values()].sort((a, b) => (item(a)!.name ?? '').localeCompare(item(b)!.name ?? ''));
}

/** The console copies of the ranges shown lately (the last two: switching back and forth stays cheap). */
const copies = new Map<string, ConsoleCopy>();
const KEPT_COPIES = 2;

/** The early answer the page started from (healthApi.readySummary). */
let taken: { start: string; summary: HealthSummary; at: number } | undefined;

function keep(start: string, copy: ConsoleCopy) {
  copies.delete(start);
  copies.set(start, copy);
  while (copies.size > KEPT_COPIES) copies.delete(copies.keys().next().value!);
}

export const healthApi = {
  /**
   * The summary of a range (`start`: a duration back from now — 1h, 7d, 43200m —, now-2d or an ISO
   * time) in the console format: whole the first time, then the changes since the copy held, or the
   * copy itself (the same object) when the server answers 304.
   */
  async summary(start: string, signal?: AbortSignal): Promise<HealthSummary> {
    const prev = copies.get(start);
    // The first answer of a page load may already be there, read (summaryPrefetch.ts).
    let next = prev ? undefined : await takePrefetchedSummary(start);
    if (!next) {
      const res = await requestSummary(start, { since: prev?.version, etag: prev?.etag, signal });
      if (res.status === 304 && prev) return prev.summary;
      if (!res.data) throw new Error('The summary answer was empty.');
      next = applyConsole(prev, res.data, res.headers.get('etag'));
    }
    keep(start, next);
    return next.summary;
  },

  /**
   * The first summary of a page load when its early answer (summaryPrefetch.ts) is already read, with
   * when it arrived: the page's query starts from it (later polls ask for the changes since it).
   */
  readySummary(start: string): { summary: HealthSummary; at: number } | undefined {
    // Asked again (React's development double render): the same answer while it is the copy held.
    if (taken?.start === start && copies.get(start)?.summary === taken.summary) return taken;
    if (copies.has(start)) return undefined;
    const ready = takeReadySummary(start);
    if (!ready) return undefined;
    keep(start, ready.copy);
    taken = { start, summary: ready.copy.summary, at: ready.at };
    return taken;
  },

  stats: (id: string, range: { start: string; end?: string; buckets: number }, signal?: AbortSignal) =>
    api.get<CheckStats>(`/api/canary/checks/${enc(id)}/stats`, { query: range, signal }),

  /** The check with its canary, or null when there is none (deleted, or a wrong id in the link). */
  async check(id: string, signal?: AbortSignal): Promise<CheckRow | null> {
    const row = await db<CheckRow>('checks').select('*,canaries(name,namespace,labels)').eq('id', id).single(signal);
    return row ?? null;
  },

  /** GET /check_statuses?check_id=eq.{id}&time=gt.{iso}&order=time.desc[&status=eq.x][&duration=gte.n]&limit&offset */
  history(id: string, q: HistoryQuery, signal?: AbortSignal): Promise<ListResult<CheckStatusRow>> {
    const query = db<CheckStatusRow>('check_statuses')
      .select('check_id,time,status,invalid,duration,message,error')
      .eq('check_id', id)
      .gt('time', q.from);
    if (q.to) query.lt('time', q.to);
    query.order('time', { ascending: false });
    if (q.status !== undefined) query.eq('status', q.status);
    if (q.minDurationMs) query.gte('duration', q.minDurationMs);
    return query.page(q.pageIndex, q.pageSize).list(signal);
  },

  /** The live components of a check (GET /check_component_relationships?check_id=eq.{id}&select=…,components(…)). */
  async components(id: string, signal?: AbortSignal): Promise<CheckComponentLink[]> {
    const { data } = await db<CheckComponentLink>('check_component_relationships')
      .select('component_id,components(id,name,icon,type,health,deleted_at)')
      .eq('check_id', id)
      .is('deleted_at', null)
      .limit(RELATIONSHIPS_LIMIT)
      .list(signal);
    return uniqueLive(data, (r) => r.components);
  },

  /** The live configuration items of a check (check_config_relationships with config_items embedded). */
  async configs(id: string, signal?: AbortSignal): Promise<CheckConfigLink[]> {
    const { data } = await db<CheckConfigLink>('check_config_relationships')
      .select('config_id,config_items(id,name,type,health,deleted_at)')
      .eq('check_id', id)
      .is('deleted_at', null)
      .limit(RELATIONSHIPS_LIMIT)
      .list(signal);
    return uniqueLive(data, (r) => r.config_items);
  },

  runNow: (id: string) => api.post<RunCheckResult | QueuedCheckRun>(`/api/canary/run/check/${enc(id)}`),

  async agentNames(ids: readonly string[], signal?: AbortSignal): Promise<Record<string, string>> {
    if (!ids.length) return {};
    const { data } = await db<{ id: string; name: string }>('agents').select('id,name').in('id', ids).list(signal);
    return Object.fromEntries(data.map((a) => [a.id, a.name]));
  },
};
