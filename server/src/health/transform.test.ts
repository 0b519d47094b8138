import { describe, expect, it } from 'vitest';
import { readTransform } from './transform.js';

const own = { name: 'src' };

describe('readTransform (canary-checker transform results)', () => {
  it('turns named results into checks of their own, from a list, one object or JSON text', () => {
    const list = readTransform([{ name: 'a' }, { name: 'b', pass: false }], own, 5);
    expect(list.created.map((c) => [c.name, c.pass, c.error, c.durationMs])).toEqual([
      ['a', true, null, 5],
      ['b', false, 'failed', 5],
    ]);
    expect(readTransform({ name: 'a', message: 'm' }, own, 1).created[0]).toMatchObject({ name: 'a', message: 'm' });
    expect(readTransform('[{"name":"x","pass":"true"}]', own, 1).created[0]).toMatchObject({ name: 'x', pass: true });
  });

  it('applies a single unnamed result to the check itself', () => {
    expect(readTransform({ pass: false, error: 'bad', data: { k: 1 } }, own, 1)).toEqual({
      created: [],
      inline: { pass: false, error: 'bad', data: { k: 1 } },
    });
    expect(readTransform([{ detail: '$delete', message: 'ok' }], own, 1).inline).toEqual({
      detail: null,
      message: 'ok',
    });
  });

  it('creates nothing for an empty list, and fails the check with markFailOnEmpty', () => {
    expect(readTransform([], own, 1)).toEqual({ created: [] });
    expect(readTransform('[]', { ...own, markFailOnEmpty: true }, 1).inline).toEqual({
      pass: false,
      error: 'empty result returned from transformation',
    });
  });

  it('refuses what canary-checker refuses', () => {
    expect(() => readTransform([{ pass: true }, { pass: false }], own, 1)).toThrow('more than 1 entry without a name');
    expect(() => readTransform('not json', own, 1)).toThrow(/list or JSON text/);
    expect(() => readTransform(42, own, 1)).toThrow('a transform must return a list of results');
    expect(() => readTransform([{ name: 'a' }, 'x'], own, 1)).toThrow('transform result 1 is not an object');
    expect(() => readTransform([{ name: 'src' }], own, 1)).toThrow(/named like the check itself/);
  });
});
