// Merging in the component tree: properties by name, selectors by id, and siblings with the same
// name and type into one component.
import type { BuiltComponent, Property, Selector } from './builtComponent.js';
import { canonicalJson } from './selectors.js';

/** Merges properties by name: a later property updates the fields it sets, new names are appended. */
export function mergeProperties(base: Property[], incoming: readonly Property[]): Property[] {
  const out = base.map((p) => ({ ...p }));
  for (const p of incoming) {
    const i = out.findIndex((q) => q.name === p.name);
    if (i >= 0) out[i] = { ...out[i]!, ...p };
    else out.push({ ...p });
  }
  return out;
}

export function addUnique<T>(list: Selector<T>[], items: readonly Selector<T>[]) {
  for (const item of items) if (!list.some((s) => s.id === item.id)) list.push(item);
}

/** Merges b into a (same name and type): b's set fields win, lists and children are combined. */
function mergeComponent(a: BuiltComponent, b: BuiltComponent): void {
  for (const key of [
    'icon',
    'text',
    'tooltip',
    'owner',
    'externalId',
    'status',
    'statusReason',
    'ownHealth',
  ] as const) {
    if (b[key] !== null) (a as unknown as Record<string, unknown>)[key] = b[key];
  }
  a.hidden = a.hidden || b.hidden;
  a.labels = { ...a.labels, ...b.labels };
  a.properties = mergeProperties(a.properties, b.properties);
  a.logs = [...a.logs.filter((l) => !b.logs.some((x) => x.name === l.name)), ...b.logs];
  addUnique(a.checkSelectors, b.checkSelectors);
  addUnique(a.configs, b.configs);
  addUnique(a.selectors, b.selectors);
  for (const check of b.inlineChecks) {
    const spec = canonicalJson(check.spec);
    if (!a.inlineChecks.some((c) => canonicalJson(c.spec) === spec)) a.inlineChecks.push(check);
  }
  a.parentLookup = b.parentLookup ?? a.parentLookup;
  a.teams = [...new Set([...a.teams, ...b.teams])];
  a.children.push(...b.children);
}

/** One component per name and type among siblings, merged recursively. */
export function mergeSiblings(list: BuiltComponent[]): BuiltComponent[] {
  const byKey = new Map<string, BuiltComponent>();
  for (const c of list) {
    const key = `${c.name}\u0000${c.type ?? ''}`;
    const seen = byKey.get(key);
    if (seen) mergeComponent(seen, c);
    else byKey.set(key, c);
  }
  const out = [...byKey.values()];
  for (const c of out) c.children = mergeSiblings(c.children);
  return out;
}
