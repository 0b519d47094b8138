import { describe, expect, it } from 'vitest';
import {
  acceptedKinds,
  kindsPhrase,
  matchesSelector,
  NO_AGENT,
  playbookMatches,
  type MatchableResource,
} from './selectors.js';

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

describe('playbook resource selectors', () => {
  it('matches each field it sets', () => {
    expect(matchesSelector(pod, { types: ['Kubernetes::Pod'] })).toBe(true);
    expect(matchesSelector(pod, { types: 'Kubernetes::*' })).toBe(true);
    expect(matchesSelector(pod, { types: ['!Kubernetes::Pod'] })).toBe(false);
    expect(matchesSelector(pod, { name: 'web-*', namespace: 'shop' })).toBe(true);
    expect(matchesSelector(pod, { name: 'api-*' })).toBe(false);
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

  it('matches a playbook through the selectors of the resource kind only', () => {
    const spec = { configs: [{ name: 'api' }, { types: ['Kubernetes::Pod'] }], checks: [{ types: ['http'] }] };
    expect(playbookMatches(spec, pod)).toBe(true);
    expect(playbookMatches(spec, { ...pod, kind: 'component' })).toBe(false);
    expect(acceptedKinds(spec)).toEqual(['config', 'check']);
    expect(kindsPhrase(acceptedKinds(spec))).toBe('a catalog item or a health check');
    expect(acceptedKinds({})).toEqual([]);
  });
});
