// The check drawer's time span for a chosen range (the last hour when none) and the check's
// uptime, latency and chart buckets over it.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { relativePreset, type TimeRange } from '@opsdeck/common/timeRange';
import { resolveRangeOrLog } from '../../../ui/time-range/useTimeRange';
import { healthApi } from '../healthApi';
import { healthKeys } from '../keys';

const CHART_BUCKETS = 60;
const LAST_HOUR = relativePreset('1h');

/** A resolved span: ISO bounds (no end when it runs up to now) and its length for the chart. */
export interface CheckSpan {
  from: string;
  to: string | undefined;
  ms: number;
}

export function useCheckStats(checkId: string, range: TimeRange | undefined) {
  // Resolved once per chosen range, so query keys stay stable between renders.
  const rangeKey = JSON.stringify(range);
  const span: CheckSpan = useMemo(() => {
    // A cleared (or unreadable) range falls back to the last hour.
    const effective = range && resolveRangeOrLog(range) ? range : LAST_HOUR;
    const r = resolveRangeOrLog(effective)!;
    const endsNow = effective.type === 'relative' && !effective.range.startsWith('now+');
    return {
      from: r.from.toISOString(),
      to: endsNow ? undefined : r.to.toISOString(),
      ms: r.to.getTime() - r.from.getTime() || 3_600_000,
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the serialised range
  }, [rangeKey]);

  const stats = useQuery({
    queryKey: healthKeys.stats(checkId, { range: rangeKey }),
    queryFn: ({ signal }) =>
      healthApi.stats(checkId, { start: span.from, end: span.to, buckets: CHART_BUCKETS }, signal),
    staleTime: 0,
    meta: { silent: true },
  });

  return { span, stats };
}
