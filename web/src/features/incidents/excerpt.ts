// Evidence excerpts (spec/2 §5): the selected lines of a config or log with 3 lines of context
// around them; overlapping or touching windows merge, and gaps between them are marked.

export const CONTEXT_LINES = 3;

export interface ExcerptLine {
  /** 1-based line number. */
  number: number;
  text: string;
  selected: boolean;
}

/** Lines as stored: an array (line 1 first) or a map of line number to text. */
export type StoredLines = readonly string[] | Record<string, string>;

function toMap(lines: StoredLines): Map<number, string> {
  if (Array.isArray(lines)) return new Map(lines.map((t, i) => [i + 1, String(t)]));
  return new Map(
    Object.entries(lines)
      .map(([k, v]) => [Number(k), String(v)] as [number, string])
      .filter(([n]) => Number.isInteger(n)),
  );
}

function toNumbers(selected: unknown): number[] {
  if (Array.isArray(selected)) return selected.map(Number).filter(Number.isInteger);
  if (selected && typeof selected === 'object') return Object.keys(selected).map(Number).filter(Number.isInteger);
  return [];
}

/**
 * Windows of `context` lines around each selected line, merged. Without a selection the first
 * lines are shown (up to 2×context+1).
 */
export function excerpt(lines: StoredLines, selected: unknown, context = CONTEXT_LINES): ExcerptLine[][] {
  const map = toMap(lines);
  const numbers = [...map.keys()].sort((a, b) => a - b);
  if (!numbers.length) return [];
  const picked = new Set(toNumbers(selected).filter((n) => map.has(n)));
  if (!picked.size) {
    return [numbers.slice(0, 2 * context + 1).map((n) => ({ number: n, text: map.get(n)!, selected: false }))];
  }
  const wanted = new Set<number>();
  for (const n of picked) for (let i = n - context; i <= n + context; i++) if (map.has(i)) wanted.add(i);
  const groups: ExcerptLine[][] = [];
  let prev: number | undefined;
  for (const n of [...wanted].sort((a, b) => a - b)) {
    if (prev === undefined || n !== prev + 1) groups.push([]);
    groups[groups.length - 1].push({ number: n, text: map.get(n)!, selected: picked.has(n) });
    prev = n;
  }
  return groups;
}
