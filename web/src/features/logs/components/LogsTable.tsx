// The log lines (spec/2 §2.9): a virtualised list (row estimate 62, overscan 10, rows measured as
// they render) with resizable Timestamp, Message and Labels columns whose sizes are kept in local
// storage, a checkbox per line for linking lines to an incident, older pages read as the end
// comes into view (or with Load more), and the scroll position kept when live tail adds lines on top.
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type ColumnSizingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { mergeColumnSizes, readColumnSizes, writeColumnSizes } from '../columnSizes';
import { formatLabels } from '../download';
import { formatLogTime } from '../logTime';
import type { LogLine } from '../types';
import { MessageText } from './MessageText';

export const ROW_ESTIMATE = 62;
export const OVERSCAN = 10;
const SELECT_WIDTH = 40;

function Labels({ labels }: { labels: Record<string, string> }) {
  const entries = Object.entries(labels ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="flex flex-wrap gap-1" title={formatLabels(labels)}>
      {entries.map(([k, v]) => (
        <span
          key={k}
          className="max-w-full rounded bg-surface-muted px-1.5 py-0.5 font-mono text-[11.5px] break-all text-muted"
        >
          {k}={v}
        </span>
      ))}
    </div>
  );
}

export interface LogsTableProps {
  lines: LogLine[];
  selected: ReadonlySet<string>;
  onSelectedChange(selected: Set<string>): void;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): void;
  /** Shown instead of rows (loading, empty, error). */
  placeholder?: ReactNode;
  footer?: ReactNode;
}

export function LogsTable({
  lines,
  selected,
  onSelectedChange,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  placeholder,
  footer,
}: LogsTableProps) {
  const [sizes, setSizes] = useState(readColumnSizes);
  const columnSizing: ColumnSizingState = useMemo(() => ({ ...sizes, select: SELECT_WIDTH }), [sizes]);

  const allSelected = lines.length > 0 && lines.every((l) => selected.has(l.id));
  const columns = useMemo<ColumnDef<LogLine>[]>(
    () => [
      {
        id: 'select',
        size: SELECT_WIDTH,
        enableResizing: false,
        header: () => (
          <input
            type="checkbox"
            aria-label="Select all lines"
            checked={allSelected}
            onChange={() => onSelectedChange(allSelected ? new Set() : new Set(lines.map((l) => l.id)))}
          />
        ),
        cell: ({ row }) => (
          <input
            type="checkbox"
            aria-label="Select line"
            checked={selected.has(row.original.id)}
            onChange={() => {
              const next = new Set(selected);
              if (!next.delete(row.original.id)) next.add(row.original.id);
              onSelectedChange(next);
            }}
          />
        ),
      },
      {
        id: 'timestamp',
        header: 'Timestamp',
        cell: ({ row }) => (
          <span className="font-mono text-[12px] text-muted tabular-nums" title={row.original.timestamp}>
            {formatLogTime(row.original.timestamp)}
          </span>
        ),
      },
      {
        id: 'message',
        header: 'Message',
        cell: ({ row }) => (
          <span className="font-mono text-[12.5px] whitespace-pre-wrap break-all">
            <MessageText message={row.original.message} />
          </span>
        ),
      },
      { id: 'labels', header: 'Labels', cell: ({ row }) => <Labels labels={row.original.labels} /> },
    ],
    [allSelected, lines, selected, onSelectedChange],
  );

  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: lines,
    columns,
    getRowId: (l) => l.id,
    getCoreRowModel: getCoreRowModel(),
    columnResizeMode: 'onChange',
    state: { columnSizing },
    onColumnSizingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(columnSizing) : updater;
      const merged = mergeColumnSizes(sizes, next);
      setSizes(merged);
      writeColumnSizes(merged);
    },
  });
  const rows = table.getRowModel().rows;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: OVERSCAN,
    // Measured heights follow the line, not its position, since live tail inserts lines on top.
    getItemKey: (i) => lines[i]?.id ?? i,
  });
  const items = virtualizer.getVirtualItems();

  // Live tail put lines on top: keep the lines the reader is looking at in place (unless at the top).
  const firstId = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const previous = firstId.current;
    firstId.current = lines[0]?.id;
    const el = scrollRef.current;
    if (!el || !previous || previous === lines[0]?.id || el.scrollTop === 0) return;
    const added = lines.findIndex((l) => l.id === previous);
    if (added > 0) el.scrollTop += added * ROW_ESTIMATE;
  }, [lines]);

  const lastIndex = items.length ? items[items.length - 1]!.index : -1;
  const nearEnd = rows.length > 0 && lastIndex >= rows.length - 1 - OVERSCAN;
  useEffect(() => {
    if (nearEnd && hasNextPage && !isFetchingNextPage) fetchNextPage();
  }, [nearEnd, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const width = table.getTotalSize();
  return (
    <div className="overflow-hidden rounded-lg border border-border bg-surface shadow-card">
      <div
        ref={scrollRef}
        className="h-[calc(100vh-260px)] min-h-80 overflow-auto"
        data-testid="logs-scroll"
        role="table"
        aria-label="Logs"
        aria-rowcount={rows.length}
      >
        <div
          role="rowgroup"
          className="sticky top-0 z-10 border-b border-border bg-surface-muted/95 backdrop-blur"
          style={{ width }}
        >
          {table.getHeaderGroups().map((group) => (
            <div key={group.id} role="row" className="flex">
              {group.headers.map((h) => (
                <div
                  key={h.id}
                  role="columnheader"
                  className="relative flex h-9 shrink-0 items-center px-3 text-[12px] font-semibold uppercase tracking-wide text-muted"
                  style={{ width: h.getSize() }}
                >
                  {flexRender(h.column.columnDef.header, h.getContext())}
                  {h.column.getCanResize() && (
                    <div
                      role="separator"
                      aria-orientation="vertical"
                      aria-label={`Resize ${h.column.id}`}
                      onMouseDown={h.getResizeHandler()}
                      onTouchStart={h.getResizeHandler()}
                      onDoubleClick={() => h.column.resetSize()}
                      className={cn(
                        'absolute top-0 right-0 h-full w-1.5 cursor-col-resize select-none hover:bg-primary/40',
                        h.column.getIsResizing() && 'bg-primary',
                      )}
                    />
                  )}
                </div>
              ))}
            </div>
          ))}
        </div>
        {placeholder ?? (
          <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize(), width }}>
            {items.map((item) => {
              const row = rows[item.index]!;
              const isSelected = selected.has(row.id);
              return (
                <div
                  key={item.key}
                  role="row"
                  data-index={item.index}
                  data-testid="log-row"
                  aria-selected={isSelected}
                  ref={virtualizer.measureElement}
                  className={cn(
                    'absolute left-0 flex border-b border-border hover:bg-surface-hover',
                    isSelected && 'bg-primary-soft hover:bg-primary-soft',
                  )}
                  style={{ transform: `translateY(${item.start}px)`, width }}
                >
                  {row.getVisibleCells().map((cell) => (
                    <div
                      key={cell.id}
                      role="cell"
                      className="shrink-0 overflow-hidden px-3 py-2 text-[13px]"
                      style={{ width: cell.column.getSize() }}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
        )}
      </div>
      <div className="flex items-center justify-between gap-3 border-t border-border px-4 py-2 text-[13px] text-muted">
        <span data-testid="logs-count">{footer}</span>
        {hasNextPage && (
          <Button variant="outline" size="sm" loading={isFetchingNextPage} onClick={fetchNextPage}>
            Load more
          </Button>
        )}
      </div>
    </div>
  );
}
