// Playbook runs lists (spec/3 §2 /playbooks/runs; spec/2 §2.2, §2.6): the filter a list is asked
// for, how the runs page keeps it in the query string (playbook, status; the time range and the
// list state are kept by their own hooks), how it becomes /api/db filters over playbook_run_list,
// and where a run's resource links to.
import type { PostgrestQuery } from '../../api/postgrest';
import type { PlaybookRunListRow, PlaybookRunStatus } from './types';

export interface RunsFilter {
  playbook_id?: string;
  config_id?: string;
  component_id?: string;
  check_id?: string;
  status?: PlaybookRunStatus;
  /** ISO instants bounding created_at. */
  from?: string;
  to?: string;
}

export const RUN_STATUSES: ReadonlyArray<{ value: PlaybookRunStatus; label: string }> = [
  { value: 'pending_approval', label: 'Pending Approval' },
  { value: 'pending', label: 'Pending' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'running', label: 'Running' },
  { value: 'completed', label: 'Completed' },
  { value: 'failed', label: 'Failed' },
  { value: 'cancelled', label: 'Cancelled' },
];

/** Default time range of the runs page (spec/3 §9). */
export const DEFAULT_RUNS_RANGE = '7d';
export const DEFAULT_RUNS_PAGE_SIZE = 50;

/** Column ids of the runs table that sort on the server, and the column each sorts on. */
export const RUN_SORT_COLUMNS: Readonly<Record<string, string>> = {
  status: 'status',
  created_at: 'created_at',
  duration_ms: 'duration_ms',
};
export const DEFAULT_RUN_SORT = 'created_at';

function isRunStatus(value: string | null): value is PlaybookRunStatus {
  return RUN_STATUSES.some((s) => s.value === value);
}

/** The runs page's own filters from its query string; unknown statuses are ignored. */
export function readRunsFilter(params: URLSearchParams): Pick<RunsFilter, 'playbook_id' | 'status'> {
  const filter: Pick<RunsFilter, 'playbook_id' | 'status'> = {};
  const playbook = params.get('playbook')?.trim();
  if (playbook && playbook !== 'all') filter.playbook_id = playbook;
  const status = params.get('status');
  if (isRunStatus(status)) filter.status = status;
  return filter;
}

/** Sets (or, for 'all' and empty, removes) one filter in the query string and restarts paging. */
export function writeRunsFilter(
  params: URLSearchParams,
  key: 'playbook' | 'status',
  value: string | undefined,
): URLSearchParams {
  const next = new URLSearchParams(params);
  if (!value || value === 'all') next.delete(key);
  else next.set(key, value);
  next.delete('pageIndex');
  return next;
}

/** Adds the filter to a playbook_run_list query; every value is encoded by the builder. */
export function applyRunsFilter<Q extends PostgrestQuery<unknown>>(q: Q, filter: RunsFilter): Q {
  if (filter.playbook_id) q.eq('playbook_id', filter.playbook_id);
  if (filter.config_id) q.eq('config_id', filter.config_id);
  if (filter.component_id) q.eq('component_id', filter.component_id);
  if (filter.check_id) q.eq('check_id', filter.check_id);
  if (filter.status) q.eq('status', filter.status);
  if (filter.from) q.gte('created_at', filter.from);
  if (filter.to) q.lte('created_at', filter.to);
  return q;
}

/** The server column a sort request maps to; an unknown column falls back to newest first. */
export function runSortColumn(sortBy: string | undefined): string {
  return (sortBy && RUN_SORT_COLUMNS[sortBy]) || DEFAULT_RUN_SORT;
}

export type RunResourceKind = 'config' | 'component' | 'check';

export interface RunResourceRef {
  kind: RunResourceKind;
  id: string;
  href: string;
}

/** The resource a run ran on and its page: the catalog item, the component or the health check. */
export function runResource(
  run: Pick<PlaybookRunListRow, 'config_id' | 'component_id' | 'check_id'>,
): RunResourceRef | undefined {
  if (run.config_id) return { kind: 'config', id: run.config_id, href: `/catalog/${run.config_id}` };
  if (run.component_id) return { kind: 'component', id: run.component_id, href: `/topology/${run.component_id}` };
  if (run.check_id)
    return { kind: 'check', id: run.check_id, href: `/health?${new URLSearchParams({ checkId: run.check_id })}` };
  return undefined;
}
