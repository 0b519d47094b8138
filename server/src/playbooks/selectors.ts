// Which resources a playbook runs on, pure: its `configs` / `components` / `checks` selectors matched
// against one resource. A playbook matches a resource when any selector of that resource's kind matches
// (the fields of a selector and their matching: ../selectors/resourceSelector.ts, shared plumbing).
import {
  matchesSelector,
  RESOURCE_KINDS,
  type MatchableResource,
  type ResourceKind,
  type ResourceSelector,
} from '../selectors/resourceSelector.js';

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
