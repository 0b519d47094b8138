// Which rows a PATCH/PUT through /api/db names, as the write guards read it.
import { describe, expect, it } from 'vitest';
import { targetIds } from './writeGuards.js';

const A = '0f8fad5b-d9cb-469f-a165-70867728950e';
const B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('targetIds', () => {
  it('reads id=eq and id=in filters and nothing else', () => {
    expect(targetIds([['id', `eq.${A}`]])).toEqual([A]);
    expect(targetIds([['id', `in.(${A},"${B}")`]])).toEqual([A, B]);
    expect(targetIds([['name', 'eq.x']])).toBeUndefined();
    expect(targetIds([['id', 'eq.not-a-uuid']])).toEqual([]);
  });
});
