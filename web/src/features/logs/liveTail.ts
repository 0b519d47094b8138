// Live tail: the newest page is read again every few seconds and the lines not seen yet go on top
// (lines are newest first). Pure, so the merging and the de-duplication are tested on their own.
import type { LogLine } from './types';

export const LIVE_TAIL_INTERVAL_MS = 3_000;
/** Lines kept on top by live tail; older ones are dropped from the tail (they stay in the pages). */
export const LIVE_TAIL_MAX_LINES = 5_000;

/**
 * The lines of `newest` (a fresh first page, newest first) that are newer than everything shown:
 * those before the first line already known. When none of the page is known, all of it is new
 * (more arrived than a page holds).
 */
export function newLines(newest: readonly LogLine[], known: ReadonlySet<string>): LogLine[] {
  const out: LogLine[] = [];
  for (const l of newest) {
    if (known.has(l.id)) break;
    out.push(l);
  }
  return out;
}

/** Tail lines on top of the pages' lines, each id once (a line may arrive in both). */
export function combineLines(tail: readonly LogLine[], pages: ReadonlyArray<readonly LogLine[]>): LogLine[] {
  const seen = new Set<string>();
  const out: LogLine[] = [];
  for (const l of [tail, ...pages].flat()) {
    if (seen.has(l.id)) continue;
    seen.add(l.id);
    out.push(l);
  }
  return out;
}

/** New lines prepended to the tail, capped. */
export function prependTail(tail: readonly LogLine[], added: readonly LogLine[], max = LIVE_TAIL_MAX_LINES): LogLine[] {
  return [...added, ...tail].slice(0, max);
}
