import { describe, expect, it } from 'vitest';
import {
  clampPageIndex,
  goToPageIndex,
  nextVirtualPageSize,
  PAGE_SIZES,
  pageCount,
  pageLabel,
  pageWindow,
  parsePageSize,
} from './pagination.js';

describe('page math', () => {
  it('offers the page sizes of spec/1 §9', () => {
    expect(PAGE_SIZES).toEqual([5, 10, 25, 50, 100, 150, 200, 250, 300, 500, 1000]);
  });

  it('counts pages as ceil(total / pageSize)', () => {
    expect(pageCount(0, 50)).toBe(0);
    expect(pageCount(1, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
    expect(pageCount(120, 25)).toBe(5);
    expect(pageCount(120, 0)).toBe(0);
  });

  it("reads 'Page X of Y' one-based, and 'Page 1 of 1' for an empty list", () => {
    expect(pageLabel(0, 5)).toBe('Page 1 of 5');
    expect(pageLabel(4, 5)).toBe('Page 5 of 5');
    expect(pageLabel(0, 0)).toBe('Page 1 of 1');
  });

  it('keeps a page index within the pages', () => {
    expect(clampPageIndex(-3, 5)).toBe(0);
    expect(clampPageIndex(9, 5)).toBe(4);
    expect(clampPageIndex(2, 0)).toBe(0);
    expect(clampPageIndex(Number.NaN, 5)).toBe(0);
  });

  it('turns the go-to-page input into a page index with a minimum of 1', () => {
    expect(goToPageIndex('1', 5)).toBe(0);
    expect(goToPageIndex('3', 5)).toBe(2);
    expect(goToPageIndex('0', 5)).toBe(0);
    expect(goToPageIndex('-4', 5)).toBe(0);
    expect(goToPageIndex('99', 5)).toBe(4);
    expect(goToPageIndex('', 5)).toBeUndefined();
    expect(goToPageIndex('2.5', 5)).toBeUndefined();
    expect(goToPageIndex('abc', 5)).toBeUndefined();
  });

  it('asks the server for offset and limit', () => {
    expect(pageWindow(0, 50)).toEqual({ offset: 0, limit: 50 });
    expect(pageWindow(3, 25)).toEqual({ offset: 75, limit: 25 });
  });

  it('reads only offered page sizes from the query string', () => {
    expect(parsePageSize('25')).toBe(25);
    expect(parsePageSize('7')).toBe(100);
    expect(parsePageSize(null, 50)).toBe(50);
  });

  it('doubles the page size in virtual mode until everything is loaded', () => {
    expect(nextVirtualPageSize(50, 50, 500)).toBe(100);
    expect(nextVirtualPageSize(100, 100, undefined)).toBe(200);
    expect(nextVirtualPageSize(100, 80, 80)).toBe(100);
  });
});
