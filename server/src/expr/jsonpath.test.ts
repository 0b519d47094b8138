import { describe, expect, it } from 'vitest';
import { ExpressionError } from './errors.js';
import { evaluateJsonPath, JSONPATH_MAX_LENGTH } from './jsonpath.js';

const car = {
  reg_no: 'A123',
  owner: { name: 'Ann', address: { city: 'Oslo' } },
  services: [
    { date: '2024-01-01', cost: 100, tags: ['oil'] },
    { date: '2024-06-01', cost: 350, tags: ['brakes', 'oil'] },
  ],
  empty: [],
};

describe('evaluateJsonPath', () => {
  it('returns the value of a path that names one place (scraper ids like $.reg_no)', () => {
    expect(evaluateJsonPath('$.reg_no', car)).toBe('A123');
    expect(evaluateJsonPath('$.owner.address.city', car)).toBe('Oslo');
    expect(evaluateJsonPath("$['owner']['name']", car)).toBe('Ann');
    expect(evaluateJsonPath('$.services[1].cost', car)).toBe(350);
    expect(evaluateJsonPath('$.services[0]', car)).toEqual(car.services[0]);
    expect(evaluateJsonPath('$.empty', car)).toEqual([]);
    expect(evaluateJsonPath('$', car)).toBe(car);
  });

  it('returns undefined when nothing is there', () => {
    expect(evaluateJsonPath('$.missing', car)).toBeUndefined();
    expect(evaluateJsonPath('$.owner.missing.deeper', car)).toBeUndefined();
    expect(evaluateJsonPath('$.services[*].nope', car)).toBeUndefined();
  });

  it('returns all matches of wildcards, recursive descent, filters and slices', () => {
    expect(evaluateJsonPath('$.services[*].date', car)).toEqual(['2024-01-01', '2024-06-01']);
    expect(evaluateJsonPath('$..city', car)).toEqual(['Oslo']);
    expect(evaluateJsonPath('$.services[?(@.cost > 200)].date', car)).toEqual(['2024-06-01']);
    expect(evaluateJsonPath("$.services[?(@.tags.includes('brakes'))].cost", car)).toEqual([350]);
    expect(evaluateJsonPath('$.services[-1:].cost', car)).toEqual([350]);
    expect(evaluateJsonPath('$.services[0,1].cost', car)).toEqual([100, 350]);
  });

  it('evaluates filters safely, never with eval', () => {
    expect(() => evaluateJsonPath('$.services[?(while(true){})]', car)).toThrow(ExpressionError);
    expect(() => evaluateJsonPath('$.services[?(this.constructor)]', car)).toThrow(ExpressionError);
    expect(() => evaluateJsonPath('$.services[?(process.exit())]', car)).toThrow(ExpressionError);
  });

  it('reports errors with the path', () => {
    const error = (() => {
      try {
        evaluateJsonPath('$.services[?(@.cost.x.y)]', car);
      } catch (e) {
        return e as ExpressionError;
      }
      throw new Error('expected an error');
    })();
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error.message).toMatch(/^JSONPath error in "\$\.services\[\?\(@\.cost\.x\.y\)\]": /);
    expect(error.language).toBe('jsonpath');
  });

  it('refuses empty and over-long paths', () => {
    expect(() => evaluateJsonPath(' ', car)).toThrow('JSONPath is empty');
    expect(() => evaluateJsonPath(`$.${'a.'.repeat(JSONPATH_MAX_LENGTH)}b`, car)).toThrow(/JSONPath is too long/);
  });
});
