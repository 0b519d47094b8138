// Which resources a NotificationSilence holds, pure: its resource id, namespace and `selectors` against an
// event's resource. Selectors are mission-control ResourceSelectors (shared ../selectors/resourceSelector.ts:
// id, name glob, namespace, types with "!x", labelSelector, tagSelector, agent, health, statuses); one
// matching is enough. They match checks, components and catalog items; a `types` word naming a kind
// (check, canary, component, config — as apply reads them) narrows the kind instead, and "canary" matches
// the events of the canary's checks (its id and name; labels are the check's, which include the canary's).
import {
  matchesSelector,
  resourceSelectorSchema,
  selectorProblems,
  type MatchableResource,
  type ResourceSelector,
} from '../selectors/resourceSelector.js';
import { stringList } from '../selectors/labelSelector.js';
import type { EventResource } from './context.js';

/** What a silence row says about the resources it holds (the id columns are read by the caller). */
export interface SilenceScope {
  /** A check, canary, component or config id is set. */
  named: boolean;
  namespace: string | null;
  filter: string | null;
  /** The stored `selectors` (jsonb: a list of selectors, or null). */
  selectors: unknown;
}

const KINDS = ['check', 'canary', 'component', 'config'] as const;
type Kind = (typeof KINDS)[number];
const FIELDS = [
  'id',
  'name',
  'namespace',
  'type',
  'types',
  'labelSelector',
  'tagSelector',
  'agent',
  'health',
  'statuses',
];

const isKind = (t: string): t is Kind => (KINDS as readonly string[]).includes(t.toLowerCase());

/** The stored selectors that set a field (one that sets none matches nothing: it never silences all). */
export function selectorList(value: unknown): ResourceSelector[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (s): s is ResourceSelector =>
      !!s && typeof s === 'object' && FIELDS.some((f) => stringList((s as Record<string, unknown>)[f]).length > 0),
  );
}

/** What is wrong with selectors as written (apply, /api/db writes), by path below `selectors`. */
export function selectorsProblems(value: unknown): { path: (string | number)[]; message: string }[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return [{ path: [], message: 'selectors is a list of resource selectors' }];
  return value.flatMap((raw, i) => {
    const parsed = resourceSelectorSchema.safeParse(raw);
    if (!parsed.success)
      return parsed.error.issues.map((issue) => ({
        path: [i, ...(issue.path as (string | number)[])],
        message: issue.message,
      }));
    return selectorProblems(parsed.data).map((p) => ({ path: [i, ...p.path], message: p.message }));
  });
}

function matchable(r: EventResource): MatchableResource | undefined {
  if (r.kind !== 'check' && r.kind !== 'component' && r.kind !== 'config') return undefined;
  const agent = r.snapshot.agent_id;
  return {
    kind: r.kind,
    id: r.id,
    name: r.name,
    namespace: r.namespace,
    type: r.type,
    labels: r.labels,
    tags: r.tags,
    agentId: typeof agent === 'string' ? agent : null,
    health: r.health,
    status: r.status,
  };
}

/** Whether a selector matches the resource (or, for "canary", a check's canary); throws on a bad label selector. */
export function selectorMatches(s: ResourceSelector, r: EventResource): boolean {
  const target = matchable(r);
  if (!target) return false;
  const types = [...stringList(s.types), ...stringList(s.type)];
  const kinds = types.filter((t) => isKind(t.replace(/^!/, '')));
  if (!kinds.length) return matchesSelector(target, s);
  const rest: ResourceSelector = { ...s, type: undefined, types: types.filter((t) => !kinds.includes(t)) };
  const excluded = kinds.filter((k) => k.startsWith('!')).map((k) => k.slice(1).toLowerCase());
  const included = kinds.filter((k) => !k.startsWith('!')).map((k) => k.toLowerCase());
  const allowed = (k: Kind) => !excluded.includes(k) && (!included.length || included.includes(k));
  if (allowed(r.kind as Kind) && matchesSelector(target, rest)) return true;
  if (r.kind !== 'check' || !r.canaryId || !allowed('canary')) return false;
  const canaryName = r.snapshot.canary_name;
  const canary = { ...target, id: r.canaryId, name: typeof canaryName === 'string' ? canaryName : '' };
  return matchesSelector(canary, rest);
}

/** Whether any of the stored selectors matches; a selector's error names it ("selectors[1]: ..."). */
export function selectorsMatch(selectors: ResourceSelector[], r: EventResource | undefined): boolean {
  if (!r) return false;
  return selectors.some((s, i) => {
    try {
      return selectorMatches(s, r);
    } catch (e) {
      throw new Error(`selectors[${i}]: ${(e as Error).message}`);
    }
  });
}

/**
 * Whether the silence's resource part holds (`idHolds`: one of its id columns names the resource, directly
 * or recursively). Ids and selectors each name resources (either is enough); selectors without ids are
 * narrowed by the namespace; a namespace alone holds its resources; a silence with none of these holds
 * every resource (its filter decides). Throws when a selector cannot be read.
 */
export function scopeHolds(s: SilenceScope, idHolds: boolean, r: EventResource | undefined): boolean {
  const selectors = selectorList(s.selectors);
  if (s.named) return idHolds || (selectors.length > 0 && selectorsMatch(selectors, r));
  const inNamespace = !s.namespace || s.namespace === r?.namespace;
  if (selectors.length) return inNamespace && selectorsMatch(selectors, r);
  return s.namespace ? inNamespace : !!s.filter?.trim();
}

/** Whether the silence names what it holds (else only its filter can make it hold). */
export const hasResource = (s: SilenceScope): boolean =>
  s.named || !!s.namespace || selectorList(s.selectors).length > 0;
