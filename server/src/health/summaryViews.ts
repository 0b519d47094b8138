// The answers of the precomputed ranges as this replica keeps them: the unfiltered answer of each
// range (SummaryViews, kept up to date in the background while someone asks for it) from its items
// (summaryItems.ts), with the gzip of an answer made once per update. The figures themselves are
// summary.ts's.
import type { Queryable } from '../db/database.js';
import { logger } from '../log.js';
import { releaseMemorySoon } from '../memory.js';
import { deflatePrefix, gzipWithPrefix, type DeflatedPrefix } from './gzipPrefix.js';
import { ConsoleStreams, etagOf } from './summaryConsole.js';
import { freshComputedAt, PRECOMPUTED_RANGES, type PrecomputedRange } from './summary.js';
import { SUMMARY_HEAD, SummaryItems, type CachedItem } from './summaryItems.js';
import { SummaryTemplates } from './summaryTemplates.js';

const log = logger('health');

/** The unfiltered answer of a precomputed range as this replica keeps it (see SummaryViews). */
export interface SummaryView {
  /** When the range's figures were computed. */
  asOf: Date;
  /** The FORMATS.md answer and its tag, written on first use (the page asks for console rows only). */
  json: ViewJson;
  /**
   * The same compressed (see gzipSummary): made as soon as the view is built while clients that
   * accept gzip ask for it, else on first use.
   */
  deflated?: Promise<DeflatedPrefix>;
  /** When it was brought up to date (it holds what was committed by then), and the edits it includes. */
  at: number;
  edits: number;
  /** How many items that update rebuilt. */
  rebuilt: number;
  /** Its items in order (their console rows, for format=console). */
  ids: string[];
  items: CachedItem[];
}

/** A request is answered from a view at most this old (unless it asks for less: Cache-Control max-age). */
export const SUMMARY_VIEW_MAX_AGE_MS = 5_000;
/** How often a view is brought up to date in the background while someone asks for it. */
export const SUMMARY_VIEW_EVERY_MS = 2_000;
/**
 * A view nobody asked for in this long is no longer kept up to date, and is dropped from memory
 * with the items and console streams idle as long (rebuilt on the next request).
 * HEALTH_SUMMARY_IDLE_MS overrides it (the memory benchmark uses seconds).
 */
export const SUMMARY_VIEW_IDLE_MS = Number(process.env.HEALTH_SUMMARY_IDLE_MS) || 5 * 60_000;

interface ViewState {
  view?: SummaryView;
  /** When a client that accepts gzip last asked (unset: never). */
  gzipRequested?: number;
  /** When a client asked for console rows (the page) last (unset: never). */
  rowsRequested?: number;
  pending?: { edits: number; done: Promise<SummaryView | undefined> };
  requested: number;
}

/**
 * The unfiltered answers of the precomputed ranges, kept up to date in the background (every
 * SUMMARY_VIEW_EVERY_MS, from the checks changed since, while the range was asked for in the last
 * SUMMARY_VIEW_IDLE_MS), so a dashboard's poll is answered from memory: at most
 * SUMMARY_VIEW_MAX_AGE_MS behind the database, and never behind an edit made through this process
 * (`edits`: canaries applied or deleted, checks run now). The scheduled runs of the engines show
 * within one update.
 */
export class SummaryViews {
  private states = new Map<string, ViewState>();
  private timer: NodeJS.Timeout | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly everyMs: number;
  private readonly idleMs: number;

  /** The checks' items around their figures (summaryTemplates.ts), for these views and answers computed on request. */
  readonly templates: SummaryTemplates;
  readonly items: SummaryItems;
  /** The console streams of the summary's answers (see summaryConsole.ts), swept with the views. */
  readonly consoles = new ConsoleStreams();

  constructor(
    private readonly db: Queryable,
    private readonly edits: () => number,
    options: { everyMs?: number; idleMs?: number } = {},
  ) {
    this.everyMs = options.everyMs ?? SUMMARY_VIEW_EVERY_MS;
    this.idleMs = options.idleMs ?? SUMMARY_VIEW_IDLE_MS;
    this.templates = new SummaryTemplates(this.idleMs);
    this.items = new SummaryItems(db, this.templates);
  }

  /**
   * Keeps memory independent of what was ever asked: the views, items, templates and console streams
   * idle for idleMs are dropped. Checked every idleMs / 4 while anything is kept.
   */
  sweep(now = Date.now()): void {
    let dropped = false;
    for (const [key, state] of this.states) {
      if (state.pending || now - state.requested < this.idleMs) continue;
      this.states.delete(key);
      dropped = true;
    }
    if (this.items.sweep(this.idleMs, now)) dropped = true;
    if (this.templates.sweep(now)) dropped = true;
    if (this.consoles.sweep(this.idleMs, now)) dropped = true;
    // What was dropped is several answers' worth (MBs each): given back now, not at V8's leisure.
    if (dropped) releaseMemorySoon();
  }

  /** Starts the periodic sweep (each request calls it; one timer at a time). */
  keepSwept(): void {
    if (this.sweeper || this.closed) return;
    this.sweeper = setTimeout(
      () => {
        this.sweeper = undefined;
        this.sweep();
        if (this.states.size || this.items.size.ranges || this.consoles.size || this.templates.size) this.keepSwept();
      },
      Math.max(this.idleMs / 4, 50),
    );
    this.sweeper.unref();
  }

  /** What is kept now (tests and the memory benchmark). */
  get kept(): { views: number; ranges: number; items: number; consoles: number; templates: number } {
    let views = 0;
    for (const s of this.states.values()) if (s.view) views++;
    return { views, ...this.items.size, consoles: this.consoles.size, templates: this.templates.size };
  }

  /**
   * The range's answer, younger than `maxAgeMs` (0: brought up to date now) and with every edit of
   * this process; undefined when its figures are not fresh (the caller computes the summary on
   * request then). `gzip`: the caller will send it compressed (so the next updates compress ahead
   * of the requests); `rows`: it will send console rows (so an update writing every item from the
   * templates cuts their rows while the figures are read).
   */
  async get(
    range: PrecomputedRange,
    maxAgeMs = SUMMARY_VIEW_MAX_AGE_MS,
    gzip = false,
    rows = false,
  ): Promise<SummaryView | undefined> {
    const state = this.state(range);
    state.requested = Date.now();
    if (gzip) state.gzipRequested = state.requested;
    if (rows) state.rowsRequested = state.requested;
    // A request is a use of what the view is made of; its background updates are not.
    this.items.touch(range.key, state.requested);
    this.templates.touch(state.requested);
    this.schedule();
    this.keepSwept();
    const { view } = state;
    if (view && Date.now() - view.at < maxAgeMs && view.edits === this.edits()) return view;
    return this.update(range);
  }

  /** After a refresh of the range's figures: rebuilds its view now if someone is watching it. */
  refreshed(range: PrecomputedRange): void {
    const state = this.states.get(range.key);
    if (state && !this.closed && Date.now() - state.requested < this.idleMs) this.background(range);
  }

  /** Stops the background updates and waits for the one under way. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.sweeper);
    this.timer = this.sweeper = undefined;
    await Promise.allSettled([...this.states.values()].map((s) => s.pending?.done));
  }

  private state(range: PrecomputedRange): ViewState {
    let state = this.states.get(range.key);
    if (!state) this.states.set(range.key, (state = { requested: 0 }));
    return state;
  }

  /** One update at a time per range; a caller that needs a later edit waits for a new one. */
  private async update(range: PrecomputedRange, background = false): Promise<SummaryView | undefined> {
    const state = this.state(range);
    const edits = this.edits();
    while (state.pending) {
      if (state.pending.edits === edits) return state.pending.done;
      await state.pending.done.catch(() => undefined);
    }
    const at = Date.now();
    const pending: NonNullable<ViewState['pending']> = { edits, done: Promise.resolve(undefined) };
    pending.done = (async () => {
      const asOf = await freshComputedAt(this.db, range);
      if (!asOf) {
        state.view = undefined;
        return undefined;
      }
      const rows = Date.now() - (state.rowsRequested ?? -Infinity) < this.idleMs;
      const { chunks, body, rebuilt, ids, items } = await this.items.answer(range, asOf, null, { rows, background });
      // The same items as the previous view (an item rebuilt is a new object): its body, tag and gzip.
      const prev = state.view;
      const same = prev && prev.items.length === items.length && prev.items.every((it, i) => it === items[i]);
      const view: SummaryView = same
        ? { ...prev, at, edits, rebuilt }
        : {
            asOf,
            json: new ViewJson(body ?? (() => Buffer.concat([SUMMARY_HEAD, ...chunks()]))),
            at,
            edits,
            rebuilt,
            ids,
            items,
          };
      if (Date.now() - (state.gzipRequested ?? -Infinity) < this.idleMs) deflateView(view).catch(() => undefined);
      state.view = view;
      return view;
    })().finally(() => {
      if (state.pending === pending) state.pending = undefined;
    });
    state.pending = pending;
    return pending.done;
  }

  private background(range: PrecomputedRange): void {
    this.update(range, true).catch((e: unknown) => log.error(`health summary ${range.key}: ${(e as Error).message}`));
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.closed) return;
      const now = Date.now();
      let watched = false;
      for (const range of PRECOMPUTED_RANGES) {
        const state = this.states.get(range.key);
        if (!state || now - state.requested >= this.idleMs) continue;
        watched = true;
        if (!state.pending && (!state.view || now - state.view.at >= this.everyMs - 100)) this.background(range);
      }
      if (watched) this.schedule();
    }, this.everyMs);
    this.timer.unref();
  }
}

/** A view's FORMATS.md answer and its strong validator, made once, when first asked for. */
export class ViewJson {
  private made?: { body: Buffer; etag: string };

  constructor(private readonly write: () => Buffer) {}

  private get it() {
    if (!this.made) {
      const body = this.write();
      this.made = { body, etag: etagOf([body]) };
    }
    return this.made;
  }

  /**
   * The answer up to its last key, ready to send: `{"runnerName":…,"checks_summary":[…]`; a request
   * adds `,"duration":N}` (see summaryTail).
   */
  get body(): Buffer {
    return this.it.body;
  }

  get etag(): string {
    return this.it.etag;
  }
}

export { SUMMARY_HEAD };
/** The end of a summary answer that took `ms`. */
export const summaryTail = (ms: number) => Buffer.from(`,"duration":${Math.round(ms)}}`);

/**
 * A view's answer as one gzip member without compressing its bulk again per request: the view's
 * constant part is deflated once (gzipPrefix.ts).
 */
export function gzipSummary(view: SummaryView, tail: Buffer): Promise<Buffer<ArrayBuffer>> {
  return gzipWithPrefix(deflateView(view), tail);
}

/** The view's constant part deflated (once). */
function deflateView(view: SummaryView): Promise<DeflatedPrefix> {
  view.deflated ??= deflatePrefix(view.json.body);
  return view.deflated;
}
