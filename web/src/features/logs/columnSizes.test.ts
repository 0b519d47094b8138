import { describe, expect, it } from 'vitest';
import { DEFAULT_COLUMN_SIZES, MIN_COLUMN_SIZE, mergeColumnSizes, parseColumnSizes } from './columnSizes';

describe('log column sizes', () => {
  it('reads stored sizes over the defaults', () => {
    expect(parseColumnSizes({ message: 900 })).toEqual({ ...DEFAULT_COLUMN_SIZES, message: 900 });
  });

  it('ignores garbage and clamps sizes that would hide a column', () => {
    expect(parseColumnSizes('nope')).toEqual(DEFAULT_COLUMN_SIZES);
    expect(parseColumnSizes([1, 2])).toEqual(DEFAULT_COLUMN_SIZES);
    expect(parseColumnSizes({ timestamp: 'wide', labels: 3, other: 50 })).toEqual({
      ...DEFAULT_COLUMN_SIZES,
      labels: MIN_COLUMN_SIZE,
    });
  });

  it('keeps only the log columns of the table sizing state', () => {
    expect(mergeColumnSizes(DEFAULT_COLUMN_SIZES, { select: 40, timestamp: 250.4 })).toEqual({
      ...DEFAULT_COLUMN_SIZES,
      timestamp: 250,
    });
  });
});
