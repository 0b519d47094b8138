// Downloading the lines on screen (spec/2 §2.9): one text line per log line (its time, its
// message, its labels), and a file name that says which component, selector and moment.
import type { LogLine } from './types';

/** Labels as `{app="web", pod="web-1"}`, sorted by key; empty when there are none. */
export function formatLabels(labels: Record<string, string> | null | undefined): string {
  const entries = Object.entries(labels ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (!entries.length) return '';
  return `{${entries.map(([k, v]) => `${k}=${JSON.stringify(String(v))}`).join(', ')}}`;
}

/** `<timestamp> <message> <labels>` per line; a message's own line breaks are kept as \n escapes. */
export function logsToText(lines: readonly LogLine[]): string {
  return lines
    .map((l) => {
      const labels = formatLabels(l.labels);
      const message = l.message.replace(/\r?\n/g, '\\n');
      return labels ? `${l.timestamp} ${message} ${labels}` : `${l.timestamp} ${message}`;
    })
    .map((line) => `${line}\n`)
    .join('');
}

const safe = (s: string) =>
  s
    .replace(/[^a-z0-9._-]+/gi, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);

/** logs-<component>-<selector>-<YYYYMMDD-HHmmss>.log (UTC). */
export function downloadFileName(component: string | undefined, selector: string | undefined, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  const parts = ['logs', component && safe(component), selector && safe(selector), stamp].filter(Boolean);
  return `${parts.join('-')}.log`;
}
