// A side-panel list: 50 rows a page from an /api/db view filtered to the component, the next page
// loaded when the end comes within 300 px of view (react-query useInfiniteQuery and an
// IntersectionObserver); loading, error and empty states inline.
import { useInfiniteQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { errorMessage } from '../../../api/client';
import { topologyKeys as keys } from '../keys';
import { PANEL_PAGE_SIZE, topologyApi } from '../topologyApi';

/** How close to the end of the list (px) the next page starts loading. */
export const LOAD_MORE_MARGIN_PX = 300;

export interface PanelSource {
  section: string;
  table: string;
  select: string;
  order?: { column: string; ascending: boolean };
  /** Only rows whose deleted_at is null. */
  liveOnly?: boolean;
}

export function InfiniteList<Row>({
  componentId,
  source,
  render,
  empty,
  rowKey,
}: {
  componentId: string;
  source: PanelSource;
  render(row: Row): ReactNode;
  empty: string;
  rowKey(row: Row, index: number): string;
}) {
  const query = useInfiniteQuery({
    queryKey: keys.panel(componentId, source.section),
    queryFn: ({ pageParam, signal }) => topologyApi.panelPage<Row>(source, componentId, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.data.length, 0);
      if (last.data.length < PANEL_PAGE_SIZE) return undefined;
      if (last.total !== undefined && loaded >= last.total) return undefined;
      return pages.length;
    },
    meta: { silent: true }, // shown in the section
  });

  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    // The scrolling panel is the root, so "near the bottom" means near the bottom of the panel.
    const root = el.closest('[data-panel-scroll]');
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { root, rootMargin: `0px 0px ${LOAD_MORE_MARGIN_PX}px 0px` },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (query.isPending)
    return (
      <p className="flex items-center gap-2 py-3 text-[13px] text-muted">
        <Loader2 className="size-4 animate-spin" aria-hidden /> Loading...
      </p>
    );
  if (query.isError)
    return (
      <p role="alert" className="py-3 text-[13px] text-danger">
        {errorMessage(query.error)}
      </p>
    );
  const rows = query.data.pages.flatMap((p) => p.data);
  const total = query.data.pages[0]?.total;
  if (rows.length === 0) return <p className="py-3 text-[13px] text-muted">{empty}</p>;
  return (
    <div>
      <ul className="divide-y divide-border" data-testid={`panel-${source.section}-rows`} data-total={total}>
        {rows.map((row, i) => (
          <li key={rowKey(row, i)} className="py-2">
            {render(row)}
          </li>
        ))}
      </ul>
      <div ref={sentinel} aria-hidden className="h-px" />
      {isFetchingNextPage && (
        <p className="flex items-center gap-2 py-2 text-[12px] text-muted">
          <Loader2 className="size-3.5 animate-spin" aria-hidden /> Loading more...
        </p>
      )}
    </div>
  );
}
