// The changes screens' filters from the query string (spec/2 §2.3) with a setter, and the time
// range (default: the last 2 days).
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { relativePreset } from '@opsdeck/common/timeRange';
import { useTimeRangeParams } from '../../ui/time-range/useTimeRange';
import { readChangesView, writeChangesView, type ChangesView } from './catalogParams';

export const DEFAULT_CHANGES_RANGE = relativePreset('2d');

export function useChangesView() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readChangesView(params), [params]);
  const update = useCallback(
    (changes: Partial<ChangesView>) =>
      setParams((prev) => writeChangesView(prev, changes), { replace: !('id' in changes) }),
    [setParams],
  );
  const { range, setRange } = useTimeRangeParams(DEFAULT_CHANGES_RANGE);
  return { view, update, range, setRange };
}
