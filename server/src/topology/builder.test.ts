import { describe, expect, it } from 'vitest';
import { checkers } from '../health/checkers/index.js';
import { parseDocuments, ResourceErrors } from '../resources/yaml.js';
import { buildTopology, canaryNameFor } from './builder.js';
import type { BuiltComponent } from './builtComponent.js';
import { planComponents } from './identity.js';
import { parseTopology, type LookupSpec } from './topology.js';

const topology = { id: '00000000-0000-4000-8000-00000000000t', name: 'shop', namespace: 'default', labels: {} };

function parse(spec: string) {
  const [doc] = parseDocuments(
    `apiVersion: canaries.flanksource.com/v1\nkind: Topology\nmetadata:\n  name: shop\n  labels: {team: a}\nspec:\n${spec}`,
  );
  return parseTopology(doc!, checkers);
}

/** Lookups answered from a table keyed by the first check's url. */
function fakeLookup(answers: Record<string, unknown>) {
  const calls: string[] = [];
  const lookup = async (spec: LookupSpec) => {
    const url = String(spec.http?.[0]?.url);
    calls.push(url);
    if (!(url in answers)) throw new Error(`http lookup failed: connection refused`);
    return [answers[url]];
  };
  return { lookup, calls };
}

/** name(type) → children, for readable tree assertions. */
function shape(c: BuiltComponent): unknown {
  const label = c.type ? `${c.name}(${c.type})` : c.name;
  return c.children.length ? { [label]: c.children.map(shape) } : label;
}

describe('parseTopology', () => {
  it('defaults the schedule and makes the spec the root component', () => {
    const def = parse('  type: App\n  icon: shop\n  label: Shop\n  components:\n    - name: web\n');
    expect(def.schedule).toBe('@every 5m');
    expect(def.root).toMatchObject({ name: 'shop', type: 'App', icon: 'shop', text: 'Shop', labels: { team: 'a' } });
  });

  it('reports problems with their line and path', () => {
    try {
      parse(
        [
          '  schedule: "@every 1s"',
          '  components:',
          '    - type: nameless',
          '    - name: looked',
          '      lookup:',
          '        pigeon: [{}]',
          '    - name: bad-check',
          '      checks:',
          '        - selector: {}',
          '        - inline:',
          '            http:',
          '              - url: http://x',
          '    - name: no-display',
          '      lookup:',
          '        http:',
          '          - url: http://x',
          '',
        ].join('\n'),
      );
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ResourceErrors);
      const messages = (e as ResourceErrors).errors.map((x) => x.message);
      expect(messages).toHaveLength(6);
      expect(messages).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^spec\.schedule: .*too frequent.*\(line 7, column \d+\)$/),
          expect.stringMatching(/^spec\.components\[0\]\.name: a component needs a name .*\(line 9, /),
          expect.stringMatching(/^spec\.components\[1\]\.lookup\.pigeon: check type "pigeon" is not supported/),
          expect.stringMatching(/^spec\.components\[2\]\.checks\[0\]\.selector: a selector needs at least one of/),
          expect.stringMatching(/^spec\.components\[2\]\.checks\[1\]\.inline\.http\[0\]\.name: .*\(line 18, /),
          expect.stringMatching(/^spec\.components\[3\]\.lookup\.http\[0\]: a lookup needs a display/),
        ]),
      );
    }
  });
});

describe('buildTopology', () => {
  it('builds a static tree with properties, labels and checks', async () => {
    const def = parse(
      [
        '  type: App',
        '  properties:',
        '    - {name: version, text: "1.2"}',
        '  components:',
        '    - name: web',
        '      type: Service',
        '      labels: {tier: front}',
        '      properties:',
        '        - {name: cpu, value: "20", max: 100, unit: millicores, headline: true}',
        '      checks:',
        '        - selector: {labelSelector: "app=web"}',
        '      components:',
        '        - {name: pod-1, type: Pod}',
        '        - {name: pod-1, type: Pod, icon: pod}',
        '    - name: db',
        '      type: Database',
        '      health: warning',
        '      configs:',
        '        - {name: shop-db, type: Postgres}',
      ].join('\n'),
    );
    const { root, errors, incomplete, count } = await buildTopology(def, { topology, lookup: fakeLookup({}).lookup });
    expect(errors).toEqual([]);
    expect(incomplete).toBe(false);
    expect(shape(root)).toEqual({ 'shop(App)': [{ 'web(Service)': ['pod-1(Pod)'] }, 'db(Database)'] });
    expect(count).toBe(5); // the duplicate pod is merged
    const web = root.children[0]!;
    expect(web.properties).toEqual([{ name: 'cpu', value: 20, max: 100, unit: 'millicores', headline: true }]);
    expect(web.labels).toEqual({ tier: 'front' });
    expect(web.checkSelectors).toEqual([
      { id: expect.stringMatching(/^check:/), selector: { labelSelector: 'app=web' } },
    ]);
    expect(web.children[0]!.icon).toBe('pod');
    expect(root.children[1]!.ownHealth).toBe('warning');
    expect(root.children[1]!.configs[0]!.selector).toEqual({ name: 'shop-db', type: 'Postgres' });
    expect(root.properties).toEqual([{ name: 'version', text: '1.2' }]);
  });

  it('turns a lookup into components and applies forEach to each', async () => {
    const def = parse(
      [
        '  components:',
        '    - name: services',
        '      type: Group',
        '      components:',
        '        - name: discovered',
        '          type: Service',
        '          icon: svc',
        '          lookup:',
        '            http:',
        '              - url: http://lookup/services',
        '                display: {javascript: "json"}',
        '          forEach:',
        '            properties:',
        '              - {name: url, text: "http://{{.component.name}}.local"}',
        '            components:',
        '              - name: "$(.component.name)-db"',
        '                type: Database',
        '            checks:',
        '              - inline:',
        '                  http:',
        '                    - name: "{{.component.name}}-ping"',
        '                      url: "http://{{.component.name}}.local/health"',
        '                      display: {template: "{{.code}}"}',
      ].join('\n'),
    );
    const { lookup } = fakeLookup({
      'http://lookup/services': [
        { name: 'cart', status: 'Running', properties: [{ name: 'replicas', value: 2 }] },
        { name: 'pay', health: 'unhealthy', type: 'PaymentService', labels: { pci: 'true' } },
      ],
    });
    const { root, errors } = await buildTopology(def, { topology, lookup });
    expect(errors).toEqual([]);
    expect(shape(root)).toEqual({
      shop: [
        {
          'services(Group)': [
            { 'cart(Service)': ['cart-db(Database)'] },
            { 'pay(PaymentService)': ['pay-db(Database)'] },
          ],
        },
      ],
    });
    const [cart, pay] = root.children[0]!.children;
    expect(cart!.icon).toBe('svc');
    expect(cart!.status).toBe('Running');
    expect(cart!.properties).toEqual([
      { name: 'replicas', value: 2 },
      { name: 'url', text: 'http://cart.local' },
    ]);
    expect(pay!.ownHealth).toBe('unhealthy');
    expect(pay!.labels).toEqual({ pci: 'true' });
    expect(cart!.inlineChecks).toEqual([
      {
        canaryName: 'shop-cart',
        selectorId: 'inline:shop-cart',
        spec: {
          http: [{ name: 'cart-ping', url: 'http://cart.local/health', display: { template: '{{.code}}' } }],
        },
      },
    ]);
    expect(pay!.inlineChecks[0]!.canaryName).toBe('shop-pay');
  });

  it('merges properties returned by a lookup into the components of the same name', async () => {
    const def = parse(
      [
        '  properties:',
        '    - name: metrics',
        '      lookup:',
        '        http:',
        '          - url: http://lookup/metrics',
        '            display: {expr: "json"}',
        '    - name: owner',
        '      lookup:',
        '        http:',
        '          - url: http://lookup/owner',
        '            display: {expr: "json"}',
        '  components:',
        '    - name: web',
        '      properties: [{name: cpu, value: 1, max: 4}]',
        '    - name: api',
      ].join('\n'),
    );
    const { lookup } = fakeLookup({
      'http://lookup/metrics': [
        {
          name: 'web',
          properties: [
            { name: 'cpu', value: 3 },
            { name: 'memory', value: 512, unit: 'MiB' },
          ],
        },
        { name: 'api', properties: [{ name: 'cpu', value: 2 }] },
        { name: 'ghost', properties: [{ name: 'cpu', value: 9 }] },
      ],
      'http://lookup/owner': 'team-a',
    });
    const { root, errors } = await buildTopology(def, { topology, lookup });
    expect(root.children.map((c) => [c.name, c.properties])).toEqual([
      [
        'web',
        [
          { name: 'cpu', value: 3, max: 4 },
          { name: 'memory', value: 512, unit: 'MiB' },
        ],
      ],
      ['api', [{ name: 'cpu', value: 2 }]],
    ]);
    expect(root.properties).toEqual([{ name: 'owner', text: 'team-a' }]);
    expect(errors).toEqual([expect.stringMatching(/no component named "ghost"/)]);
  });

  it('marks the build incomplete when a lookup fails, keeping the rest', async () => {
    const def = parse(
      [
        '  components:',
        '    - name: fixed',
        '    - name: dynamic',
        '      lookup:',
        '        http:',
        '          - url: http://lookup/down',
        '            display: {expr: "json"}',
      ].join('\n'),
    );
    const { root, errors, incomplete } = await buildTopology(def, { topology, lookup: fakeLookup({}).lookup });
    expect(incomplete).toBe(true);
    expect(shape(root)).toEqual({ shop: ['fixed'] });
    expect(errors).toEqual(['spec.components[1].lookup: http lookup failed: connection refused']);
  });

  it('stops at the component limit and says so', async () => {
    const def = parse(
      [
        '  components:',
        '    - lookup:',
        '        http:',
        '          - url: http://lookup/many',
        '            display: {expr: "json"}',
      ].join('\n'),
    );
    const many = Array.from({ length: 50 }, (_, i) => ({ name: `c${i}` }));
    const { count, incomplete, errors } = await buildTopology(def, {
      topology,
      lookup: fakeLookup({ 'http://lookup/many': many }).lookup,
      maxComponents: 10,
    });
    expect(count).toBe(10);
    expect(incomplete).toBe(true);
    expect(errors).toEqual([expect.stringMatching(/at most 10 components/)]);
  });

  it('names inline canaries uniquely and validly', () => {
    expect(canaryNameFor('Shop', 'Web API', 0)).toBe('shop-web-api');
    expect(canaryNameFor('shop', '--x--', 1)).toBe('shop-x-2');
  });
});

describe('planComponents', () => {
  const tree = (names: string[]): BuiltComponent =>
    ({
      name: 'root',
      type: null,
      children: names.map((n) => ({ name: n, type: 'T', children: [] })),
    }) as unknown as BuiltComponent;

  it('keeps ids for the same identity, revives deleted ones and reports stale rows', () => {
    let n = 0;
    const newId = () => `new-${++n}`;
    const first = planComponents(tree(['a', 'b']), [], newId);
    expect(first.rows.map((r) => [r.node.name, r.id, r.path, r.isLeaf, r.state])).toEqual([
      ['root', 'new-1', '', false, 'new'],
      ['a', 'new-2', 'new-1', true, 'new'],
      ['b', 'new-3', 'new-1', true, 'new'],
    ]);
    const existing = first.rows.map((r) => ({
      id: r.id,
      path: r.path,
      name: r.node.name,
      type: r.node.type,
      deleted_at: r.node.name === 'b' ? '2024-01-01T00:00:00Z' : null,
    }));
    const second = planComponents(tree(['b', 'c']), existing, newId);
    expect(second.rows.map((r) => [r.node.name, r.id, r.state])).toEqual([
      ['root', 'new-1', 'existing'],
      ['b', 'new-3', 'existing'],
      ['c', 'new-4', 'new'],
    ]);
    expect(second.stale).toEqual(['new-2']);
  });
});
