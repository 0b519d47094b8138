// The dashboard's view state from the query string, with a setter that writes changes back
// (replacing the history entry, except for opening and closing the drawer).
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readHealthView, writeHealthView, type HealthView, type HealthViewChange } from './healthParams';

export function useHealthView(): [HealthView, (changes: HealthViewChange) => void] {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readHealthView(params), [params]);
  const update = useCallback(
    (changes: HealthViewChange) =>
      setParams((prev) => writeHealthView(prev, changes), { replace: !('checkId' in changes) }),
    [setParams],
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
