// Reads of the runs screens through /api/db: a page of playbook_run_list with the names of the
// runs' resources and of the people who started them, one action of a run (the log viewer), and
// the playbooks offered by the runs page's filter.
import { db, type ListResult } from '../../../api/postgrest';
import { playbookKeys } from '../playbooksApi';
import { applyRunsFilter, runResource, runSortColumn, type RunResourceKind, type RunsFilter } from '../runsFilters';
import type { PlaybookRunAction, PlaybookRunListRow } from '../types';

export interface RunsPage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

export interface RunListItem extends PlaybookRunListRow {
  /** The resource's name, when it could be read. */
  resource_name: string | null;
  started_by: string | null;
}

const RESOURCE_TABLES: Record<RunResourceKind, string> = {
  config: 'config_items',
  component: 'components',
  check: 'checks',
};

/**
 * id → name for rows of a table. A table the user may not read (a viewer without checks, say)
 * leaves the ids unnamed rather than failing the list.
 */
export async function namesById(table: string, ids: readonly string[], signal?: AbortSignal) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map<string, string>();
  try {
    const { data } = await db<{ id: string; name: string | null }>(table)
      .select('id,name')
      .in('id', unique)
      .list(signal);
    return new Map(data.filter((r) => r.name).map((r) => [r.id, r.name!]));
  } catch {
    return new Map<string, string>();
  }
}

export const runsApi = {
  async list(filter: RunsFilter, page: RunsPage, signal?: AbortSignal): Promise<ListResult<RunListItem>> {
    const q = applyRunsFilter(db<PlaybookRunListRow>('playbook_run_list').select('*'), filter)
      .order(runSortColumn(page.sortBy), { ascending: page.sortOrder === 'asc' })
      .order('id')
      .page(page.pageIndex, page.pageSize);
    const runs = await q.list(signal);
    const ids = (kind: RunResourceKind) =>
      runs.data.flatMap((r) => {
        const ref = runResource(r);
        return ref?.kind === kind ? [ref.id] : [];
      });
    const [configs, components, checks, people] = await Promise.all([
      namesById(RESOURCE_TABLES.config, ids('config'), signal),
      namesById(RESOURCE_TABLES.component, ids('component'), signal),
      namesById(RESOURCE_TABLES.check, ids('check'), signal),
      namesById(
        'people',
        runs.data.flatMap((r) => (r.created_by ? [r.created_by] : [])),
        signal,
      ),
    ]);
    const byKind = { config: configs, component: components, check: checks };
    return {
      total: runs.total,
      data: runs.data.map((r) => {
        const ref = runResource(r);
        return {
          ...r,
          resource_name: ref ? (byKind[ref.kind].get(ref.id) ?? null) : null,
          started_by: r.created_by ? (people.get(r.created_by) ?? null) : null,
        };
      }),
    };
  },

  action: (id: string, signal?: AbortSignal) =>
    db<PlaybookRunAction>('playbook_run_actions').select('*').eq('id', id).single(signal),

  person: async (id: string, signal?: AbortSignal) => (await namesById('people', [id], signal)).get(id) ?? null,

  playbookOptions: async (signal?: AbortSignal) =>
    (
      await db<{ id: string; name: string; title: string | null }>('playbooks')
        .select('id,name,title')
        .is('deleted_at', null)
        .order('name')
        .limit(500)
        .list(signal)
    ).data,
};

export const runKeys = {
  list: (filter: RunsFilter, page: RunsPage) => [...playbookKeys.runs(filter), page] as const,
  /** Under the run's key, so refreshing the run refreshes its actions too. */
  action: (runId: string, actionId: string) => [...playbookKeys.run(runId), 'action', actionId] as const,
  person: (id: string) => ['people', 'name', id] as const,
  playbookOptions: () => [...playbookKeys.list(), 'options'] as const,
};
