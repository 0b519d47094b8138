// The catalog list's view state from the query string, with a setter that writes changes back,
// the Hide Deleted preference (kept locally under areDeletedConfigsHidden, default yes) and a
// debounced text field for the search box.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useStoredState } from '../../ui/storage';
import { readCatalogView, writeCatalogView, type CatalogView, type CatalogViewChange } from './catalogParams';

export const HIDE_DELETED_KEY = 'areDeletedConfigsHidden';
export const SEARCH_DEBOUNCE_MS = 400;

export function useCatalogView(): [CatalogView, (changes: CatalogViewChange) => void] {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readCatalogView(params), [params]);
  const update = useCallback(
    (changes: CatalogViewChange) => setParams((prev) => writeCatalogView(prev, changes)),
    [setParams],
  );
  return [view, update];
}

export function useHideDeleted(): [boolean, (v: boolean) => void] {
  return useStoredState<boolean>(HIDE_DELETED_KEY, true, (v) => typeof v === 'boolean');
}

/**
 * A text input's value that follows `value` from the URL and calls `commit` once typing has
 * paused for `ms`.
 */
export function useDebouncedText(value: string, commit: (text: string) => void, ms = SEARCH_DEBOUNCE_MS) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setText(value);
  }
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  }, [commit]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onChange = useCallback(
    (next: string) => {
      setText(next);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => commitRef.current(next), ms);
    },
    [ms],
  );
  return [text, onChange] as const;
}
