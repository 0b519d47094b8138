// The items of a summary, built in the server: each check's item (the
// FORMATS.md shape) and console row are kept split around their figures — the check's own fields
// before and after `uptime`/`latency` — and rebuilt only when the check, its canary or its agent
// changed (the version summary.ts uses). An answer is then the figures of the range
// (edgeFigures.ts, or a usual range's precomputed ones: summaryItems.ts) written between the kept
// parts: no JSON built in SQL for 10,000 checks, for any range. What is kept is one entry per live
// check, whatever the ranges asked for, and dropped when no answer used it for
// HEALTH_SUMMARY_IDLE_MS. With nothing kept (a server's first answer, or the first after the idle
// time) the items come with the list of checks in one query, their columns by binary COPY (PGlite:
// to /dev/blob) and their JSON written here (itemBytes.ts). A console answer has its rows' parts
// cut while the figures are still being read (API clients never need them).
import type { Queryable } from '../db/database.js';
import { textLiteral } from '../db/copyOut.js';
import type { RangeFigures } from './edgeFigures.js';
import { rowPartsOfBytes, rowPartsParsed, type RowParts } from './summaryRows.js';
import { ALL_TEMPLATE_ITEMS_SQL, rawItemsCopy, SUMMARY_CHECKS_SQL, TEMPLATE_ITEMS_SQL } from './summary.js';
import { templatesOfRawCopy } from './itemBytes.js';
import { figuresSize, num, writeFigures } from './figureBytes.js';

export interface Template {
  v: string;
  /** Its sort key (canary name, newline, check name). */
  k: string;
  /**
   * UTF-8 bytes holding the JSON objects of the item's fields before its figures and after them:
   * `b[head, headEnd)` is the first without its `}`, `b[tail, tailEnd)` the second without its `{`.
   * A server's first answer writes every item into a few large buffers (itemBytes.ts), so an
   * answer copies bytes: it neither decodes nor encodes the items' 7 MB.
   */
  b: Buffer;
  head: number;
  headEnd: number;
  tail: number;
  tailEnd: number;
  /** Its console row up to `passed` and after `rolling1h`, once a console answer needed them. */
  row?: RowParts;
}

/** A template from the JSON objects of an item's fields before and after its figures (TEMPLATE_ITEMS). */
export function template({ v, k, head, tail }: Omit<TemplateRow, 'id'>): Template {
  const b = Buffer.from(head + tail);
  const cut = Buffer.byteLength(head);
  return { v, k, b, head: 0, headEnd: cut - 1, tail: cut + 1, tailEnd: b.length };
}

/** The console row of a template around its four figures (cut once per template: summaryRows.ts). */
export function rowParts(t: Template): RowParts {
  t.row ??=
    rowPartsOfBytes(t.b, t.head, t.headEnd, t.tail, t.tailEnd) ??
    rowPartsParsed(t.b, t.head, t.headEnd, t.tail, t.tailEnd);
  return t.row;
}

export interface TemplatedAnswer {
  /** The JSON array of the items, written on each call. */
  text: () => string;
  /** The same as UTF-8 bytes, written straight into one buffer. */
  bytes: () => Buffer;
  /**
   * The items (the k-th: check ids[k]) with their templates (its version and sort key), their JSON
   * (a slice of `written`: `prefix` and the answer's JSON array, in one buffer) written for all of
   * them the first time one is asked for (a console client never needs it), and their console rows.
   * Methods taking the item's index rather than an object and two closures per item: these live as
   * long as the answer's items, and each scavenge of the young generation copied them.
   */
  items: (prefix?: Buffer) => {
    written: () => Buffer;
    templates: readonly Template[];
    json: (k: number) => Buffer;
    row: (k: number) => string;
  };
  ids: string[];
  /** The console rows, written on each call. */
  rows: () => string[];
  /** How many templates were (re)built for this answer. */
  rebuilt: number;
}

interface TemplateRow {
  id: string;
  v: string;
  k: string;
  head: string;
  tail: string;
}

export class SummaryTemplates {
  private items = new Map<string, Template>();
  private used = 0;
  /** The size of the last binary COPY of every item (the next one's buffer is sized from it). */
  private copyBytes = 0;

  constructor(private readonly idleMs = 5 * 60_000) {}

  /** Drops everything once no answer used it for idleMs; answers whether it dropped anything. */
  sweep(now = Date.now()): boolean {
    if (!this.items.size || now - this.used < this.idleMs) return false;
    this.items.clear();
    return true;
  }

  /** Counts as a use (a request answered from a view the templates are kept for). */
  touch(now = Date.now()): void {
    this.used = now;
  }

  get size(): number {
    return this.items.size;
  }

  /** The checks matching `labels`, in order, with their templates made up to date. */
  private async kept(
    db: Queryable,
    labels: string | null,
    consoleRows: boolean,
  ): Promise<{ ids: string[]; rebuilt: number }> {
    if (this.items.size === 0) {
      // Nothing kept: every item is needed, so they come with the list (one query, not two in turn),
      // as their columns by binary COPY, their JSON written here (itemBytes.ts).
      const sql = () => rawItemsCopy(labels === null ? 'NULL' : textLiteral(labels));
      const data = db.copyOut
        ? await db.copyOut(sql(), this.copyBytes)
        : db.copyOutBlob
          ? await db.copyOutBlob(sql())
          : undefined;
      if (data) {
        this.copyBytes = data.length;
        const { ids, templates } = templatesOfRawCopy(data, consoleRows);
        ids.forEach((id, i) => this.items.set(id, templates[i]!));
        return { ids, rebuilt: ids.length };
      }
      // A connection without binary COPY: the items' JSON built by PostgreSQL.
      const { rows } = await db.query<TemplateRow>(ALL_TEMPLATE_ITEMS_SQL, [labels]);
      for (const r of rows) this.items.set(r.id, template(r));
      return { ids: rows.map((r) => r.id), rebuilt: rows.length };
    }
    const { rows } = await db.query<{ id: string; v: string }>(SUMMARY_CHECKS_SQL, [labels]);
    const stale = rows.filter((r) => this.items.get(r.id)?.v !== r.v).map((r) => r.id);
    for (let i = 0; i < stale.length; i += 5_000) {
      const { rows: fresh } = await db.query<TemplateRow>(TEMPLATE_ITEMS_SQL, [stale.slice(i, i + 5_000)]);
      for (const r of fresh) this.items.set(r.id, template(r));
    }
    if (labels === null && this.items.size > rows.length) {
      const live = new Set(rows.map((r) => r.id));
      for (const id of this.items.keys()) if (!live.has(id)) this.items.delete(id);
    }
    return { ids: rows.map((r) => r.id), rebuilt: stale.length };
  }

  /**
   * The items of the checks matching `labels` (a JSON object text, or null) with figures `f`; the
   * checks are read (and their templates rebuilt) while the figures are computed, and with
   * `rows` (a console answer) their console rows cut then too.
   */
  async answer(
    db: Queryable,
    labels: string | null,
    figures: RangeFigures | Promise<RangeFigures>,
    options: { rows?: boolean; background?: boolean } = {},
  ): Promise<TemplatedAnswer> {
    // A view's background update is not a use: what is kept goes idleMs after the last request.
    if (!options.background) this.used = Date.now();
    // Console rows are cut while the figures are still being read (~20 ms for 10,000 new items).
    const kept = this.kept(db, labels, options.rows === true).then((k) => {
      if (options.rows)
        for (const id of k.ids) {
          const t = this.items.get(id);
          if (t) rowParts(t);
        }
      return k;
    });
    const [{ ids: all, rebuilt }, f] = await Promise.all([kept, figures]);
    const at = new Map<string, number>();
    f.check_id.forEach((id, i) => at.set(id, i));
    // The k-th item: its check, its template and where its figures are in f (-1: none in the range).
    const ids: string[] = [];
    const picked: Template[] = [];
    const figureAt = new Int32Array(all.length);
    for (const id of all) {
      const t = this.items.get(id);
      if (!t) continue; // deleted between the two queries
      figureAt[ids.length] = at.get(id) ?? -1;
      ids.push(id);
      picked.push(t);
    }
    const fig = (k: number) => (figureAt[k]! < 0 ? undefined : figureAt[k]);
    // Each form is written only when asked for: the page asks for console rows, API clients for JSON.
    /**
     * The items' bytes copied into one buffer of the exact size, `prefix` (the answer's start) before
     * them, and their figures written between: nothing to encode, and nothing copied again to be kept
     * or sent. `ends`: where each item ends in it.
     */
    const bytes = (ends?: number[], prefix?: Buffer) => {
      let size = (prefix?.length ?? 0) + 2 + Math.max(picked.length - 1, 0); // [, ], commas
      picked.forEach((t, k) => (size += t.headEnd - t.head + t.tailEnd - t.tail + figuresSize(f, fig(k))));
      const b = Buffer.allocUnsafe(size);
      let p = prefix ? prefix.copy(b) : 0;
      b[p++] = 91; // [
      for (let k = 0; k < picked.length; k++) {
        const t = picked[k]!;
        if (k) b[p++] = 44; // ,
        p += t.b.copy(b, p, t.head, t.headEnd);
        p = writeFigures(b, p, f, fig(k));
        p += t.b.copy(b, p, t.tail, t.tailEnd);
        ends?.push(p);
      }
      b[p++] = 93; // ]
      return b;
    };
    /** The console row of the k-th item: its template's parts (cut once per template) around its figures. */
    const rowAt = (k: number) => {
      const i = fig(k);
      const row = rowParts(picked[k]!);
      return i === undefined
        ? `${row.head}0,0,null,null${row.tail}`
        : `${row.head}${f.passed[i]},${f.failed[i]},${num(f.p95[i])},${num(f.rolling1h[i])}${row.tail}`;
    };
    return {
      text: () => bytes().toString(),
      bytes: () => bytes(),
      items: (prefix = Buffer.alloc(0)) => {
        let written: { b: Buffer; ends: number[] } | undefined;
        const write = () => {
          if (written) return written;
          const ends: number[] = [];
          return (written = { b: bytes(ends, prefix), ends });
        };
        return {
          written: () => write().b,
          templates: picked,
          json: (k: number) => {
            const { b, ends } = write();
            return b.subarray(k ? ends[k - 1]! + 1 : prefix.length + 1, ends[k]);
          },
          row: rowAt,
        };
      },
      ids,
      rows: () => picked.map((_, k) => rowAt(k)),
      rebuilt,
    };
  }
}
