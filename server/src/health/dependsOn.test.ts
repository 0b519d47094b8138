import { describe, expect, it } from 'vitest';
import { DependencyGate, dependencyErrors, type LocatedCheck } from './dependsOn.js';

const check = (name: string, dependsOn?: string[], type = 'exec', i = 0): LocatedCheck => ({
  type,
  name,
  spec: { name, ...(dependsOn ? { dependsOn } : {}) },
  path: ['spec', type, i],
});

const at = (path: (string | number)[]) => ({ line: path.length, column: 1 });

describe('dependencyErrors', () => {
  it('accepts names of other checks, across types', () => {
    expect(dependencyErrors([check('a', ['b']), check('b', [], 'http')], at)).toEqual([]);
  });

  it('refuses an unknown name, naming the checks there are', () => {
    const [e] = dependencyErrors([check('a', ['nope']), check('b', [], 'exec', 1)], at);
    expect(e?.message).toMatch(
      /^spec\.exec\[0\]\.dependsOn\[0\]: no check of this canary is named "nope" \(its checks: b\)/,
    );
    expect(e?.toJSON()).toMatchObject({ path: 'spec.exec[0].dependsOn[0]', line: 5, column: 1 });
  });

  it('refuses a check depending on itself and a name two types share', () => {
    expect(dependencyErrors([check('a', ['a'])], at)[0]?.message).toContain('cannot depend on itself');
    const shared = dependencyErrors([check('a', ['x']), check('x', [], 'http'), check('x', [], 'tcp')], at);
    expect(shared[0]?.message).toContain('"x" names 2 checks (http, tcp)');
  });

  it('refuses a cycle once, with its path', () => {
    const errors = dependencyErrors(
      [check('a', ['b'], 'exec', 0), check('b', ['c'], 'exec', 1), check('c', ['a'], 'exec', 2)],
      at,
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain('dependsOn makes a cycle: a → b → c → a');
    expect(errors[0]?.path).toBe('spec.exec[2].dependsOn[0]');
  });
});

describe('DependencyGate', () => {
  const row = (name: string, dependsOn?: string[]) => ({ name, spec: dependsOn ? { dependsOn } : {} });

  it('orders dependencies first and keeps the rest in order', () => {
    const gate = new DependencyGate([row('a', ['c']), row('b'), row('c', ['d']), row('d')]);
    expect(gate.ordered.map((c) => c.name)).toEqual(['d', 'c', 'a', 'b']);
  });

  it('starts a dependent only after its dependencies finished, even when they fail', async () => {
    const rows = [row('slow'), row('fails'), row('dependent', ['slow', 'fails'])];
    const gate = new DependencyGate(rows);
    const log: string[] = [];
    const run = (c: (typeof rows)[number]) =>
      gate.run(c, async () => {
        log.push(`start ${c.name}`);
        if (c.name === 'slow') await new Promise((r) => setTimeout(r, 30));
        if (c.name === 'fails') throw new Error('boom');
        log.push(`end ${c.name}`);
      });
    // All at once, the dependent first: it still waits.
    await Promise.allSettled([run(rows[2]!), run(rows[0]!), run(rows[1]!)]);
    expect(log.indexOf('start dependent')).toBeGreaterThan(log.indexOf('end slow'));
    expect(log).toContain('start fails');
  });

  it('does not deadlock on a cycle stored before validation existed', async () => {
    const gate = new DependencyGate([row('a', ['b']), row('b', ['a'])]);
    const ran: string[] = [];
    await Promise.all(gate.ordered.map((c) => gate.run(c, async () => void ran.push(c.name))));
    expect(ran.sort()).toEqual(['a', 'b']);
  });
});
