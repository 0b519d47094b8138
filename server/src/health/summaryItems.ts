// The items of the precomputed ranges' answers as this replica keeps them (SummaryItems): each
// item's JSON with its figures, rebuilt only for the checks that changed. A range's first answer
// writes them all from the checks' templates (summaryTemplates.ts) around the range's precomputed
// figures; later ones rebuild the items of the checks changed since in SQL. SummaryViews
// (summaryViews.ts) makes the unfiltered answers from them.
import type { Queryable } from '../db/database.js';
import { consoleRow } from './summaryConsole.js';
import {
  CHANGED_CHECKS_SQL,
  PRECOMPUTED_ITEMS_SQL,
  precomputedFigures,
  SUMMARY_CHECKS_SQL,
  type PrecomputedRange,
} from './summary.js';
import type { SummaryTemplates } from './summaryTemplates.js';

export interface CachedItem {
  v: string;
  k: string;
  /** The item's JSON, encoded once: an answer is these bytes joined (items written from templates: on first use). */
  readonly json: Buffer;
  /** Its console row (see summaryConsole.ts), made on first use. */
  row?: string;
  /**
   * How to make it without parsing the item, for items written from templates: the template's row
   * parts (cut once per check, whatever the ranges) around the item's figures.
   */
  rowFrom?: () => string;
}

/** The console row of a cached item (made once per rebuild of the item). */
export const rowOf = (it: CachedItem) => (it.row ??= it.rowFrom ? it.rowFrom() : consoleRow(it.json.toString()));

/** How a TemplatedItem's JSON and console row are made: its answer's, by the item's index. */
interface ItemSource {
  json: (k: number) => Buffer;
  row: (k: number) => string;
}

/** An item written from its template: its JSON made on first use (with every item of its answer). */
class TemplatedItem implements CachedItem {
  private made?: Buffer;

  constructor(
    readonly v: string,
    readonly k: string,
    private readonly source: ItemSource,
    private readonly index: number,
  ) {}

  get json(): Buffer {
    return (this.made ??= this.source.json(this.index));
  }

  rowFrom(): string {
    return this.source.row(this.index);
  }
}

/** How every summary answer starts; `duration` comes last, once the request's time is known. */
export const SUMMARY_HEAD = Buffer.from('{"runnerName":"local","checks_summary":');

/** What an answer is made of: its items in order, and its JSON array as byte chunks (written when called). */
export interface ItemsAnswer {
  chunks: () => Buffer[];
  /** SUMMARY_HEAD and the chunks in one buffer, when they were written so (nothing to join). */
  body?: () => Buffer;
  ids: string[];
  items: CachedItem[];
  /** How many items were rebuilt. */
  rebuilt: number;
}

/** Where the next look for changes starts (summary.ts CHANGED_CHECKS_SQL). */
const NEXT_SQL = `SELECT now() - interval '10 seconds' AS next`;

const COMMA = Buffer.from(',');
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

interface CachedRange {
  asOf: number;
  /** When an answer last used it. */
  used: number;
  items: Map<string, CachedItem>;
  /** The ids of every live check in order, and where to look for changes from (unfiltered answers). */
  order?: string[];
  since?: Date;
}

/**
 * The items of the precomputed summaries this replica served, by range. An unfiltered answer asks
 * the database only for the checks changed since the previous one and rebuilds their items (all of
 * them after a refresh, or the order when checks were added, removed or renamed); a label-filtered
 * one reads the order of its checks and rebuilds the items that changed.
 */
export class SummaryItems {
  private ranges = new Map<string, CachedRange>();

  constructor(
    private readonly db: Queryable,
    /** The checks' templates: a range with nothing kept has every item written from them. */
    private readonly templates: SummaryTemplates,
  ) {}

  /**
   * The JSON array of the range's items (for the checks matching `labels`) as the byte chunks to
   * send one after another, and how many items were rebuilt. `rows`: console rows will be asked
   * for (items written from the templates have their rows' parts cut while the figures are read).
   * `background`: a view's update nobody waits for, which does not count as a use (what is kept is
   * dropped idleMs after the last request, whatever the updates since).
   */
  async answer(
    range: PrecomputedRange,
    asOf: Date,
    labels: string | null,
    options: { rows?: boolean; background?: boolean } = {},
  ): Promise<ItemsAnswer> {
    let cached = this.ranges.get(range.key);
    if (!cached || cached.asOf !== asOf.getTime()) {
      cached = { asOf: asOf.getTime(), used: cached?.used ?? 0, items: new Map() };
      this.ranges.set(range.key, cached);
    }
    if (!options.background) cached.used = Date.now();
    const { items } = cached;
    type Row = { id: string; v: string; k: string; next: Date };
    let order: string[];
    let stale: Row[];
    if (items.size === 0) {
      // Nothing kept for the range (its first answer, or the first since its figures were
      // refreshed): every item written at once from the templates around the precomputed figures,
      // with where the next look for changes starts taken as the reads begin.
      const [a, next] = await Promise.all([
        this.templates.answer(this.db, labels, precomputedFigures(this.db, range, asOf), options),
        labels === null ? this.db.query<{ next: Date }>(NEXT_SQL).then((r) => r.rows[0]!.next) : undefined,
      ]);
      const written = a.items(SUMMARY_HEAD);
      const answered = written.templates.map((t, k) => {
        const item = new TemplatedItem(t.v, t.k, written, k);
        items.set(a.ids[k]!, item);
        return item;
      });
      order = a.ids;
      if (next) Object.assign(cached, { order, since: next });
      // The items are written as one JSON array after the answer's start when a JSON client asks:
      // sent as it is, not joined again from 20,000 slices nor copied behind SUMMARY_HEAD.
      return {
        chunks: () => [written.written().subarray(SUMMARY_HEAD.length)],
        body: written.written,
        ids: order,
        items: answered,
        rebuilt: answered.length,
      };
    }
    if (labels !== null) {
      const { rows } = await this.db.query<Row>(SUMMARY_CHECKS_SQL, [labels]);
      order = rows.map((r) => r.id);
      stale = rows.filter((r) => items.get(r.id)?.v !== r.v);
    } else {
      let changed: Array<Row & { live: boolean | null }> | undefined;
      if (cached.order && cached.since) {
        const { rows } = await this.db.query<Row & { live: boolean | null }>(CHANGED_CHECKS_SQL, [cached.since]);
        cached.since = rows[0]!.next;
        changed = rows.filter((r) => r.id !== null);
        // A check added, removed or renamed changes the order: read it again.
        const moved = changed.some((r) => (r.live ? items.get(r.id)?.k !== r.k : items.has(r.id)));
        if (moved) changed = undefined;
      }
      if (changed) {
        order = cached.order!;
        stale = changed.filter((r) => r.live && items.get(r.id)?.v !== r.v);
      } else {
        const { rows } = await this.db.query<Row>(SUMMARY_CHECKS_SQL, [null]);
        order = cached.order = rows.map((r) => r.id);
        if (rows[0]) cached.since = rows[0].next;
        stale = rows.filter((r) => items.get(r.id)?.v !== r.v);
        if (items.size > order.length) {
          const live = new Set(order);
          for (const id of items.keys()) if (!live.has(id)) items.delete(id);
        }
      }
    }
    if (stale.length) {
      const { rows } = await this.db.query<{ id: string; json: string }>(PRECOMPUTED_ITEMS_SQL, [
        range.key,
        asOf,
        stale.map((r) => r.id),
      ]);
      const json = new Map(rows.map((r) => [r.id, r.json]));
      for (const r of stale) {
        const j = json.get(r.id);
        if (j) items.set(r.id, { v: r.v, k: r.k, json: Buffer.from(j) });
      }
    }
    return this.joined(order, items, stale.length);
  }

  /** The answer of the items of `order` (those kept). */
  private joined(order: string[], items: Map<string, CachedItem>, rebuilt: number): ItemsAnswer {
    const ids: string[] = [];
    const answered: CachedItem[] = [];
    for (const id of order) {
      const it = items.get(id);
      if (!it) continue;
      ids.push(id);
      answered.push(it);
    }
    const chunks = () => {
      const out: Buffer[] = [OPEN];
      for (const it of answered) {
        if (out.length > 1) out.push(COMMA);
        out.push(it.json);
      }
      out.push(CLOSE);
      return out;
    };
    return { chunks, ids, items: answered, rebuilt };
  }

  /** Counts as a use of the range's items (a request answered from a view made of them). */
  touch(key: string, now = Date.now()): void {
    const r = this.ranges.get(key);
    if (r) r.used = now;
  }

  /** Forgets the ranges no answer used in `idleMs` (their items are rebuilt on the next request). */
  sweep(idleMs: number, now = Date.now()): boolean {
    const before = this.ranges.size;
    for (const [key, r] of this.ranges) if (now - r.used >= idleMs) this.ranges.delete(key);
    return this.ranges.size < before;
  }

  /** How many ranges and items are kept (the memory benchmark reports them). */
  get size(): { ranges: number; items: number } {
    let items = 0;
    for (const r of this.ranges.values()) items += r.items.size;
    return { ranges: this.ranges.size, items };
  }
}
