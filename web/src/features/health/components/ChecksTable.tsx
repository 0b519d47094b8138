// The table layout (spec/1 §2): columns Checks, Health, Uptime, Latency, Transition and an
// expander. Group rows (when grouping) show the group's health and its passed uptime counts as
// n/m, and fold their checks away; a check row opens the check drawer. Long tables (thousands of
// checks) render only the rows near the viewport: the page's scroll container (the shell's <main>)
// scrolls a table whose rows outside the window are replaced by two spacer rows.
import { groupHealthWord } from '@opsdeck/common/healthChecks';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronDown, ChevronRight } from 'lucide-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { AgentBadge } from '../../../ui/agent-badge';
import { cn } from '../../../ui/cn';
import { NO_DATA } from '../../../ui/empty-state';
import { formatAge, formatDateTime } from '../../../ui/format';
import { Skeleton } from '../../../ui/skeleton';
import { NO_GROUP, type CheckGroup, type SortField } from '../checkFilters';
import type { CheckSummary } from '../types';
import { CheckHealthCell, HealthCell, LatencyCell, latencyOf, UptimeCell } from './CheckCells';
import { CheckIcon } from './CheckIcon';

/** Tables with more rows than this render only the rows near the viewport. */
export const VIRTUALIZE_FROM = 200;
// Row heights as rendered (measured): the virtualizer's estimates, so that measuring the rows after
// the first render changes nothing and renders the table no second time.
const CHECK_ROW_HEIGHT = 48;
/** A check row with a second line (description or endpoint). */
const CHECK_ROW_WITH_SUBTITLE_HEIGHT = 54;
const GROUP_ROW_HEIGHT = 44;
const estimatedHeight = (r: TableRow | undefined) =>
  r?.kind === 'group'
    ? GROUP_ROW_HEIGHT
    : r?.check.description || r?.check.endpoint
      ? CHECK_ROW_WITH_SUBTITLE_HEIGHT
      : CHECK_ROW_HEIGHT;

type TableRow =
  | { kind: 'group'; key: string; group: CheckGroup; open: boolean }
  | { kind: 'check'; key: string; check: CheckSummary; nested: boolean };

const GROUP_HEALTH_LABEL = { good: 'Passing', bad: 'Failing', mixed: 'Mixed', unknown: 'Unknown' } as const;

// Fixed widths for the figures; Checks takes the rest and truncates.
const COLUMNS: Array<{ id: SortField | 'expander'; label: string; className?: string }> = [
  { id: 'name', label: 'Checks' },
  { id: 'health', label: 'Health', className: 'w-[128px]' },
  { id: 'uptime', label: 'Uptime', className: 'w-[152px]' },
  { id: 'latency', label: 'Latency', className: 'w-[104px]' },
  { id: 'transition', label: 'Transition', className: 'w-[124px]' },
  { id: 'expander', label: '', className: 'w-11' },
];

export interface ChecksTableProps {
  groups: CheckGroup[];
  groupBy: string;
  loading: boolean;
  sortBy: SortField;
  sortDesc: boolean;
  onSort(field: SortField, desc: boolean): void;
  onOpen(check: CheckSummary): void;
  /** The pointer is on a check row (or it has focus): a click may follow. */
  onPrepare?(check: CheckSummary): void;
}

export function ChecksTable({
  groups,
  groupBy,
  loading,
  sortBy,
  sortDesc,
  onSort,
  onOpen,
  onPrepare,
}: ChecksTableProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback(
    (key: string) =>
      setCollapsed((prev) => {
        const next = new Set(prev);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
    [],
  );
  const empty = !loading && groups.length === 0;
  const skeleton = loading && groups.length === 0;

  // One entry per row of the table (10,000 and more): built when the groups change, not on every
  // scroll step of the virtualizer.
  const rows = useMemo(() => {
    const out: TableRow[] = [];
    for (const g of groups) {
      if (groupBy === NO_GROUP || g.checks.length === 1) {
        for (const c of g.checks) out.push({ kind: 'check', key: c.id, check: c, nested: false });
        continue;
      }
      const open = !collapsed.has(g.key);
      out.push({ kind: 'group', key: `g:${g.key}`, group: g, open });
      if (open) for (const c of g.checks) out.push({ kind: 'check', key: c.id, check: c, nested: true });
    }
    return out;
  }, [groups, groupBy, collapsed]);

  const virtual = rows.length > VIRTUALIZE_FROM;
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer returns fresh functions by design
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => bodyRef.current?.closest<HTMLElement>('#main') ?? null,
    estimateSize: (i) => estimatedHeight(rows[i]),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 10,
    scrollMargin,
    // The window's height until the scroll container is measured, so that the first render already
    // has the rows on screen (from a 0×0 rect it rendered the overscan only, then all rows again).
    initialRect: { width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight },
  });
  // Where the table body starts inside the scroll container (the filters above it may change height):
  // measured after every render, and set only when it moved, so this settles after one update.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const body = bodyRef.current;
    const main = body?.closest<HTMLElement>('#main');
    if (!body || !main) return;
    const margin = body.getBoundingClientRect().top - main.getBoundingClientRect().top + main.scrollTop;
    if (Math.abs(margin - scrollMargin) > 1) setScrollMargin(margin);
  });

  const render = (r: TableRow, index?: number) =>
    r.kind === 'group' ? (
      <GroupRow
        key={r.key}
        group={r.group}
        open={r.open}
        onToggle={toggle}
        index={index}
        measure={index === undefined ? undefined : virtualizer.measureElement}
      />
    ) : (
      <CheckRow
        key={r.key}
        check={r.check}
        onOpen={onOpen}
        onPrepare={onPrepare}
        nested={r.nested}
        index={index}
        measure={index === undefined ? undefined : virtualizer.measureElement}
      />
    );
  let body: ReactNode;
  if (!virtual) body = rows.map((r) => render(r));
  else {
    const items = virtualizer.getVirtualItems();
    const top = items.length ? items[0]!.start - scrollMargin : 0;
    const bottom = items.length ? virtualizer.getTotalSize() - (items[items.length - 1]!.end - scrollMargin) : 0;
    body = (
      <>
        {top > 0 && (
          <tr aria-hidden data-testid="virtual-spacer">
            <td colSpan={COLUMNS.length} style={{ height: top, padding: 0 }} />
          </tr>
        )}
        {items.map((item) => render(rows[item.index]!, item.index))}
        {bottom > 0 && (
          <tr aria-hidden data-testid="virtual-spacer">
            <td colSpan={COLUMNS.length} style={{ height: bottom, padding: 0 }} />
          </tr>
        )}
      </>
    );
  }

  return (
    <div className="overflow-hidden rounded-lg border border-border bg-surface shadow-card">
      <div className="overflow-x-auto">
        <table
          className="w-full min-w-[720px] table-fixed border-collapse"
          aria-label="Health checks"
          aria-busy={loading || undefined}
          aria-rowcount={virtual ? rows.length + 1 : undefined}
        >
          <thead className="bg-surface-muted/95">
            <tr className="border-b border-border">
              {COLUMNS.map((col) => {
                const sorted = col.id === sortBy;
                return (
                  <th
                    key={col.id}
                    scope="col"
                    className={cn(
                      'h-10 px-4 text-left text-[12px] font-semibold uppercase tracking-wide whitespace-nowrap text-muted',
                      col.className,
                    )}
                    aria-sort={sorted ? (sortDesc ? 'descending' : 'ascending') : undefined}
                  >
                    {col.id === 'expander' ? (
                      <span className="sr-only">Open</span>
                    ) : (
                      <button
                        type="button"
                        className="-ml-1 inline-flex cursor-pointer items-center gap-1 rounded px-1 py-0.5 uppercase hover:bg-surface-hover hover:text-foreground"
                        onClick={() => onSort(col.id as SortField, sorted ? !sortDesc : false)}
                      >
                        {col.label}
                        {sorted ? (
                          sortDesc ? (
                            <ArrowDown className="size-3.5" aria-label="sorted descending" />
                          ) : (
                            <ArrowUp className="size-3.5" aria-label="sorted ascending" />
                          )
                        ) : (
                          <ArrowUpDown className="size-3.5 opacity-40" aria-hidden />
                        )}
                      </button>
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody ref={bodyRef}>
            {skeleton &&
              Array.from({ length: 6 }, (_, i) => (
                <tr key={i} className="border-b border-border last:border-b-0" data-testid="table-skeleton">
                  {COLUMNS.map((c, j) => (
                    <td key={c.id} className="h-12 px-4">
                      <Skeleton className={cn('h-3.5', j === 0 ? 'w-56' : j === 5 ? 'w-4' : 'w-20')} />
                    </td>
                  ))}
                </tr>
              ))}
            {empty && (
              <tr>
                <td colSpan={COLUMNS.length} className="px-4 py-14 text-center text-sm text-muted">
                  {NO_DATA}
                </td>
              </tr>
            )}
            {body}
          </tbody>
        </table>
      </div>
    </div>
  );
}

interface VirtualRowProps {
  /** The row's index when the table is virtualized (measured by the virtualizer). */
  index?: number;
  measure?: (el: HTMLTableRowElement | null) => void;
}

// Rows are memoised: a scroll step, the scroll margin settling or the drawer opening renders only the
// rows whose props changed (each callback is stable), not every row on screen again.
const GroupRow = memo(function GroupRow({
  group,
  open,
  onToggle,
  index,
  measure,
}: { group: CheckGroup; open: boolean; onToggle(key: string): void } & VirtualRowProps) {
  const latest = group.checks.reduce<string | null>(
    (m, c) => (c.last_transition_time && (!m || c.last_transition_time > m) ? c.last_transition_time : m),
    null,
  );
  const worst = group.checks.reduce<number | null>((m, c) => {
    const l = latencyOf(c);
    return l !== null && (m === null || l > m) ? l : m;
  }, null);
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={index === undefined ? undefined : index + 2}
      className="cursor-pointer border-b border-border bg-surface-muted/40 hover:bg-surface-hover"
      onClick={() => onToggle(group.key)}
      data-testid="group-row"
      data-group={group.key}
      aria-expanded={open}
    >
      <td className="h-11 px-4">
        <span className="flex min-w-0 items-center gap-2">
          {open ? (
            <ChevronDown className="size-4 text-muted" aria-hidden />
          ) : (
            <ChevronRight className="size-4 text-muted" aria-hidden />
          )}
          <span className="truncate font-semibold" title={group.key}>
            {group.key}
          </span>
          <span className="shrink-0 rounded-full bg-surface-muted px-1.5 text-[11.5px] font-medium text-muted tabular-nums">
            {group.checks.length}
          </span>
        </span>
      </td>
      <td className="px-4">
        <HealthCell health={groupHealthWord(group.health)} label={GROUP_HEALTH_LABEL[group.health]} />
      </td>
      <td className="px-4 py-2">
        <UptimeCell passed={group.passed} failed={group.total - group.passed} counts />
      </td>
      <td className="px-4">
        <LatencyCell ms={worst} />
      </td>
      <AgeCell value={latest} />
      <td className="px-2">
        <button
          type="button"
          aria-label={open ? `Collapse ${group.key}` : `Expand ${group.key}`}
          className="inline-flex size-7 cursor-pointer items-center justify-center rounded text-muted hover:bg-surface-hover"
          onClick={(e) => {
            e.stopPropagation();
            onToggle(group.key);
          }}
        >
          {open ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
        </button>
      </td>
    </tr>
  );
});

const CheckRow = memo(function CheckRow({
  check,
  onOpen,
  onPrepare,
  nested,
  index,
  measure,
}: {
  check: CheckSummary;
  onOpen(c: CheckSummary): void;
  onPrepare?(c: CheckSummary): void;
  nested?: boolean;
} & VirtualRowProps) {
  const subtitle = check.description || check.endpoint;
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={index === undefined ? undefined : index + 2}
      tabIndex={0}
      data-testid="check-row"
      data-check-id={check.id}
      onClick={() => onOpen(check)}
      onPointerEnter={onPrepare && (() => onPrepare(check))}
      onFocus={onPrepare && (() => onPrepare(check))}
      onKeyDown={(e) => e.key === 'Enter' && onOpen(check)}
      className="cursor-pointer border-b border-border transition-colors last:border-b-0 hover:bg-surface-hover focus-visible:bg-surface-hover"
    >
      <td className={cn('h-12 py-2 pr-4', nested ? 'pl-10' : 'pl-4')}>
        <div className="flex min-w-0 items-center gap-2.5">
          <CheckIcon icon={check.icon} type={check.type} />
          <div className="min-w-0">
            <div className="flex min-w-0 items-center gap-1.5">
              <div className="truncate text-[13.5px] font-medium text-foreground" title={check.name}>
                {check.name}
              </div>
              <AgentBadge name={check.agent_name} />
            </div>
            {subtitle && (
              <div className="truncate text-[12px] text-muted" title={subtitle}>
                {subtitle}
              </div>
            )}
          </div>
        </div>
      </td>
      <td className="px-4">
        <CheckHealthCell check={check} />
      </td>
      <td className="px-4 py-2">
        <UptimeCell passed={check.uptime?.passed ?? 0} failed={check.uptime?.failed ?? 0} />
      </td>
      <td className="px-4">
        <LatencyCell ms={latencyOf(check)} />
      </td>
      <AgeCell value={check.last_transition_time} />
      <td className="px-2 text-subtle">
        <ChevronRight className="size-4" aria-hidden />
      </td>
    </tr>
  );
});

/** '21m ago', with the full date as the cell's tooltip, written when the pointer comes onto the cell:
 *  formatting the dates of every row on screen made the page's first date format (ui/format.ts). */
function AgeCell({ value }: { value: string | null | undefined }) {
  return (
    <td
      className="px-4 text-[13px] text-muted tabular-nums"
      onPointerEnter={(e) => {
        e.currentTarget.title = formatDateTime(value);
      }}
    >
      {formatAge(value)}
    </td>
  );
}
