// Part of `npm run bench -- health-sketch`: the usual ranges (1h, 1d, 7d, 30d) as a server answers
// them, from its views (server/src/health/summaryViews.ts) over the precomputed figures: a server's
// first answer (nothing kept: the checks' templates and the range's items written from them), the
// first answer of a range once another range was answered (templates kept), the rebuild after a
// refresh of the range's figures (what a watched replica does every 1–5 minutes), and a warm poll.
// Each as the JSON body ready to send; the first answer also as the page asks for it (console rows,
// on another new server), and the rebuild also with the console rows of every item on top. Run straight against the database (no HTTP): the
// server's own work.
import type { Database } from '../server/src/db/database.js';
import { PRECOMPUTED_RANGES, refreshSummary } from '../server/src/health/summary.js';
import { rowOf } from '../server/src/health/summaryItems.js';
import { SummaryViews } from '../server/src/health/summaryViews.js';
import { loadavg, median, printTable } from './lib.js';

const log = (s: string) => console.log(s);

/** Milliseconds of `f`, which must give an answer (a range's figures not fresh give none). */
async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  if (!(await f())) throw new Error('no answer: the range was not refreshed lately');
  return performance.now() - t;
}

export async function measureViews(label: string, open: () => Promise<Database>, runs: number): Promise<void> {
  const out: (string | number)[][] = [];
  for (const range of PRECOMPUTED_RANGES) {
    const first: number[] = [];
    const firstConsole: number[] = [];
    const kept: number[] = [];
    const rebuilt: number[] = [];
    const rebuiltConsole: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < Math.max(runs, 3); i++) {
      // The page's first answer on a new server: the console rows of every item, their parts cut
      // while the figures are read. Each server's database is opened after the previous one is
      // closed: PGlite takes one instance on its directory at a time.
      const pagePool = await open();
      const pageViews = new SummaryViews(pagePool, () => 0);
      try {
        await refreshSummary(pagePool, range, 0);
        firstConsole.push(
          await timed(async () => (await pageViews.get(range, 0, false, true))?.items.map(rowOf).length),
        );
      } finally {
        await pageViews.close();
        await pagePool.close();
      }
      const pool = await open();
      const views = new SummaryViews(pool, () => 0);
      try {
        await refreshSummary(pool, range, 0);
        // A server's first answer: nothing kept.
        first.push(await timed(async () => (await views.get(range, 0))?.json.body));
        // Another range's first answer on the same server: the templates are kept.
        const other = PRECOMPUTED_RANGES.find((r) => r !== range)!;
        await refreshSummary(pool, other, 0);
        kept.push(await timed(async () => (await views.get(other, 0))?.json.body));
        // The rebuild after a refresh of the range's figures, and a poll brought up to date.
        await refreshSummary(pool, range, 0);
        rebuilt.push(await timed(async () => (await views.get(range, 0))?.json.body));
        rebuiltConsole.push(rebuilt.at(-1)! + (await timed(async () => (await views.get(range))!.items.map(rowOf))));
        warm.push(await timed(async () => (await views.get(range, 0))?.json.body));
      } finally {
        await views.close();
        await pool.close();
      }
    }
    const m = (xs: number[]) => Math.round(median(xs));
    out.push([range.key, m(first), m(firstConsole), m(kept), m(rebuilt), m(rebuiltConsole), m(warm)]);
  }
  log(
    `\n${label}: the usual ranges from the server's views (ms, medians of ${Math.max(runs, 3)} on new pools; load ${loadavg()})`,
  );
  printTable(
    [
      'range',
      'first answer after start: JSON',
      'console (the page)',
      'first answer, templates kept',
      'rebuild after a refresh',
      '+ console rows',
      'poll brought up to date',
    ],
    out,
  );
}
