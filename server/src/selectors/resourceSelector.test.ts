// Resource selectors shared by the engines: each field, agent, checks of what users write.
import { describe, expect, it } from 'vitest';
import {
  matchesSelector,
  NO_AGENT,
  resourceSelectorSchema,
  selectorProblems,
  type MatchableResource,
} from './resourceSelector.js';

const pod: MatchableResource = {
  kind: 'config',
  id: '6f1c9a1e-1111-4c2b-9f10-2a3b4c5d6e7f',
  name: 'web-7d9f',
  namespace: 'shop',
  type: 'Kubernetes::Pod',
  labels: { app: 'web', env: 'prod' },
  tags: { cluster: 'eu' },
  agentId: null,
  health: 'healthy',
  status: 'Running',
};

describe('resource selectors', () => {
  it('matches each field it sets', () => {
    expect(matchesSelector(pod, { types: ['Kubernetes::Pod'] })).toBe(true);
    expect(matchesSelector(pod, { types: 'Kubernetes::*' })).toBe(true);
    expect(matchesSelector(pod, { types: ['!Kubernetes::Pod'] })).toBe(false);
    expect(matchesSelector(pod, { name: 'web-*', namespace: 'shop' })).toBe(true);
    expect(matchesSelector(pod, { name: 'api-*' })).toBe(false);
    expect(matchesSelector(pod, { name: 'api-*,web-*' })).toBe(true);
    expect(matchesSelector(pod, { labelSelector: 'app=web,env!=dev' })).toBe(true);
    expect(matchesSelector(pod, { labelSelector: 'app in (api)' })).toBe(false);
    expect(matchesSelector(pod, { tagSelector: 'cluster=eu' })).toBe(true);
    expect(matchesSelector(pod, { id: pod.id })).toBe(true);
    expect(matchesSelector(pod, { health: 'unhealthy,warning' })).toBe(false);
    expect(matchesSelector(pod, { statuses: ['Running'] })).toBe(true);
  });

  it('reads agent as all, local or an agent id', () => {
    expect(matchesSelector(pod, { agent: 'local' })).toBe(true);
    expect(matchesSelector({ ...pod, agentId: NO_AGENT }, { agent: 'local' })).toBe(true);
    expect(matchesSelector({ ...pod, agentId: 'a1' }, { agent: 'local' })).toBe(false);
    expect(matchesSelector({ ...pod, agentId: 'a1' }, { agent: 'all' })).toBe(true);
    expect(matchesSelector({ ...pod, agentId: 'a1' }, { agent: 'a1' })).toBe(true);
  });

  it('refuses unknown fields, empty selectors and label selectors it cannot read', () => {
    const unknown = resourceSelectorSchema.safeParse({ name: 'x', fieldSelector: 'a=b' });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]?.message).toMatch(/^fieldSelector: not supported in a resource selector/);
    expect(resourceSelectorSchema.safeParse({ types: ['http'], labelSelector: 'team=payments' }).success).toBe(true);
    expect(selectorProblems({})).toEqual([{ path: [], message: expect.stringMatching(/at least one field/) }]);
    expect(selectorProblems({ labelSelector: 'team=payments,???' })).toEqual([
      { path: ['labelSelector'], message: expect.stringMatching(/cannot read "\?\?\?"/) },
    ]);
    expect(selectorProblems({ name: 'web-*', labelSelector: 'team in (a,b)' })).toEqual([]);
  });
});
