// Unified diff text (config_changes.diff) → display lines with old and new line numbers, for the
// change diff view: additions green, removals red, hunk headers between.

export type DiffLineKind = 'add' | 'del' | 'context' | 'hunk' | 'meta';

export interface DiffLine {
  kind: DiffLineKind;
  /** Line number in the old text (removals and context). */
  oldNo?: number;
  /** Line number in the new text (additions and context). */
  newNo?: number;
  text: string;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function parseUnifiedDiff(diff: string | null | undefined): DiffLine[] {
  if (!diff) return [];
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const out: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  for (const line of lines) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      inHunk = true;
      out.push({ kind: 'hunk', text: line });
    } else if (!inHunk || line.startsWith('--- ') || line.startsWith('+++ ') || line.startsWith('diff ')) {
      // File headers before the first hunk (and between files).
      if (line.startsWith('diff ')) inHunk = false;
      out.push({ kind: 'meta', text: line });
    } else if (line.startsWith('+')) {
      out.push({ kind: 'add', newNo: newNo++, text: line.slice(1) });
    } else if (line.startsWith('-')) {
      out.push({ kind: 'del', oldNo: oldNo++, text: line.slice(1) });
    } else if (line.startsWith('\\')) {
      out.push({ kind: 'meta', text: line }); // "\ No newline at end of file"
    } else {
      out.push({ kind: 'context', oldNo: oldNo++, newNo: newNo++, text: line.startsWith(' ') ? line.slice(1) : line });
    }
  }
  return out;
}

/** Counts of added and removed lines. */
export function diffStats(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === 'add') added++;
    else if (l.kind === 'del') removed++;
  }
  return { added, removed };
}
