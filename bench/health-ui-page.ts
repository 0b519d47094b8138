// One cold load of /health in Chromium for `npm run bench -- health-ui` (health-ui.ts): the times
// from navigation to the first check row, to a click on a row being handled, to the drawer showing
// that check, the drawer's history, a second drawer once the first is closed, where the summary
// request sat in that time, the main thread's long tasks, and the tab's memory. The times are the
// page's own clock (ms since navigation start, marked by a script in the page, a frame after the
// DOM change), not the benchmark's: Playwright's polling and round trips added 0.1–0.3 s per step
// on a loaded machine.
import fs from 'node:fs';
import type { Browser, BrowserContext, CDPSession, Page, Response } from 'playwright-core';

export type Session = Awaited<ReturnType<BrowserContext['storageState']>>;

export interface Sample {
  /** Navigation → the first check row is visible. */
  rowsMs: number;
  /** Navigation → a click on a check row (right after the first row showed) was dispatched: the main thread was free. */
  clickableMs: number;
  /** Navigation → the drawer shows the clicked check's name. */
  drawerMs: number;
  /** The click → the drawer shows the check (its code loaded, rendered). */
  clickToDrawerMs: number;
  /** The click → the first row of the drawer's History table (its own, paged, request). */
  clickToHistoryMs: number;
  /** Drawer closed, another row clicked → its drawer shows it (the drawer's code is loaded by then). */
  secondDrawerMs: number;
  /** The summary request in the page's clock (ms after navigation start): sent, and its last byte. */
  summarySentMs: number;
  summaryDoneMs: number;
  /** What the server says it spent (the answer's `duration`), and whether its cache had it. */
  summaryServerMs: number;
  summaryCache: string;
  summaryBytes: number;
  domRows: number;
  longestTaskMs: number;
  longTasksMs: number;
  /** JS heap of the tab after the drawers (CDP Performance.getMetrics), then used after a full GC. */
  heapUsedMb: number;
  heapTotalMb: number;
  heapAfterGcMb: number;
  domNodes: number;
}

/**
 * In the page from its first byte (a string: this file has no DOM types). Long tasks; the time of
 * each click on a check row (when it was dispatched, i.e. the main thread was free); and, once
 * painted (the frame after the DOM change), the first check row, each drawer's title and the first
 * row of its history: `__marks.rows`, `__marks.click1`, `drawer1`, `history1`, then `…2`.
 */
const PAGE_SCRIPT = `window.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
  window.__marks = {};
  let clicks = 0;
  const painted = (k) => {
    if (k in __marks) return;
    __marks[k] = NaN;
    requestAnimationFrame(() => setTimeout(() => { __marks[k] = performance.now(); }));
  };
  document.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('[data-testid=check-row]')) __marks['click' + ++clicks] = performance.now();
  }, true);
  new MutationObserver(() => {
    if (document.querySelector('[data-testid=check-row]')) painted('rows');
    if (!clicks) return;
    const dialog = document.querySelector('[role=dialog]');
    if (!dialog) return;
    if (dialog.querySelector('[data-testid=check-drawer-title]')) painted('drawer' + clicks);
    if (dialog.querySelector('table[aria-label="Check history"] tbody tr:not([data-testid=table-skeleton])')) painted('history' + clicks);
  }).observe(document, { childList: true, subtree: true });`;

const MARKS = `new Promise((resolve) => {
  const done = () => Object.values(window.__marks).every((v) => !Number.isNaN(v));
  const wait = () => (done() ? resolve(window.__marks) : setTimeout(wait, 10));
  wait();
})`;

const SUMMARY_TIMING = `(() => {
  const e = performance.getEntriesByType('resource').find((r) => r.name.includes('/api/canary/api/summary'));
  return e ? [e.startTime, e.responseEnd] : [NaN, NaN];
})()`;

async function metrics(cdp: CDPSession): Promise<Map<string, number>> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return new Map(metrics.map((m) => [m.name, m.value]));
}

const MB = 1024 * 1024;

/**
 * The `n`th check row as soon as it is in the page (a MutationObserver in the page, one round trip):
 * where to click it, its check's id and name. Playwright's own waiting polls at 20, 50, 100, 100 then
 * every 500 ms, which put up to 0.5 s of the benchmark's latency between the row showing and the click.
 */
const rowTarget = (n: number) => `new Promise((resolve) => {
  const find = () => {
    const row = document.querySelectorAll('[data-testid=check-row]')[${n}];
    if (!row || !row.getBoundingClientRect().height) return false;
    let box = row.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) {
      row.scrollIntoView({ block: 'center' });
      box = row.getBoundingClientRect();
    }
    const name = row.querySelector('td:first-child .font-medium')?.textContent?.trim() ?? '';
    resolve({ x: box.x + box.width / 2, y: box.y + box.height / 2, id: row.getAttribute('data-check-id'), name });
    return true;
  };
  if (find()) return;
  const observer = new MutationObserver(() => find() && observer.disconnect());
  observer.observe(document, { childList: true, subtree: true });
  setTimeout(() => { observer.disconnect(); resolve(null); }, 60000);
})`;

/**
 * Clicks the `n`th check row with real input (CDP mouse events at its centre) as soon as it is in the
 * page, and waits until the app handled it (?checkId= in the URL).
 */
async function openDrawer(page: Page, n: number) {
  const row = (await page.evaluate(rowTarget(n))) as { x: number; y: number; id: string; name: string } | null;
  if (!row) throw new Error(`no check row ${n + 1} on ${page.url()} after 60 s`);
  await page.mouse.click(row.x, row.y);
  await page.waitForURL((u) => u.searchParams.get('checkId') === row.id);
  return row;
}

/**
 * Waits until the page marked the `n`th drawer and its history (a 10 ms timer in the page: no DOM
 * queries while the drawer renders; Playwright's role selectors walked the whole document, ~50 ms
 * of the main thread, in the middle of it), and checks the drawer shows `name`.
 */
async function drawerShown(page: Page, n: number, name: string) {
  const title = (await page.evaluate(`new Promise((resolve) => {
    const deadline = performance.now() + 60000;
    const wait = () => __marks['drawer${n}'] > 0 && __marks['history${n}'] > 0
      ? resolve(document.querySelector('[role=dialog] [data-testid=check-drawer-title]')?.textContent ?? '')
      : performance.now() > deadline ? resolve('(nothing after 60 s)') : setTimeout(wait, 10);
    wait();
  })`)) as string;
  if (!title.includes(name)) throw new Error(`drawer ${n} shows "${title}", not ${name}`);
}

/** Navigation → rows → click → drawer, for `query`; a fresh context (cold cache) with `session`. */
export async function loadOnce(
  browser: Browser,
  origin: string,
  session: Session,
  query: string,
  warmSummary: string | undefined,
  /** Where to write the page's CPU profile (CDP Profiler) from navigation to the first drawer. */
  profileFile?: string,
  /** Where to write a Chrome trace (devtools.timeline: tasks, layout, script, network) of the same span. */
  traceFile?: string,
  /** Round-trip time added to every request (CDP network emulation): a browser away from the server. */
  latencyMs = 0,
): Promise<Sample> {
  const context = await browser.newContext({
    baseURL: origin,
    viewport: { width: 1440, height: 900 },
    storageState: session,
  });
  try {
    // The server keeps a live summary answer 5 s; with engines off (as here) nothing precomputes it.
    // Computed afresh just before (no-cache: an answer about to expire would not do), the page gets
    // it the way a deployment's precomputed 1h view would give it.
    if (warmSummary) await context.request.get(warmSummary, { headers: { 'cache-control': 'no-cache' } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.addInitScript({ content: PAGE_SCRIPT });
    const cdp = await context.newCDPSession(page);
    if (latencyMs > 0) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: latencyMs,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    }
    await cdp.send('Performance.enable');
    let summaryServerMs = NaN;
    let summaryBytes = 0;
    let summaryCache = '';
    // The answer's body (its server time is in it) is read once the drawer is measured: read as it
    // arrives, its 3.8 MB crossed the DevTools protocol and was parsed in this process while the page
    // loaded, on the same two cores.
    let summaryResponse: Response | undefined;
    page.on('response', (res) => {
      if (!res.url().includes('/api/canary/api/summary') || summaryResponse) return;
      summaryResponse = res;
      summaryCache = res.headers()['x-summary-cache'] ?? res.headers()['x-summary-source'] ?? '';
    });

    if (traceFile)
      await browser.startTracing(page, {
        path: traceFile,
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8.execute',
          'v8',
          'blink.user_timing',
          'loading',
          'blink',
        ],
      });
    if (profileFile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await page.goto(`/health?${query}`, { waitUntil: 'commit' });
    const rows = page.getByTestId('check-row');
    // A click on the tenth row (every scenario shows more) is handled by the app, the drawer shows
    // that check, then its history.
    const dialog = page.getByRole('dialog');
    const first = await openDrawer(page, 9);
    await drawerShown(page, 1, first.name);
    const count = await rows.count();
    if (profileFile) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(profileFile, JSON.stringify(profile));
    }
    if (traceFile) await browser.stopTracing();
    const [summarySentMs, summaryDoneMs] = (await page.evaluate(SUMMARY_TIMING)) as [number, number];

    // A second drawer: closed, another row clicked (the drawer's code is in the page by now).
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The modal drawer leaves the body without pointer events until its layer is gone.
    await page.waitForFunction("getComputedStyle(document.body).pointerEvents !== 'none'");
    const next = await openDrawer(page, Math.min(11, count - 1));
    await drawerShown(page, 2, next.name);
    const marks = (await page.evaluate(MARKS)) as Record<string, number>;
    const body = await summaryResponse?.body().catch(() => undefined);
    if (body) {
      summaryBytes = body.length;
      summaryServerMs = (JSON.parse(body.toString()) as { duration: number }).duration;
    }
    const mark = (k: string) => marks[k] ?? NaN;

    const tasks = (await page.evaluate('window.__longTasks')) as number[];
    const m = await metrics(cdp);
    await cdp.send('HeapProfiler.collectGarbage');
    const gc = await metrics(cdp);
    return {
      rowsMs: mark('rows'),
      clickableMs: mark('click1'),
      drawerMs: mark('drawer1'),
      clickToDrawerMs: mark('drawer1') - mark('click1'),
      clickToHistoryMs: mark('history1') - mark('click1'),
      secondDrawerMs: mark('drawer2') - mark('click2'),
      summarySentMs,
      summaryDoneMs,
      summaryServerMs,
      summaryCache,
      summaryBytes,
      domRows: count,
      longestTaskMs: Math.max(0, ...tasks),
      longTasksMs: tasks.reduce((a, b) => a + b, 0),
      heapUsedMb: (m.get('JSHeapUsedSize') ?? NaN) / MB,
      heapTotalMb: (m.get('JSHeapTotalSize') ?? NaN) / MB,
      heapAfterGcMb: (gc.get('JSHeapUsedSize') ?? NaN) / MB,
      domNodes: m.get('Nodes') ?? NaN,
    };
  } finally {
    await context.close();
  }
}
