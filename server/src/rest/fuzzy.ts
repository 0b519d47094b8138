// Fuzzy matching for "Perhaps you meant ..." hints, the fuzzyset algorithm PostgREST uses:
// cosine similarity of character n-grams (3, then 2), the best 50 re-scored by Levenshtein
// distance, matches scoring at least 0.33.

const GRAM_SIZES = [3, 2];
const MIN_SCORE = 0.33;

function grams(value: string, size: number): Map<string, number> {
  let simplified = '-' + value.toLowerCase().replace(/[^a-zA-Z0-9\u00C0-\u00FF, ]+/g, '') + '-';
  if (simplified.length < size) simplified += '-'.repeat(size - simplified.length);
  const counts = new Map<string, number>();
  for (let i = 0; i + size <= simplified.length; i++) {
    const g = simplified.slice(i, i + size);
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  return counts;
}

function norm(v: Map<string, number>): number {
  let sum = 0;
  for (const c of v.values()) sum += c * c;
  return Math.sqrt(sum);
}

export function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** Candidates scoring ≥ 0.33 against value, best first, as [score, candidate]. */
export function fuzzyMatches(candidates: Iterable<string>, value: string): [number, string][] {
  const unique = [...new Set(candidates)];
  const lower = value.toLowerCase();
  // An exact (case-insensitive) match is the only answer, as in the fuzzyset library.
  const exact = unique.find((c) => c.toLowerCase() === lower);
  if (exact !== undefined) return [[1, exact]];
  for (const size of GRAM_SIZES) {
    const query = grams(value, size);
    const queryNorm = norm(query);
    const scored: [number, string][] = [];
    for (const c of unique) {
      const g = grams(c, size);
      let dot = 0;
      for (const [gram, n] of query) dot += n * (g.get(gram) ?? 0);
      if (dot > 0) scored.push([dot / (queryNorm * norm(g)), c]);
    }
    if (scored.length === 0) continue;
    scored.sort((a, b) => b[0] - a[0]);
    const rescored = scored.slice(0, 50).map(([, c]): [number, string] => {
      const cl = c.toLowerCase();
      return [1 - levenshtein(cl, lower) / Math.max(cl.length, lower.length), c];
    });
    rescored.sort((a, b) => b[0] - a[0]);
    const good = rescored.filter(([score]) => score >= MIN_SCORE);
    if (good.length) return good;
  }
  return [];
}

export function fuzzyBest(candidates: Iterable<string>, value: string): string | undefined {
  return fuzzyMatches(candidates, value)[0]?.[1];
}
