// Silence selectors against an event's resource: types and labels, kind words, canaries, namespace, ids.
import { describe, expect, it } from 'vitest';
import type { EventResource } from './context.js';
import { hasResource, scopeHolds, selectorList, selectorsMatch } from './silenceSelectors.js';

const check: EventResource = {
  kind: 'check',
  id: 'c1',
  name: 'checkout-http',
  type: 'http',
  namespace: 'prod',
  health: 'unhealthy',
  status: 'unhealthy',
  labels: { team: 'payments' },
  tags: {},
  ancestors: [],
  canaryId: 'k1',
  componentIds: [],
  snapshot: { agent_id: '00000000-0000-0000-0000-000000000000', canary_name: 'shop' },
};
const component: EventResource = {
  ...check,
  kind: 'component',
  id: 'p1',
  name: 'payments-db',
  type: 'database',
  canaryId: null,
  snapshot: {},
};
const scope = (selectors: unknown, more: { named?: boolean; namespace?: string; filter?: string } = {}) => ({
  named: more.named ?? false,
  namespace: more.namespace ?? null,
  filter: more.filter ?? null,
  selectors,
});

describe('silence selectors', () => {
  it('matches when any selector matches: types, labels, name globs', () => {
    const payments = selectorList([{ types: ['http'], labelSelector: 'team=payments' }]);
    expect(selectorsMatch(payments, check)).toBe(true);
    expect(selectorsMatch(payments, { ...check, labels: { team: 'search' } })).toBe(false);
    expect(selectorsMatch(payments, { ...check, type: 'tcp' })).toBe(false);
    expect(selectorsMatch(selectorList([{ name: 'nothing' }, { name: 'payments-*' }]), component)).toBe(true);
    expect(selectorsMatch(payments, undefined)).toBe(false);
    expect(selectorsMatch(payments, { ...check, kind: 'incident' })).toBe(false);
  });

  it('reads kind words in types as the kind, a canary through its checks', () => {
    expect(selectorsMatch(selectorList([{ types: ['component'], name: 'payments-*' }]), component)).toBe(true);
    expect(selectorsMatch(selectorList([{ types: ['check'], name: 'payments-*' }]), component)).toBe(false);
    expect(selectorsMatch(selectorList([{ types: ['!component'] }]), component)).toBe(false);
    expect(selectorsMatch(selectorList([{ types: ['canary'], name: 'shop' }]), check)).toBe(true);
    expect(selectorsMatch(selectorList([{ types: ['canary'], id: 'k1' }]), check)).toBe(true);
    expect(selectorsMatch(selectorList([{ types: ['canary'], name: 'shop' }]), component)).toBe(false);
  });

  it('never lets a selector without a known field hold everything', () => {
    expect(selectorList([{}, { fieldSelector: 'x=y' }, 'text', null])).toEqual([]);
    expect(scopeHolds(scope([{ fieldSelector: 'x=y' }]), false, check)).toBe(false);
    expect(hasResource(scope([{}]))).toBe(false);
  });

  it('combines ids, selectors, namespace and filter', () => {
    const sel = [{ types: ['http'] }];
    expect(scopeHolds(scope(sel), false, check)).toBe(true);
    expect(scopeHolds(scope(sel, { namespace: 'prod' }), false, check)).toBe(true);
    expect(scopeHolds(scope(sel, { namespace: 'dev' }), false, check)).toBe(false);
    // Ids and selectors each name resources: either holds.
    expect(scopeHolds(scope([{ types: ['tcp'] }], { named: true }), true, check)).toBe(true);
    expect(scopeHolds(scope(sel, { named: true }), false, check)).toBe(true);
    expect(scopeHolds(scope(null, { named: true }), false, check)).toBe(false);
    expect(scopeHolds(scope(null, { namespace: 'prod' }), false, check)).toBe(true);
    expect(scopeHolds(scope(null, { filter: 'true' }), false, check)).toBe(true);
    expect(scopeHolds(scope(null), false, check)).toBe(false);
    expect(hasResource(scope(sel))).toBe(true);
  });

  it('names the selector it cannot read', () => {
    expect(() => scopeHolds(scope([{ name: 'x' }, { labelSelector: 'a=b,???' }]), false, check)).toThrow(
      /^selectors\[1\]: label selector "a=b,\?\?\?": cannot read/,
    );
  });
});
