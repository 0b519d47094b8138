import { describe, expect, it } from 'vitest';
import { diffStats, parseUnifiedDiff } from './diff';

const DIFF = `--- a
+++ b
@@ -1,4 +1,4 @@
 color: red
-owner: bob
+owner: alice
 reg_no: ABC
 year: 2020
@@ -10,2 +10,3 @@
 x: 1
+y: 2
 z: 3
\\ No newline at end of file
`;

describe('unified diff parsing', () => {
  it('numbers old and new lines and marks additions and removals', () => {
    const lines = parseUnifiedDiff(DIFF);
    expect(lines.slice(0, 3).map((l) => l.kind)).toEqual(['meta', 'meta', 'hunk']);
    expect(lines[3]).toEqual({ kind: 'context', oldNo: 1, newNo: 1, text: 'color: red' });
    expect(lines[4]).toEqual({ kind: 'del', oldNo: 2, text: 'owner: bob' });
    expect(lines[5]).toEqual({ kind: 'add', newNo: 2, text: 'owner: alice' });
    expect(lines[6]).toEqual({ kind: 'context', oldNo: 3, newNo: 3, text: 'reg_no: ABC' });
    expect(lines[9]).toEqual({ kind: 'context', oldNo: 10, newNo: 10, text: 'x: 1' });
    expect(lines[10]).toEqual({ kind: 'add', newNo: 11, text: 'y: 2' });
    expect(lines[11]).toEqual({ kind: 'context', oldNo: 11, newNo: 12, text: 'z: 3' });
    expect(lines[12].kind).toBe('meta');
    expect(diffStats(lines)).toEqual({ added: 2, removed: 1 });
  });

  it('reads nothing from an empty diff', () => {
    expect(parseUnifiedDiff('')).toEqual([]);
    expect(parseUnifiedDiff(null)).toEqual([]);
  });
});
