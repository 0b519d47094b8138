// The table of every list: server-side paging and sorting (state in the query string via
// ListState), a skeleton while loading, 'No data available' when empty, clickable rows and a
// virtual mode that renders only visible rows and doubles the page size at the end.
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type Row,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { useEffect, useMemo, useRef, type CSSProperties, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { nextVirtualPageSize } from '@opsdeck/common/pagination';
import { errorMessage } from '../api/client';
import { cn } from './cn';
import { NO_DATA } from './empty-state';
import type { ListState } from './list-state';
import { Pagination } from './pagination';
import { Skeleton } from './skeleton';

/**
 * A paged query as DataTable props: its rows and total, loading while the first page or (with
 * placeholder data) the next one loads, and the error as the empty message.
 */
export function pagedQueryProps<TRow>(query: UseQueryResult<{ data: TRow[]; total?: number }>) {
  return {
    data: query.data?.data,
    total: query.data?.total,
    loading: query.isPending || (query.isFetching && query.isPlaceholderData),
    emptyMessage: query.isError ? errorMessage(query.error) : undefined,
  };
}

export interface DataTableProps<TRow> {
  // Column value types differ per column; ColumnDef's second parameter is the cell value type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<TRow, any>[];
  data: TRow[] | undefined;
  /** Total rows on the server (from the count), for paging. */
  total?: number;
  loading?: boolean;
  /** Paging and sorting state; without it the table neither pages nor sorts. */
  list?: ListState;
  pageSizes?: readonly number[];
  getRowId?: (row: TRow, index: number) => string;
  onRowClick?: (row: TRow) => void;
  emptyMessage?: ReactNode;
  /** Virtual mode: one scrolling list, the page size doubling when the end is reached. */
  virtual?: boolean;
  className?: string;
  'aria-label'?: string;
}

const ROW_HEIGHT = 44;

export function DataTable<TRow>({
  columns,
  data,
  total,
  loading,
  list,
  pageSizes,
  getRowId,
  onRowClick,
  emptyMessage = NO_DATA,
  virtual,
  className,
  'aria-label': ariaLabel,
}: DataTableProps<TRow>) {
  const sorting: SortingState = useMemo(
    () => (list?.sortBy ? [{ id: list.sortBy, desc: list.sortOrder === 'desc' }] : []),
    [list?.sortBy, list?.sortOrder],
  );
  const rows = useMemo(() => data ?? [], [data]);

  // No React Compiler here; TanStack's hooks are used as documented.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    enableSorting: !!list,
    enableSortingRemoval: true,
    sortDescFirst: false,
    state: { sorting },
    onSortingChange: (updater) => {
      if (!list) return;
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      list.setSort(first?.id, first?.desc ? 'desc' : 'asc');
    },
  });

  const showSkeleton = loading && rows.length === 0;
  const empty = !loading && rows.length === 0;
  const tableRows = table.getRowModel().rows;

  const header = (
    <thead className="sticky top-0 z-10 bg-surface-muted/95 backdrop-blur">
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id} className="border-b border-border">
          {group.headers.map((h) => {
            const canSort = h.column.getCanSort();
            const dir = h.column.getIsSorted();
            return (
              <th
                key={h.id}
                scope="col"
                style={{ width: h.getSize() !== 150 ? h.getSize() : undefined }}
                aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}
                className="h-10 px-4 text-left text-[12px] font-semibold uppercase tracking-wide text-muted whitespace-nowrap"
              >
                {h.isPlaceholder ? null : canSort ? (
                  <button
                    type="button"
                    onClick={h.column.getToggleSortingHandler()}
                    className="-ml-1 inline-flex cursor-pointer items-center gap-1 rounded px-1 py-0.5 uppercase hover:bg-surface-hover hover:text-foreground"
                  >
                    {flexRender(h.column.columnDef.header, h.getContext())}
                    {dir === 'asc' ? (
                      <ArrowUp className="size-3.5" aria-label="sorted ascending" />
                    ) : dir === 'desc' ? (
                      <ArrowDown className="size-3.5" aria-label="sorted descending" />
                    ) : (
                      <ArrowUpDown className="size-3.5 opacity-40" aria-hidden />
                    )}
                  </button>
                ) : (
                  flexRender(h.column.columnDef.header, h.getContext())
                )}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );

  const renderRow = (row: Row<TRow>, style?: CSSProperties) => (
    <tr
      key={row.id}
      data-index={row.index}
      style={style}
      onClick={onRowClick ? () => onRowClick(row.original) : undefined}
      onKeyDown={
        onRowClick
          ? (e) => {
              if (e.key === 'Enter') onRowClick(row.original);
            }
          : undefined
      }
      tabIndex={onRowClick ? 0 : undefined}
      className={cn(
        'border-b border-border last:border-b-0 transition-colors',
        onRowClick && 'cursor-pointer hover:bg-surface-hover focus-visible:bg-surface-hover',
      )}
    >
      {row.getVisibleCells().map((cell) => (
        <td key={cell.id} className="h-11 px-4 py-2 align-middle text-[13.5px] text-foreground">
          {flexRender(cell.column.columnDef.cell, cell.getContext())}
        </td>
      ))}
    </tr>
  );

  const skeletonRows = Array.from({ length: 6 }, (_, i) => (
    <tr key={`s${i}`} className="border-b border-border last:border-b-0" data-testid="table-skeleton">
      {columns.map((_c, j) => (
        <td key={j} className="h-11 px-4">
          <Skeleton className={cn('h-3.5', j === 0 ? 'w-40' : 'w-24')} />
        </td>
      ))}
    </tr>
  ));

  const emptyRow = (
    <tr>
      <td colSpan={columns.length} className="px-4 py-14 text-center text-sm text-muted">
        {emptyMessage}
      </td>
    </tr>
  );

  return (
    <div className={cn('overflow-hidden rounded-lg border border-border bg-surface shadow-card', className)}>
      {virtual && list ? (
        <VirtualBody
          header={header}
          rows={tableRows}
          renderRow={renderRow}
          skeleton={showSkeleton ? skeletonRows : null}
          empty={empty ? emptyRow : null}
          loading={!!loading}
          onEndReached={() => {
            const next = nextVirtualPageSize(list.pageSize, rows.length, total);
            if (next !== list.pageSize && rows.length >= list.pageSize) list.setPageSize(next);
          }}
          ariaLabel={ariaLabel}
        />
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse" aria-label={ariaLabel} aria-busy={loading || undefined}>
            {header}
            <tbody>{showSkeleton ? skeletonRows : empty ? emptyRow : tableRows.map((r) => renderRow(r))}</tbody>
          </table>
        </div>
      )}
      {list && !virtual && (
        <Pagination
          pageIndex={list.pageIndex}
          pageSize={list.pageSize}
          total={total}
          pageSizes={pageSizes}
          loading={loading}
          onPageIndexChange={list.setPageIndex}
          onPageSizeChange={list.setPageSize}
        />
      )}
      {list && virtual && total !== undefined && (
        <div className="border-t border-border px-4 py-2 text-[13px] text-muted" data-testid="virtual-count">
          {rows.length} of {total} loaded
        </div>
      )}
    </div>
  );
}

function VirtualBody<TRow>({
  header,
  rows,
  renderRow,
  skeleton,
  empty,
  loading,
  onEndReached,
  ariaLabel,
}: {
  header: ReactNode;
  rows: Row<TRow>[];
  renderRow: (row: Row<TRow>, style?: CSSProperties) => ReactNode;
  skeleton: ReactNode;
  empty: ReactNode;
  loading: boolean;
  onEndReached: () => void;
  ariaLabel?: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;
  const endReached = rows.length > 0 && lastIndex >= rows.length - 1;

  useEffect(() => {
    if (endReached && !loading) onEndReached();
  }, [endReached, loading, onEndReached]);

  const paddingTop = items.length ? items[0].start : 0;
  const paddingBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;

  return (
    <div ref={scrollRef} className="max-h-[65vh] overflow-auto" data-testid="virtual-scroll">
      <table className="w-full border-collapse" aria-label={ariaLabel} aria-busy={loading || undefined}>
        {header}
        <tbody>
          {skeleton ?? empty ?? (
            <>
              {paddingTop > 0 && (
                <tr aria-hidden>
                  <td style={{ height: paddingTop }} />
                </tr>
              )}
              {items.map((item) => renderRow(rows[item.index]))}
              {paddingBottom > 0 && (
                <tr aria-hidden>
                  <td style={{ height: paddingBottom }} />
                </tr>
              )}
            </>
          )}
        </tbody>
      </table>
    </div>
  );
}
