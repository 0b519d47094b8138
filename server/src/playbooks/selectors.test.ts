import { describe, expect, it } from 'vitest';
import type { MatchableResource } from '../selectors/resourceSelector.js';
import { acceptedKinds, kindsPhrase, playbookMatches } from './selectors.js';

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
  it('matches a playbook through the selectors of the resource kind only', () => {
    const spec = { configs: [{ name: 'api' }, { types: ['Kubernetes::Pod'] }], checks: [{ types: ['http'] }] };
    expect(playbookMatches(spec, pod)).toBe(true);
    expect(playbookMatches(spec, { ...pod, kind: 'component' })).toBe(false);
    expect(acceptedKinds(spec)).toEqual(['config', 'check']);
    expect(kindsPhrase(acceptedKinds(spec))).toBe('a catalog item or a health check');
    expect(acceptedKinds({})).toEqual([]);
  });
});
