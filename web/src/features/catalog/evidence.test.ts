import { describe, expect, it } from 'vitest';
import { configLinesEvidence } from './evidence';

const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);

describe('configLinesEvidence', () => {
  it('keeps the selected lines and 3 lines of context around each', () => {
    const e = configLinesEvidence(lines, new Set([5, 15]));
    expect(e.selected_lines).toEqual({ 5: 'line 5', 15: 'line 15' });
    expect(Object.keys(e.lines).map(Number)).toEqual([2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15, 16, 17, 18]);
    expect(e.lines[2]).toBe('line 2');
  });

  it('clips the context at the first and last line', () => {
    const e = configLinesEvidence(lines, new Set([1, 20]));
    expect(Object.keys(e.lines).map(Number)).toEqual([1, 2, 3, 4, 17, 18, 19, 20]);
  });

  it('without a selection, sends the first lines and no selected ones', () => {
    const e = configLinesEvidence(lines, new Set());
    expect(e.selected_lines).toEqual({});
    expect(Object.keys(e.lines).map(Number)).toEqual([1, 2, 3, 4]);
  });
});
