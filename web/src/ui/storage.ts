// Small typed wrappers over localStorage (sidebar, theme, refresh rate, recent ranges); storage
// failures (private mode, quota) only lose the preference.
import { useCallback, useState } from 'react';

export function readStored<T>(key: string, fallback: T, accept: (v: unknown) => boolean = () => true): T {
  try {
    const raw = localStorage.getItem(key);
    if (raw === null) return fallback;
    const value = JSON.parse(raw) as unknown;
    return accept(value) ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Preference not kept; nothing else depends on it.
  }
}

/** useState persisted under `key`. */
export function useStoredState<T>(key: string, fallback: T, accept?: (v: unknown) => boolean): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => readStored(key, fallback, accept));
  const set = useCallback(
    (next: T) => {
      setValue(next);
      writeStored(key, next);
    },
    [key],
  );
  return [value, set];
}
