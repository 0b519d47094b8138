// The evidence selected log lines become when linked to an incident (spec/2 §3: a log evidence
// payload has lines and selected_lines). `lines` holds the selected lines with 3 lines of context
// around each, in the order shown (what the incident shows); `selected_lines` maps the 1-based
// position of each selected line in `lines` to its message, as config evidence does.
import type { LogLine } from './types';

export const LOG_EVIDENCE_CONTEXT = 3;

export interface LogEvidenceLine {
  timestamp: string;
  message: string;
  labels?: Record<string, string>;
}

export interface LogEvidence {
  lines: LogEvidenceLine[];
  selected_lines: Record<string, string>;
}

export function logLinesEvidence(
  shown: readonly LogLine[],
  selectedIds: ReadonlySet<string>,
  context = LOG_EVIDENCE_CONTEXT,
): LogEvidence {
  const keep = new Set<number>();
  const selected = new Set<number>();
  shown.forEach((l, i) => {
    if (!selectedIds.has(l.id)) return;
    selected.add(i);
    for (let k = Math.max(0, i - context); k <= Math.min(shown.length - 1, i + context); k++) keep.add(k);
  });
  const lines: LogEvidenceLine[] = [];
  const selected_lines: Record<string, string> = {};
  for (const i of [...keep].sort((a, b) => a - b)) {
    const l = shown[i]!;
    const line: LogEvidenceLine = { timestamp: l.timestamp, message: l.message };
    if (l.labels && Object.keys(l.labels).length) line.labels = l.labels;
    lines.push(line);
    if (selected.has(i)) selected_lines[String(lines.length)] = l.message;
  }
  return { lines, selected_lines };
}

/** The evidence's description: how many lines of which component. */
export function logEvidenceDescription(count: number, component: string | undefined, selector?: string): string {
  const what = `${count} log line${count === 1 ? '' : 's'}`;
  const where = [component, selector].filter(Boolean).join(' / ');
  return where ? `${what} of ${where}` : what;
}
