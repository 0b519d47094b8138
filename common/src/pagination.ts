// Page math of the shared list behaviour (spec/1 §2, §9): page sizes, page count, the go-to-page
// input, offsets for the server, and virtual mode's growing page.

export const PAGE_SIZES = [5, 10, 25, 50, 100, 150, 200, 250, 300, 500, 1000] as const;
/** The generic list limit. */
export const DEFAULT_PAGE_SIZE = 100;

/** ceil(total / pageSize); 0 for an empty list. */
export function pageCount(total: number, pageSize: number): number {
  if (!(pageSize > 0) || !(total > 0)) return 0;
  return Math.ceil(total / pageSize);
}

/** 'Page X of Y' for a zero-based page index; an empty list reads 'Page 1 of 1'. */
export function pageLabel(pageIndex: number, pages: number): string {
  const of = Math.max(pages, 1);
  return `Page ${Math.min(pageIndex + 1, of)} of ${of}`;
}

/** Keeps a zero-based page index inside [0, pages - 1]. */
export function clampPageIndex(pageIndex: number, pages: number): number {
  if (!Number.isFinite(pageIndex)) return 0;
  return Math.max(0, Math.min(Math.trunc(pageIndex), Math.max(pages - 1, 0)));
}

/**
 * The go-to-page input (one-based, minimum 1) → a zero-based page index, or undefined while the
 * input is not a whole number. Numbers past the last page go to the last page.
 */
export function goToPageIndex(input: string, pages: number): number | undefined {
  const text = input.trim();
  if (!/^-?\d+$/.test(text)) return undefined;
  return clampPageIndex(Math.max(1, Number(text)) - 1, pages);
}

/** The rows of a page as the server's offset and limit. */
export function pageWindow(pageIndex: number, pageSize: number): { offset: number; limit: number } {
  return { offset: Math.max(0, pageIndex) * pageSize, limit: pageSize };
}

/** Reads a page size from the query string; anything not offered falls back to the default. */
export function parsePageSize(value: string | null | undefined, fallback: number = DEFAULT_PAGE_SIZE): number {
  const n = Number(value);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : fallback;
}

/** Virtual mode: when the end is reached and more rows exist, the page size doubles. */
export function nextVirtualPageSize(pageSize: number, loaded: number, total: number | undefined): number {
  if (total !== undefined && loaded >= total) return pageSize;
  return pageSize * 2;
}
