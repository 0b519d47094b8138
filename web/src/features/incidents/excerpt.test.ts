import { describe, expect, it } from 'vitest';
import { excerpt } from './excerpt';

const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
const numbers = (groups: ReturnType<typeof excerpt>) => groups.map((g) => g.map((l) => l.number));

describe('evidence excerpts', () => {
  it('shows 3 context lines around a selected line, clipped at the ends', () => {
    expect(numbers(excerpt(lines, [10]))).toEqual([[7, 8, 9, 10, 11, 12, 13]]);
    expect(numbers(excerpt(lines, [2]))).toEqual([[1, 2, 3, 4, 5]]);
    expect(
      excerpt(lines, [10])[0]
        .filter((l) => l.selected)
        .map((l) => l.text),
    ).toEqual(['line 10']);
  });

  it('merges overlapping windows and keeps distant ones apart', () => {
    expect(numbers(excerpt(lines, [5, 8]))).toEqual([[2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]);
    expect(numbers(excerpt(lines, [3, 18]))).toEqual([
      [1, 2, 3, 4, 5, 6],
      [15, 16, 17, 18, 19, 20],
    ]);
  });

  it('reads line maps and selected-line maps, and shows the first lines without a selection', () => {
    expect(numbers(excerpt({ '40': 'a', '41': 'b', '45': 'c' }, { '41': true }))).toEqual([[40, 41]]);
    expect(numbers(excerpt(lines, []))).toEqual([[1, 2, 3, 4, 5, 6, 7]]);
    expect(excerpt([], [1])).toEqual([]);
  });
});
