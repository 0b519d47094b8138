import { describe, expect, it } from 'vitest';
import { arrayParam } from './arrayParam.js';

describe('arrayParam', () => {
  it('writes numbers and tokens as an array literal, null and undefined as NULL', () => {
    expect(arrayParam([])).toBe('{}');
    expect(arrayParam([1, -2, 3.5, null, undefined, 0])).toBe('{1,-2,3.5,NULL,NULL,0}');
    expect(arrayParam(['7d3a1c1e-0000-4000-8000-000000000001', '2026-11-27T19:00:00.120Z'])).toBe(
      '{7d3a1c1e-0000-4000-8000-000000000001,2026-11-27T19:00:00.120Z}',
    );
  });
});
