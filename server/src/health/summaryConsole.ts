// The console format of the health summary (`format=console`): only what the /health page shows,
// as column names once and one array per check, with a version token; `since=<token>` answers with
// the checks changed since that version and the ids removed. Each answer (a range and a label
// filter) has a ConsoleStream on this replica that numbers the changes between the answers it saw.
// Also the summary's ETags (strong, from the data) and the If-None-Match comparison.
import crypto from 'node:crypto';
import { HEALTH_CONSOLE_COLUMNS } from '@opsdeck/common';
import { deflatePrefix, type DeflatedPrefix } from './gzipPrefix.js';

/** The columns of a console row, in order (docs/api.md; shared with the page). */
export const CONSOLE_COLUMNS = HEALTH_CONSOLE_COLUMNS;

export type Item = Record<string, unknown> & {
  uptime?: { passed?: number; failed?: number } | null;
  latency?: { p95?: number | null; rolling1h?: number | null } | null;
};

/** A summary item (the FORMATS.md shape, as JSON text) as a console row (JSON array text). */
export const consoleRow = (json: string): string => consoleRowOf(JSON.parse(json) as Item);

/** A summary item (the FORMATS.md shape) as a console row (JSON array text). */
export function consoleRowOf(it: Item): string {
  const row = CONSOLE_COLUMNS.map((col) => {
    switch (col) {
      case 'passed':
        return Number(it.uptime?.passed ?? 0);
      case 'failed':
        return Number(it.uptime?.failed ?? 0);
      case 'p95':
        return it.latency?.p95 ?? null;
      case 'rolling1h':
        return it.latency?.rolling1h ?? null;
      default:
        return it[col] ?? null;
    }
  });
  return JSON.stringify(row);
}

/** The strong validator of some bytes: a quoted hash (`prefix` tells representations apart). */
export function etagOf(chunks: readonly (Buffer | string)[], prefix = ''): string {
  const h = crypto.createHash('sha1');
  for (const c of chunks) h.update(c);
  return `"${prefix}${h.digest('base64url')}"`;
}

/** The ETag of an answer sent gzipped: another representation of the same data. */
export const gzipEtag = (etag: string) => etag.replace(/"$/, '-gz"');

/**
 * Whether an If-None-Match header names the representation (`*`, or one of its tags, weakly
 * compared as RFC 9110 §13.1.2 says; a gzip tag matches the same data sent plain and back).
 */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '').replace(/-gz"$/, '"');
  const want = bare(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === want);
}

interface StreamRow {
  row: string;
  /** The version that last changed it. */
  seq: number;
}

/** The removed ids kept for deltas; past this, older tokens get the full answer. */
const MAX_REMOVED = 10_000;

/** The changes of one answer (a range and a label filter) as this replica saw them. */
export class ConsoleStream {
  /** Names this stream in tokens: a token of another replica or an evicted stream is unknown. */
  private readonly epoch = crypto.randomBytes(6).toString('base64url');
  private seq = 0;
  /** Tokens older than this are answered in full (their removals were forgotten). */
  private floor = 0;
  private rows = new Map<string, StreamRow>();
  private order: string[] = [];
  private removed = new Map<string, number>();
  private fed: object | undefined;
  private full: Buffer | undefined;
  private fullDeflated: Promise<DeflatedPrefix> | undefined;
  /** The ETag of the state a client holds after applying any answer of the current version. */
  etag = etagOf([], 'c');
  used = Date.now();

  /**
   * Takes the answer's rows in order (`source` names them: the same source twice is read once),
   * numbering a new version when a row changed, appeared or went.
   */
  feed(source: object, ids: readonly string[], rows: readonly string[]): void {
    this.used = Date.now();
    if (this.fed === source) return;
    this.fed = source;
    const next = this.seq + 1;
    let changed = false;
    let added = 0;
    const before = this.rows.size;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const row = rows[i]!;
      const prev = this.rows.get(id);
      if (prev?.row === row) continue;
      if (!prev) {
        added++;
        this.removed.delete(id);
      }
      this.rows.set(id, { row, seq: next });
      changed = true;
    }
    if (before + added > ids.length) {
      const live = new Set(ids);
      for (const id of this.rows.keys()) {
        if (live.has(id)) continue;
        this.rows.delete(id);
        this.removed.set(id, next);
      }
      changed = true;
      if (this.removed.size > MAX_REMOVED) {
        this.removed.clear();
        this.floor = next;
      }
    }
    if (!changed && this.seq > 0) return;
    this.seq = next;
    this.order = [...ids];
    this.full = undefined;
    this.fullDeflated = undefined;
    this.etag = etagOf(
      this.order.map((id) => this.rows.get(id)!.row),
      'c',
    );
  }

  /** The version token of the current state. */
  get version(): string {
    return `${this.epoch}.${this.seq}`;
  }

  /**
   * The answer up to its last key (a request adds the duration): the whole state, or the rows
   * changed since `since` and the ids removed when this stream knows that token.
   */
  answer(since: string | undefined): { body: Buffer; full: boolean } {
    const m = since ? /^([\w-]+)\.(\d+)$/.exec(since) : null;
    const from = m && m[1] === this.epoch ? Number(m[2]) : -1;
    const delta = from >= this.floor && from <= this.seq && from > 0;
    if (!delta && this.full) return { body: this.full, full: true };
    const rows: string[] = [];
    for (const id of this.order) {
      const r = this.rows.get(id)!;
      if (!delta || r.seq > from) rows.push(r.row);
    }
    const removed: string[] = [];
    if (delta) for (const [id, seq] of this.removed) if (seq > from) removed.push(id);
    const body = Buffer.from(
      `{"format":"console","version":"${this.version}","full":${!delta},"columns":${JSON.stringify(CONSOLE_COLUMNS)},` +
        `"rows":[${rows.join(',')}],"removed":${JSON.stringify(removed)}`,
    );
    if (!delta) this.full = body;
    return { body, full: !delta };
  }

  /**
   * The full answer of the current version deflated once (gzipPrefix.ts), for the gzip of `answer`'s
   * body when it is the full one: a page's first load then compresses only the request's tail.
   */
  deflatedFull(body: Buffer): Promise<DeflatedPrefix> {
    if (body !== this.full) return deflatePrefix(body);
    return (this.fullDeflated ??= deflatePrefix(body));
  }
}

/** The streams of the answers asked for lately: at most `max` (least recently used go first). */
export class ConsoleStreams {
  private streams = new Map<string, ConsoleStream>();

  constructor(private readonly max = 8) {}

  get(key: string): ConsoleStream {
    let s = this.streams.get(key);
    if (s) this.streams.delete(key);
    else s = new ConsoleStream();
    this.streams.set(key, s);
    while (this.streams.size > this.max) this.streams.delete(this.streams.keys().next().value!);
    return s;
  }

  /** Forgets the streams nobody asked for in `idleMs`. */
  sweep(idleMs: number, now = Date.now()): boolean {
    const before = this.streams.size;
    for (const [k, s] of this.streams) if (now - s.used >= idleMs) this.streams.delete(k);
    return this.streams.size < before;
  }

  get size(): number {
    return this.streams.size;
  }
}
