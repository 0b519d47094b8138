// Unit tests of item extraction: id/name/type as literal, JSONPath or template; items splitting;
// transform scripts in each language; exclude and mask; owner references; Kubernetes health.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { extractItems, kubernetesHealth, lookupField } from './extract.js';
import type { RawDocument } from './scraper.js';

const doc = (data: unknown, source = 'test.json'): RawDocument => ({ data, source });

describe('lookupField', () => {
  it('reads literals, JSONPath and Go templates', () => {
    const data = { metadata: { name: 'web' }, kind: 'Pod' };
    expect(lookupField('Fixed', data)).toBe('Fixed');
    expect(lookupField('$.metadata.name', data)).toBe('web');
    expect(lookupField('Kubernetes::{{.kind}}', data)).toBe('Kubernetes::Pod');
    expect(lookupField('$.missing', data)).toBeUndefined();
  });
});

describe('extractItems', () => {
  it('splits a document with items and reads the fields of each part', async () => {
    const r = await extractItems(
      { items: '$.people[*]', id: '$.reg_no', name: '$.name', type: 'HR::Person' },
      [
        doc({
          people: [
            { reg_no: 7, name: 'Ann' },
            { reg_no: 8, name: 'Bo' },
          ],
        }),
      ],
      'file[0]',
    );
    expect(r.errors).toEqual([]);
    expect(r.items.map((i) => [i.externalId, i.name, i.type, i.configClass])).toEqual([
      ['7', 'Ann', 'HR::Person', 'HR::Person'],
      ['8', 'Bo', 'HR::Person', 'HR::Person'],
    ]);
  });

  it('reports an item without a type, naming where it came from', async () => {
    const r = await extractItems({ id: '$.id' }, [doc({ id: 1 })], 'file[0]');
    expect(r.items).toEqual([]);
    expect(r.errors[0]).toMatch(/^file\[0\]: test\.json: type is required/);
  });

  it('removes excluded paths and masks values', async () => {
    const r = await extractItems(
      {
        type: 'X',
        transform: {
          exclude: ['$.metadata.managedFields', { jsonpath: '$.status', types: ['Other'] }],
          mask: [
            { selector: "config.kind == 'Secret'", jsonpath: '$.data.password', value: 'md5sum' },
            { jsonpath: '$.data.token', value: '***' },
          ],
        },
      },
      [doc({ kind: 'Secret', metadata: { managedFields: [1] }, status: 'x', data: { password: 'pw', token: 't' } })],
      'file[0]',
    );
    expect(r.items[0]!.config).toEqual({
      data: { password: crypto.createHash('md5').update('pw').digest('hex'), token: '***' },
      kind: 'Secret',
      metadata: {},
      status: 'x',
    });
  });

  it.each([
    ['expr', { expr: '{"name": config.name, "upper": true}' }],
    ['javascript', { javascript: '({ name: config.name, upper: true })' }],
    ['gotemplate', { gotemplate: '{"name": "{{.config.name}}", "upper": true}' }],
  ])('transforms the config with %s', async (_, script) => {
    const r = await extractItems(
      { type: 'X', id: '$.name', transform: { script } },
      [doc({ name: 'a', drop: 1 })],
      'w',
    );
    expect(r.errors).toEqual([]);
    expect(r.items[0]!.config).toEqual({ name: 'a', upper: true });
  });

  it('turns a script that returns a list into several items', async () => {
    const r = await extractItems(
      {
        type: 'X',
        transform: { javascript: 'config.list.map(function (v) { return { id: v, type: "Y", config: { v: v } }; })' },
      },
      [doc({ list: ['a', 'b'] })],
      'w',
    );
    expect(r.items.map((i) => [i.externalId, i.type, i.config])).toEqual([
      ['a', 'Y', { v: 'a' }],
      ['b', 'Y', { v: 'b' }],
    ]);
  });

  it('keeps owner references as the parent and a namespace tag', async () => {
    const r = await extractItems(
      { type: 'Kubernetes::{{.kind}}', id: '$.metadata.uid' },
      [
        doc({
          kind: 'Pod',
          metadata: { uid: 'p', namespace: 'ns', ownerReferences: [{ kind: 'ReplicaSet', name: 'rs', uid: 'r' }] },
        }),
      ],
      'w',
    );
    expect(r.items[0]!.parent).toEqual({ externalId: 'r', type: 'ReplicaSet', name: 'rs', namespace: 'ns' });
    expect(r.items[0]!.tags).toEqual({ namespace: 'ns' });
  });
});

describe('kubernetesHealth', () => {
  it('reads pods by phase and workloads by ready replicas', () => {
    expect(kubernetesHealth({ kind: 'Pod', status: { phase: 'Failed' } }).health).toBe('unhealthy');
    expect(kubernetesHealth({ kind: 'Deployment', spec: { replicas: 3 }, status: { readyReplicas: 2 } })).toEqual({
      health: 'warning',
      status: '2/3 ready',
      ready: false,
    });
    expect(kubernetesHealth({ anything: true }).health).toBeNull();
  });
});
