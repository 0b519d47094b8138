// List state kept in the query string (pageIndex, pageSize, sortBy, sortOrder), so a reload or
// a shared link shows the same page, sorted the same way.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { parsePageSize } from '@opsdeck/common/pagination';

export type SortOrder = 'asc' | 'desc';

export interface ListState {
  pageIndex: number;
  pageSize: number;
  sortBy: string | undefined;
  sortOrder: SortOrder;
  setPageIndex(pageIndex: number): void;
  setPageSize(pageSize: number): void;
  setSort(sortBy: string | undefined, sortOrder?: SortOrder): void;
}

export interface ListStateOptions {
  defaultPageSize?: number;
  defaultSortBy?: string;
  defaultSortOrder?: SortOrder;
  /** Virtual mode: any page size (it doubles as the user scrolls), not only the offered ones. */
  virtual?: boolean;
}

const MAX_VIRTUAL_PAGE_SIZE = 10_000;

export function useListState(options: ListStateOptions = {}): ListState {
  const { defaultPageSize = 100, defaultSortBy, defaultSortOrder = 'desc', virtual = false } = options;
  const [params, setParams] = useSearchParams();

  const pageIndex = Math.max(0, Math.trunc(Number(params.get('pageIndex') ?? 0)) || 0);
  const rawSize = params.get('pageSize');
  const pageSize = virtual
    ? Math.min(Math.max(Math.trunc(Number(rawSize)) || defaultPageSize, 1), MAX_VIRTUAL_PAGE_SIZE)
    : parsePageSize(rawSize, defaultPageSize);
  const sortParam = params.get('sortBy');
  // An explicitly cleared sort is kept as sortBy= (empty) so the default doesn't come back.
  const sortBy = sortParam === null ? defaultSortBy : sortParam || undefined;
  const sortOrder: SortOrder =
    params.get('sortOrder') === 'asc' ? 'asc' : params.get('sortOrder') === 'desc' ? 'desc' : defaultSortOrder;

  const update = useCallback(
    (changes: Record<string, string | undefined>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === undefined) next.delete(k);
            else next.set(k, v);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  return useMemo(
    () => ({
      pageIndex,
      pageSize,
      sortBy,
      sortOrder,
      setPageIndex: (i: number) => update({ pageIndex: i > 0 ? String(i) : undefined }),
      setPageSize: (size: number) => update({ pageSize: String(size), pageIndex: undefined }),
      setSort: (by: string | undefined, order: SortOrder = 'asc') =>
        update({ sortBy: by ?? '', sortOrder: by ? order : undefined, pageIndex: undefined }),
    }),
    [pageIndex, pageSize, sortBy, sortOrder, update],
  );
}
