import { describe, expect, it } from 'vitest';
import { ExpressionError, errorAt, positionAt, positionOfLineColumn, sourceSnippet } from './errors.js';
import { LruCache } from './lru.js';

describe('positions', () => {
  it('turns offsets into 1-based lines and columns', () => {
    const src = 'ab\ncde\nf';
    expect(positionAt(src, 0)).toEqual({ offset: 0, line: 1, column: 1 });
    expect(positionAt(src, 4)).toEqual({ offset: 4, line: 2, column: 2 });
    expect(positionAt(src, 7)).toEqual({ offset: 7, line: 3, column: 1 });
    expect(positionAt(src, 99)).toEqual({ offset: 8, line: 3, column: 2 });
  });

  it('turns engine line/column pairs back into offsets', () => {
    expect(positionOfLineColumn('ab\ncde\nf', 2, 3).offset).toBe(5);
  });

  it('shows the offending line with a caret under the column', () => {
    expect(sourceSnippet('one\n  two three', positionAt('one\n  two three', 10))).toBe('    two three\n        ^');
  });

  it('cuts long lines to a window around the column', () => {
    const line = `${'a'.repeat(300)}X${'b'.repeat(300)}`;
    const snippet = sourceSnippet(line, positionAt(line, 300));
    const [text, caret] = snippet.split('\n');
    expect(text?.length).toBeLessThan(110);
    expect(text?.[(caret ?? '').indexOf('^')]).toBe('X');
  });
});

describe('errorAt', () => {
  it('names the place and keeps the position on the error', () => {
    const error = errorAt('cel', 'CEL syntax error', 'Unexpected token', 'a +\nb +', 7);
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error.message).toBe('CEL syntax error at line 2, column 4: Unexpected token\n  b +\n     ^');
    expect(error.position).toEqual({ offset: 7, line: 2, column: 4 });
    expect(error.language).toBe('cel');
    expect(error.expression).toBe('a +\nb +');
  });

  it('quotes the source when the position is unknown', () => {
    expect(errorAt('javascript', 'JavaScript threw a value', 'x', 'throw "x"', undefined).message).toBe(
      'JavaScript threw a value: x\n  in: throw "x"',
    );
  });
});

describe('LruCache', () => {
  it('evicts the least recently used entry past its bound', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('refuses a non-positive bound', () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});
