// Pagination bar of every paged table: first/previous/next/last, 'Page X of Y', a go-to-page
// input (minimum 1) and the page-size picker.
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { useId, useState } from 'react';
import { clampPageIndex, goToPageIndex, PAGE_SIZES, pageCount, pageLabel } from '@opsdeck/common/pagination';
import { Button } from './button';
import { Input, Select } from './input';

export interface PaginationProps {
  pageIndex: number;
  pageSize: number;
  total: number | undefined;
  onPageIndexChange(pageIndex: number): void;
  onPageSizeChange(pageSize: number): void;
  pageSizes?: readonly number[];
  loading?: boolean;
}

export function Pagination({
  pageIndex,
  pageSize,
  total,
  onPageIndexChange,
  onPageSizeChange,
  pageSizes = PAGE_SIZES,
  loading,
}: PaginationProps) {
  const pages = pageCount(total ?? 0, pageSize);
  const current = clampPageIndex(pageIndex, pages);
  const [goTo, setGoTo] = useState('');
  const inputId = useId();
  const first = total ? current * pageSize + 1 : 0;
  const last = total ? Math.min(total, (current + 1) * pageSize) : 0;
  const go = (i: number) => onPageIndexChange(clampPageIndex(i, pages));

  return (
    <div
      className="flex flex-wrap items-center justify-between gap-3 border-t border-border px-4 py-2.5 text-[13px] text-muted"
      data-testid="pagination"
    >
      <div className="flex items-center gap-2">
        <span>Rows per page</span>
        <Select
          aria-label="Page size"
          className="h-8 w-20 text-[13px]"
          value={pageSize}
          onChange={(e) => onPageSizeChange(Number(e.target.value))}
        >
          {pageSizes.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <span className="hidden sm:inline" data-testid="pagination-range">
          {total === undefined ? '' : `${first}–${last} of ${total}`}
        </span>
      </div>
      <div className="flex items-center gap-1">
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="First page"
          disabled={loading || current === 0}
          onClick={() => go(0)}
        >
          <ChevronsLeft className="size-4" />
        </Button>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Previous page"
          disabled={loading || current === 0}
          onClick={() => go(current - 1)}
        >
          <ChevronLeft className="size-4" />
        </Button>
        <span className="px-2 font-medium text-foreground tabular-nums" data-testid="page-label">
          {pageLabel(current, pages)}
        </span>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Next page"
          disabled={loading || current >= pages - 1}
          onClick={() => go(current + 1)}
        >
          <ChevronRight className="size-4" />
        </Button>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Last page"
          disabled={loading || current >= pages - 1}
          onClick={() => go(pages - 1)}
        >
          <ChevronsRight className="size-4" />
        </Button>
        <form
          className="ml-2 flex items-center gap-2"
          // Out-of-range entries are clamped below (0 → page 1), not refused by the browser.
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const target = goToPageIndex(goTo, pages);
            if (target !== undefined) go(target);
            setGoTo('');
          }}
        >
          <label htmlFor={inputId}>Go to page</label>
          <Input
            id={inputId}
            type="number"
            min={1}
            max={Math.max(pages, 1)}
            inputMode="numeric"
            className="h-8 w-16 text-[13px]"
            value={goTo}
            onChange={(e) => setGoTo(e.target.value)}
          />
        </form>
      </div>
    </div>
  );
}
