import { describe, expect, it } from 'vitest';
import { logEvidenceDescription, logLinesEvidence } from './evidence';
import type { LogLine } from './types';

const shown: LogLine[] = Array.from({ length: 12 }, (_, i) => ({
  id: `l${i + 1}`,
  timestamp: `2024-05-01T10:00:${String(i).padStart(2, '0')}Z`,
  message: `line ${i + 1}`,
  labels: i === 0 ? { app: 'web' } : ({} as Record<string, string>),
}));

describe('log evidence', () => {
  it('keeps the selected lines with 3 lines of context and marks their positions', () => {
    const e = logLinesEvidence(shown, new Set(['l6']));
    expect(e.lines.map((l) => l.message)).toEqual([
      'line 3',
      'line 4',
      'line 5',
      'line 6',
      'line 7',
      'line 8',
      'line 9',
    ]);
    expect(e.selected_lines).toEqual({ 4: 'line 6' });
  });

  it('merges overlapping windows, clips at the ends and keeps labels', () => {
    const e = logLinesEvidence(shown, new Set(['l1', 'l3']));
    expect(e.lines.map((l) => l.message)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6']);
    expect(e.selected_lines).toEqual({ 1: 'line 1', 3: 'line 3' });
    expect(e.lines[0]).toEqual({ timestamp: '2024-05-01T10:00:00Z', message: 'line 1', labels: { app: 'web' } });
    expect(e.lines[1]).not.toHaveProperty('labels');
  });

  it('is empty without a selection', () => {
    expect(logLinesEvidence(shown, new Set())).toEqual({ lines: [], selected_lines: {} });
  });

  it('describes the lines and where they come from', () => {
    expect(logEvidenceDescription(2, 'checkout', 'app')).toBe('2 log lines of checkout / app');
    expect(logEvidenceDescription(1, undefined)).toBe('1 log line');
  });
});
