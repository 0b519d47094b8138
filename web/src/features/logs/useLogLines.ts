// The lines of the current result set: pages read through nextCursor (newest first, older pages
// appended as the list scrolls), and with live tail on, the newest page read again every few
// seconds with the lines not seen yet put on top.
import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { combineLines, LIVE_TAIL_INTERVAL_MS, newLines, prependTail } from './liveTail';
import { logsApi, logsKeys, logsRequest, type LogsFilters } from './logsApi';
import type { LogLine, LogsResponse } from './types';

export interface LogLines {
  lines: LogLine[];
  total: number | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): void;
  refetch(): void;
  /** A live-tail read failed (the last error); the tail keeps polling. */
  tailError: unknown;
  /** What the backend said it could not read (Kubernetes' tail limit), from the pages read so far. */
  truncated: string | undefined;
}

export function useLogLines(filters: LogsFilters | undefined, live: boolean): LogLines {
  const query = useInfiniteQuery<
    LogsResponse,
    Error,
    InfiniteData<LogsResponse>,
    readonly unknown[],
    string | undefined
  >({
    queryKey: filters ? logsKeys.lines(filters) : [...logsKeys.all, 'none'],
    queryFn: ({ pageParam, signal }) => logsApi.lines(logsRequest(filters!, { cursor: pageParam }), signal),
    initialPageParam: undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: !!filters,
    staleTime: 0,
    // A backend error or timeout (502, 504) is the server's answer, not a transport failure:
    // asking again would only double the wait before the message shows.
    retry: (failures, error) => !(error instanceof ApiError && error.status > 0) && failures < 1,
    // The page shows a failed read itself (the backend's timeout message among them).
    meta: { silent: true },
  });

  // Lines that arrived after the first page, newest first; a new result set starts without any.
  const [tail, setTail] = useState<{ key: string; lines: LogLine[] }>({ key: '', lines: [] });
  const [tailError, setTailError] = useState<unknown>();
  const key = JSON.stringify(filters ?? null);
  const tailLines = useMemo(() => (tail.key === key ? tail.lines : []), [tail, key]);

  const pages = query.data?.pages;
  const lines = useMemo(() => combineLines(tailLines, pages?.map((p) => p.results) ?? []), [tailLines, pages]);
  const linesRef = useRef(lines);
  const filtersRef = useRef(filters);
  useEffect(() => {
    linesRef.current = lines;
    filtersRef.current = filters;
  });

  const ready = !!filters && query.isSuccess;
  useEffect(() => {
    if (!live || !ready) return;
    const controller = new AbortController();
    let busy = false;
    const timer = setInterval(async () => {
      const current = filtersRef.current;
      if (busy || !current) return;
      busy = true;
      try {
        const newest = await logsApi.lines(logsRequest(current), controller.signal);
        const added = newLines(newest.results, new Set(linesRef.current.map((l) => l.id)));
        if (added.length) setTail((prev) => ({ key, lines: prependTail(prev.key === key ? prev.lines : [], added) }));
        setTailError(undefined);
      } catch (e) {
        if (!controller.signal.aborted) setTailError(e);
      } finally {
        busy = false;
      }
    }, LIVE_TAIL_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [live, ready, key]);

  return {
    lines,
    total: pages?.[0]?.total,
    truncated: pages?.find((p) => p.truncated)?.truncated?.message,
    isPending: !!filters && query.isPending,
    isFetching: query.isFetching,
    error: query.error,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: () => void query.fetchNextPage(),
    refetch: () => {
      setTail({ key: '', lines: [] });
      void query.refetch();
    },
    tailError: live ? tailError : undefined,
  };
}
