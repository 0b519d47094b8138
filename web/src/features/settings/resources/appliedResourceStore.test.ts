import { describe, expect, it } from 'vitest';
import { validateJsonSchema } from '@opsdeck/common/jsonSchema';
import { documentOfStored, emptyAppliedDocument, resourceOf } from './appliedResourceStore';
import { settingsResourceKind, TOPOLOGY_RESOURCE_API } from './kinds';
import { storeFor } from './resourceStores';
import type { SettingsResourceRow } from './resourcesApi';
import { topologyResourceJsonSchema } from './schemas';

const stored: SettingsResourceRow = {
  id: 't1',
  name: 'shop',
  namespace: 'prod',
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
  spec: {
    spec: { components: [{ type: 'Service', name: 'cart' }], schedule: '@every 10m', type: 'App' },
    kind: 'Topology',
    metadata: { labels: { team: 'a' }, namespace: 'prod', name: 'shop' },
    apiVersion: 'canaries.flanksource.com/v1',
  },
};

describe('resources applied through a service API (topologies)', () => {
  it('lifts name, namespace, labels and schedule out of a stored Topology', () => {
    expect(documentOfStored(TOPOLOGY_RESOURCE_API, stored)).toEqual({
      name: 'shop',
      namespace: 'prod',
      labels: { team: 'a' },
      schedule: '@every 10m',
      spec: { components: [{ name: 'cart', type: 'Service' }], type: 'App' },
    });
  });

  it('writes the Topology back with apiVersion and kind, in the usual order', () => {
    const resource = resourceOf(TOPOLOGY_RESOURCE_API, documentOfStored(TOPOLOGY_RESOURCE_API, stored));
    expect(Object.keys(resource)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(resource.kind).toBe('Topology');
    expect(Object.keys(resource.spec as object)).toEqual(['schedule', 'components', 'type']);
    expect(validateJsonSchema(topologyResourceJsonSchema, resource)).toEqual([]);
  });

  it('starts a new topology in the default namespace with the default schedule', () => {
    expect(resourceOf(TOPOLOGY_RESOURCE_API, emptyAppliedDocument(TOPOLOGY_RESOURCE_API))).toEqual({
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Topology',
      metadata: { name: '', namespace: 'default' },
      spec: { schedule: '@every 5m' },
    });
  });

  it('refuses a Topology without a name or of another kind before it is sent', () => {
    const errors = validateJsonSchema(topologyResourceJsonSchema, {
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Canary',
      metadata: { name: '' },
      spec: {},
    });
    expect(errors.map((e) => e.path.join('.')).sort()).toEqual(['kind', 'metadata.name']);
  });

  it('gives the topologies kind the applied store and the others theirs', () => {
    const topologies = settingsResourceKind('topologies')!;
    expect(topologies).toMatchObject({
      resource: 'topologies',
      feature: 'settings.topology',
      jobResourceType: 'topology',
    });
    expect(storeFor(topologies).toCode({ name: 'x', spec: {} })).toMatchObject({ kind: 'Topology' });
    expect(storeFor(settingsResourceKind('canaries')!).toCode({ name: 'x', spec: {} })).toMatchObject({
      kind: 'Canary',
    });
    expect(storeFor(settingsResourceKind('teams')!).toCode({ name: 'x' })).toEqual({ name: 'x' });
  });
});
