import { describe, expect, it } from 'vitest';
import { checkHealth, componentHealthEvents, normalizeHealth, rollupHealth, rollupTree } from './rollup.js';

describe('rollupHealth', () => {
  it('is unknown when nothing is known', () => {
    expect(rollupHealth([])).toBe('unknown');
    expect(rollupHealth([null, undefined, 'unknown'])).toBe('unknown');
  });

  it('lets unhealthy beat warning beat healthy, ignoring unknown', () => {
    expect(rollupHealth(['healthy', 'unknown'])).toBe('healthy');
    expect(rollupHealth(['healthy', 'warning', 'healthy'])).toBe('warning');
    expect(rollupHealth(['warning', 'unhealthy', 'healthy'])).toBe('unhealthy');
    expect(rollupHealth(['unhealthy', 'unknown'])).toBe('unhealthy');
  });
});

describe('health words', () => {
  it('reads the words specs and lookups use', () => {
    expect(normalizeHealth('Healthy')).toBe('healthy');
    expect(normalizeHealth('error')).toBe('unhealthy');
    expect(normalizeHealth('degraded')).toBe('warning');
    expect(normalizeHealth('Running')).toBeNull();
    expect(normalizeHealth(3)).toBeNull();
  });

  it('treats a check that never ran as unknown', () => {
    expect(checkHealth('healthy')).toBe('healthy');
    expect(checkHealth('unhealthy')).toBe('unhealthy');
    expect(checkHealth(null)).toBe('unknown');
  });
});

describe('rollupTree', () => {
  const nodes = [
    { id: 'root', parentId: null, ownHealth: null },
    { id: 'a', parentId: 'root', ownHealth: null },
    { id: 'b', parentId: 'root', ownHealth: 'warning' as const },
    { id: 'a1', parentId: 'a', ownHealth: null },
    { id: 'a2', parentId: 'a', ownHealth: null },
  ];

  it('rolls checks and children up to the root, counting each check once per subtree', () => {
    const r = rollupTree(nodes, [
      { componentId: 'a1', checkId: 'c1', status: 'healthy' },
      { componentId: 'a2', checkId: 'c2', status: 'unhealthy' },
      { componentId: 'a2', checkId: 'c1', status: 'healthy' },
      { componentId: 'b', checkId: 'c3', status: null },
    ]);
    expect(r.get('a1')!.health).toBe('healthy');
    expect(r.get('a2')!.health).toBe('unhealthy');
    expect(r.get('a')!.health).toBe('unhealthy');
    expect(r.get('b')!.health).toBe('warning');
    expect(r.get('root')!.health).toBe('unhealthy');
    expect(r.get('a')!.summary).toEqual({
      checks: { healthy: 1, unhealthy: 1, warning: 0 },
      incidents: 0,
      insights: 0,
    });
    expect(r.get('root')!.summary.checks).toEqual({ healthy: 1, unhealthy: 1, warning: 0 });
    expect(r.get('b')!.summary.checks).toEqual({ healthy: 0, unhealthy: 0, warning: 0 });
  });

  it('leaves a component with nothing known unknown', () => {
    const r = rollupTree([{ id: 'x', parentId: null, ownHealth: null }], []);
    expect(r.get('x')!.health).toBe('unknown');
  });

  it('counts related components toward the selecting one, and survives cycles', () => {
    const r = rollupTree(
      [
        { id: 'p', parentId: null, ownHealth: 'healthy' },
        { id: 'q', parentId: null, ownHealth: 'unhealthy' },
      ],
      [],
      [
        { parentId: 'p', childId: 'q' },
        { parentId: 'q', childId: 'p' },
      ],
    );
    expect(r.get('p')!.health).toBe('unhealthy');
    expect(r.get('q')!.health).toBe('unhealthy');
  });

  it('handles deep trees without recursion limits', () => {
    const deep = Array.from({ length: 20_000 }, (_, i) => ({
      id: `n${i}`,
      parentId: i ? `n${i - 1}` : null,
      ownHealth: i === 19_999 ? ('warning' as const) : null,
    }));
    expect(rollupTree(deep, []).get('n0')!.health).toBe('warning');
  });
});

describe('rollupTree with the catalog and incidents', () => {
  const nodes = [
    { id: 'root', parentId: null, ownHealth: null },
    { id: 'a', parentId: 'root', ownHealth: null },
    { id: 'b', parentId: 'root', ownHealth: null },
  ];

  it('rolls the health of linked configs up like a check, ignoring unknown ones', () => {
    const r = rollupTree(nodes, [{ componentId: 'b', checkId: 'c1', status: 'healthy' }], [], {
      configs: [
        { componentId: 'a', configId: 'cfg1', health: 'warning' },
        { componentId: 'a', configId: 'cfg2', health: null },
        { componentId: 'b', configId: 'cfg3', health: 'unknown' },
      ],
    });
    expect(r.get('a')!.health).toBe('warning');
    expect(r.get('b')!.health).toBe('healthy');
    expect(r.get('root')!.health).toBe('warning');
    // Configs are not checks: the counts stay those of the checks.
    expect(r.get('root')!.summary.checks).toEqual({ healthy: 1, unhealthy: 0, warning: 0 });
  });

  it('counts open incidents and insights of the subtree, each once', () => {
    const r = rollupTree(nodes, [], [], {
      incidents: [
        { componentId: 'a', id: 'inc1' },
        { componentId: 'b', id: 'inc1' },
        { componentId: 'b', id: 'inc2' },
      ],
      insights: [
        { componentId: 'a', id: 'ins1' },
        { componentId: 'missing', id: 'ins2' },
      ],
    });
    expect(r.get('a')!.summary).toMatchObject({ incidents: 1, insights: 1 });
    expect(r.get('b')!.summary).toMatchObject({ incidents: 2, insights: 0 });
    expect(r.get('root')!.summary).toMatchObject({ incidents: 2, insights: 1 });
    // Incidents and insights say nothing about health.
    expect(r.get('root')!.health).toBe('unknown');
  });
});

describe('componentHealthEvents', () => {
  it('emits component.<health> only for components whose health moved', () => {
    const events = componentHealthEvents([
      { id: '1', name: 'api', type: 'service', topologyId: 't', previous: 'healthy', health: 'unhealthy' },
      { id: '2', name: 'db', type: null, topologyId: 't', previous: 'warning', health: 'warning' },
      { id: '3', name: 'web', type: null, topologyId: null, previous: 'unknown', health: 'healthy' },
    ]);
    expect(events.map((e) => e.name)).toEqual(['component.unhealthy', 'component.healthy']);
    expect(events[0]!.properties).toEqual({
      id: '1',
      name: 'api',
      type: 'service',
      topology_id: 't',
      status: 'unhealthy',
      previous: 'healthy',
    });
  });
});
