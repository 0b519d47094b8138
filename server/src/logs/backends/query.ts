// Pieces the backends share: the text of a search as a matcher (plain text case-insensitive or
// /regex/flags), cursors as opaque text, entry labels against a selector, and timestamps read
// from the start of a log line (ISO/RFC3339 or syslog).
import { LogRequestError } from './types.js';

/** `/re/flags` → RegExp, other text → case-insensitive literal; throws a message for a bad regex. */
export function textMatcher(text: string): RegExp | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const re = /^\/(.+)\/([dgimsuy]*)$/s.exec(t);
  if (re) {
    try {
      return new RegExp(re[1]!, re[2]!.replace(/[gy]/g, ''));
    } catch (e) {
      throw new Error(`${t} is not a valid regular expression: ${(e as Error).message}`);
    }
  }
  return new RegExp(t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The cursor's value (undefined without one); LogRequestError (a 400) when it is not one of ours. */
export function decodeCursor<T>(cursor: string | undefined, check: (v: unknown) => v is T): T | undefined {
  if (!cursor) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    v = undefined;
  }
  if (!check(v)) throw new LogRequestError('cursor: not a cursor of this backend');
  return v;
}

/** An entry's labels agree with a selector: every key both have holds the same value. */
export function labelsAgree(labels: Record<string, string> | undefined, selector: Record<string, string>): boolean {
  if (!labels) return true;
  return Object.entries(selector).every(([k, v]) => !(k in labels) || labels[k] === v);
}

const ISO = /^\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)/;
const SYSLOG = /^([A-Z][a-z]{2}) {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2})/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The time a line starts with, in ms; undefined when it starts with none. A time without a zone is
 * UTC; a syslog time (no year) is in the year of `reference` (the file's mtime), or the one before
 * when that would put it after the reference.
 */
export function lineTime(line: string, reference: number): number | undefined {
  const iso = ISO.exec(line);
  if (iso) {
    let s = iso[1]!.replace(' ', 'T').replace(',', '.');
    if (!/(Z|[+-]\d{2}:?\d{2})$/.test(s)) s += 'Z';
    // Date keeps milliseconds; longer fractions are cut.
    s = s.replace(/(\.\d{3})\d+/, '$1');
    const t = Date.parse(s);
    return Number.isNaN(t) ? undefined : t;
  }
  const sys = SYSLOG.exec(line);
  if (sys) {
    const month = MONTHS.indexOf(sys[1]!);
    if (month < 0) return undefined;
    const year = new Date(reference).getUTCFullYear();
    const at = (y: number) => Date.UTC(y, month, Number(sys[2]), Number(sys[3]), Number(sys[4]), Number(sys[5]));
    const t = at(year);
    return t > reference + 86_400_000 ? at(year - 1) : t;
  }
  return undefined;
}
