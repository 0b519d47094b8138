// The time range of a page, kept in the query string (rangeType, display, from, to, range,
// timeRange), and its resolution to concrete dates.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  INVALID_RELATIVE_TIME_RANGE,
  resolveTimeRange,
  TimeRangeError,
  timeRangeFromParams,
  timeRangeToParams,
  type ResolvedRange,
  type TimeRange,
} from '@opsdeck/common/timeRange';

/**
 * The range in the query string. A default is written into the URL when the page opens without
 * one, so Clear (which removes every range parameter) really leaves the page without a range.
 */
export function useTimeRangeParams(defaultRange?: TimeRange): {
  range: TimeRange | undefined;
  setRange(range: TimeRange | undefined): void;
} {
  const [params, setParams] = useSearchParams();
  const fromUrl = useMemo(() => timeRangeFromParams(params), [params]);
  // Decided once, when the page opens: the default applies until the user picks or clears a range.
  const [applyDefault, setApplyDefault] = useState(() => !timeRangeFromParams(params) && !!defaultRange);

  useEffect(() => {
    if (applyDefault && defaultRange && !fromUrl)
      setParams((prev) => timeRangeToParams(defaultRange, prev), { replace: true });
  }, [applyDefault, defaultRange, fromUrl, setParams]);

  const setRange = useCallback(
    (range: TimeRange | undefined) => {
      setApplyDefault(false);
      setParams((prev) => {
        const next = timeRangeToParams(range, prev);
        next.delete('pageIndex'); // a new range starts from the first page
        return next;
      });
    },
    [setParams],
  );

  return { range: fromUrl ?? (applyDefault ? defaultRange : undefined), setRange };
}

/**
 * Concrete dates for a range. An unreadable relative range is logged ('Invalid relative time
 * range') and ignored; an unknown quick range throws 'Invalid mapped time range' (spec/3 §8).
 */
export function resolveRangeOrLog(range: TimeRange | undefined, now: Date = new Date()): ResolvedRange | undefined {
  if (!range) return undefined;
  try {
    return resolveTimeRange(range, now);
  } catch (e) {
    if (e instanceof TimeRangeError && e.message === INVALID_RELATIVE_TIME_RANGE) {
      console.error(INVALID_RELATIVE_TIME_RANGE, range);
      return undefined;
    }
    throw e;
  }
}
