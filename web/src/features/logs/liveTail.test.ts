import { describe, expect, it } from 'vitest';
import { combineLines, newLines, prependTail } from './liveTail';
import type { LogLine } from './types';

const line = (id: string): LogLine => ({ id, timestamp: '2024-05-01T10:00:00Z', message: id, labels: {} });
const ids = (ls: LogLine[]) => ls.map((l) => l.id);

describe('live tail', () => {
  it('takes the lines before the first known one', () => {
    expect(ids(newLines([line('5'), line('4'), line('3'), line('2')], new Set(['3', '2', '1'])))).toEqual(['5', '4']);
    expect(newLines([line('3')], new Set(['3']))).toEqual([]);
  });

  it('takes the whole page when none of it is known', () => {
    expect(ids(newLines([line('9'), line('8')], new Set(['1'])))).toEqual(['9', '8']);
  });

  it('shows tail lines first and every id once', () => {
    expect(ids(combineLines([line('5'), line('4')], [[line('4'), line('3')], [line('2')]]))).toEqual([
      '5',
      '4',
      '3',
      '2',
    ]);
  });

  it('keeps the newest lines of a long tail', () => {
    expect(ids(prependTail([line('2'), line('1')], [line('4'), line('3')], 3))).toEqual(['4', '3', '2']);
  });
});
