// The dashboard's view state from the query string, with a setter that writes changes back
// (replacing the history entry, except for opening and closing the drawer).
import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { readHealthView, writeHealthView, type HealthView, type HealthViewChange } from './healthParams';

export function useHealthView(): [HealthView, (changes: HealthViewChange) => void] {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readHealthView(params), [params]);
  // One setter for the page's life: React Router's changes with every URL change, and the rows of
  // the table, memoised, would all render again when the drawer opens (its ?checkId=).
  const latest = useRef(setParams);
  useLayoutEffect(() => {
    latest.current = setParams;
  }, [setParams]);
  const update = useCallback(
    (changes: HealthViewChange) =>
      latest.current((prev) => writeHealthView(prev, changes), { replace: !('checkId' in changes) }),
    [],
  );
  return [view, update];
}

/** Calls `fn` with the latest value once `ms` have passed without another call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}
