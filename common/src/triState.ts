// Tri-state filters (spec/1 §4, spec/3 job history): per value 0 (no filter), 1 (include) or
// -1 (exclude). Encoded in the query string as `value:1,other:-1` (or as JSON for labels);
// the value 'all' never reaches a query.

export type TriState = 0 | 1 | -1;
export type TriStateMap = Record<string, TriState>;

function isTriState(n: unknown): n is TriState {
  return n === 0 || n === 1 || n === -1;
}

/** Next state when a value is clicked: none → include → exclude → none. */
export function cycleTriState(state: TriState): TriState {
  return state === 0 ? 1 : state === 1 ? -1 : 0;
}

/** Drops unset values and 'all'. */
export function activeTriStates(map: TriStateMap): TriStateMap {
  const out: TriStateMap = {};
  for (const [key, state] of Object.entries(map)) {
    if (state !== 0 && key.toLowerCase() !== 'all') out[key] = state;
  }
  return out;
}

/** `{a: 1, b: -1}` → 'a:1,b:-1'. Keys are percent-encoded where they would break the list. */
export function encodeTriStateList(map: TriStateMap): string {
  return Object.entries(activeTriStates(map))
    .map(([key, state]) => `${key.replace(/[%,:]/g, (c) => encodeURIComponent(c))}:${state}`)
    .join(',');
}

/** 'a:1,b:-1' → `{a: 1, b: -1}`; malformed entries and 'all' are ignored. */
export function decodeTriStateList(text: string | null | undefined): TriStateMap {
  const out: TriStateMap = {};
  if (!text) return out;
  for (const part of text.split(',')) {
    const at = part.lastIndexOf(':');
    if (at <= 0) continue;
    const state = Number(part.slice(at + 1));
    let key: string;
    try {
      key = decodeURIComponent(part.slice(0, at));
    } catch {
      continue;
    }
    if (isTriState(state) && state !== 0 && key.toLowerCase() !== 'all') out[key] = state;
  }
  return out;
}

/** JSON form used by label filters (`labels={"env=prod":1}`); '' when nothing is set. */
export function encodeTriStateJson(map: TriStateMap): string {
  const active = activeTriStates(map);
  return Object.keys(active).length ? JSON.stringify(active) : '';
}

export function decodeTriStateJson(text: string | null | undefined): TriStateMap {
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  const out: TriStateMap = {};
  for (const [key, state] of Object.entries(parsed)) {
    if (isTriState(state) && state !== 0 && key.toLowerCase() !== 'all') out[key] = state;
  }
  return out;
}

/** Splits a filter into the values to include and to exclude, ready for in.() / not.in.(). */
export function triStateSplit(map: TriStateMap): { include: string[]; exclude: string[] } {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const [key, state] of Object.entries(activeTriStates(map))) (state === 1 ? include : exclude).push(key);
  return { include, exclude };
}
