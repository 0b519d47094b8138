// Which resources a playbook runs on, pure: its `configs` / `components` / `checks` selectors matched
// against one resource. A field of a selector narrows it; a playbook matches a resource when any
// selector of that resource's kind matches every field it sets.
//
//   id            the resource id (a comma-separated list matches any)
//   name          a name or glob ("web-*"), comma-separated for several; "!x" excludes
//   namespace     as name (configs: the namespace tag; components: their topology's namespace)
//   types / type  a list or comma-separated; "!x" excludes (e.g. [http, "!tcp"])
//   labelSelector Kubernetes-style ("app=web,env!=prod,tier in (a,b),!legacy") over labels
//   tagSelector   the same over a config's tags (configs only)
//   agent         "all" (default) any agent, "local" this server only, or an agent id
//   health        a comma-separated list of health (healthy, unhealthy, warning, unknown)
//   statuses      a list of statuses (config status, component status, check status)
import { matchesLabels, parseLabelSelector, stringList } from '../topology/selectors.js';

export const RESOURCE_KINDS = ['config', 'component', 'check'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** The spec field holding the selectors of each kind. */
export const SELECTOR_FIELD: Record<ResourceKind, 'configs' | 'components' | 'checks'> = {
  config: 'configs',
  component: 'components',
  check: 'checks',
};

/** What a person calls each kind (spec/1 §3: Catalog Item, Component, Check). */
export const KIND_NOUN: Record<ResourceKind, string> = {
  config: 'catalog item',
  component: 'component',
  check: 'health check',
};

export interface ResourceSelector {
  id?: string;
  name?: string;
  namespace?: string;
  type?: string;
  types?: string[] | string;
  labelSelector?: string;
  tagSelector?: string;
  agent?: string;
  health?: string;
  statuses?: string[] | string;
}

/** The fields of a resource the selectors read. */
export interface MatchableResource {
  kind: ResourceKind;
  id: string;
  name: string;
  namespace: string | null;
  type: string | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  agentId: string | null;
  health: string | null;
  status: string | null;
}

export const NO_AGENT = '00000000-0000-0000-0000-000000000000';

const globRegex = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');

/** A list of values where "!x" excludes and anything else includes (none included: any passes). */
function matchesList(value: string | null, patterns: string[], glob: boolean): boolean {
  const test = (p: string) => (glob ? globRegex(p).test(value ?? '') : (value ?? '').toLowerCase() === p.toLowerCase());
  const include = patterns.filter((p) => !p.startsWith('!'));
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  if (exclude.some(test)) return false;
  return include.length === 0 || include.some(test);
}

export function matchesSelector(resource: MatchableResource, selector: ResourceSelector): boolean {
  if (selector.id && !stringList(selector.id).includes(resource.id)) return false;
  if (selector.name && !matchesList(resource.name, stringList(selector.name), true)) return false;
  if (selector.namespace && !matchesList(resource.namespace, stringList(selector.namespace), true)) return false;
  const types = [...stringList(selector.types), ...stringList(selector.type)];
  if (types.length && !matchesList(resource.type, types, true)) return false;
  if (selector.labelSelector && !matchesLabels(resource.labels, parseLabelSelector(selector.labelSelector)))
    return false;
  if (selector.tagSelector && !matchesLabels(resource.tags, parseLabelSelector(selector.tagSelector))) return false;
  const agent = selector.agent?.trim();
  if (agent && agent !== 'all') {
    const own = resource.agentId ?? NO_AGENT;
    if (agent === 'local' ? own !== NO_AGENT : own !== agent) return false;
  }
  if (selector.health && !matchesList(resource.health, stringList(selector.health), false)) return false;
  const statuses = stringList(selector.statuses);
  if (statuses.length && !matchesList(resource.status, statuses, false)) return false;
  return true;
}

/** The selectors a playbook declares, by kind. */
export type PlaybookSelectors = Partial<Record<'configs' | 'components' | 'checks', ResourceSelector[]>>;

/** The kinds of resource a playbook runs on (none: it runs without one). */
export function acceptedKinds(spec: PlaybookSelectors): ResourceKind[] {
  return RESOURCE_KINDS.filter((k) => (spec[SELECTOR_FIELD[k]]?.length ?? 0) > 0);
}

export function playbookMatches(spec: PlaybookSelectors, resource: MatchableResource): boolean {
  return (spec[SELECTOR_FIELD[resource.kind]] ?? []).some((s) => matchesSelector(resource, s));
}

/** "a catalog item", "a catalog item or a component". */
export function kindsPhrase(kinds: readonly ResourceKind[]): string {
  const nouns = kinds.map((k) => `a ${KIND_NOUN[k]}`);
  return nouns.length <= 1 ? (nouns[0] ?? '') : `${nouns.slice(0, -1).join(', ')} or ${nouns[nouns.length - 1]}`;
}
