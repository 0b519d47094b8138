// The logs viewer against a real server reading a real file: a file log backend created from the
// integrations page (Add Directly: Log Backends, YAML in the Code tab) over a log file the test
// writes, a component whose log selectors point at it; then /logs: the component and its first
// selector, lines newest first with http(s) links, older pages as the list scrolls, a stored column
// width, search (debounced into the link), the empty states, download (the file read back), live
// tail, and selected lines linked to a new incident as log evidence. Log Backends leave the Add
// Integration menu when the logs feature is off.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';

const app = useConsole({ config: () => ({ engines: false }) });

const LINES = 250;
let dir = '';
let logFile = '';
let componentId = '';

/** Line i (1-based) of the file: every 50th an error with a link, the rest requests served. */
function lineText(i: number, at: Date): string {
  const time = at.toISOString();
  return i % 50 === 0
    ? `${time} ERROR payment ${i} failed, see https://status.example/incidents/${i} (not javascript:alert(${i}))`
    : `${time} INFO request ${i} served in ${i % 17}ms`;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-logs-e2e-'));
  logFile = path.join(dir, 'shop.log');
  // One line a second, the last a minute ago: all inside the default range (the last 15 minutes).
  const last = Date.now() - 60_000;
  const text = Array.from({ length: LINES }, (_, k) => lineText(k + 1, new Date(last - (LINES - 1 - k) * 1000)));
  fs.writeFileSync(logFile, `${text.join('\n')}\n`);
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function replaceEditorText(page: Page, text: string) {
  const editor = page.locator('.cm-content').first();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

const rows = (page: Page) => page.getByTestId('log-row');
const messages = (page: Page) => rows(page).locator('[role="cell"]:nth-child(3)').allTextContents();
const count = (page: Page) => page.getByTestId('logs-count').textContent();

describe('logs', () => {
  it('creates a file log backend from the integrations page', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/integrations');
    await page.getByRole('button', { name: 'Add Integration' }).click();
    await page.getByRole('menuitem', { name: 'Log Backends' }).click();
    await waitForUrl(page, (u) => u.pathname === '/settings/logging_backends/new');
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.locator('.cm-content').first().waitFor();
    await replaceEditorText(
      page,
      `name: shop-files\nnamespace: default\nlabels:\n  team: shop\nspec:\n  file:\n    - paths: ["${dir}/*.log"]\n      labels:\n        app: shop\n`,
    );
    await expect.poll(() => page.getByTestId('document-problems').count()).toBe(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'shop-files created successfully');
    const url = await waitForUrl(page, (u) => /^\/settings\/logging_backends\/[0-9a-f-]{36}$/.test(u.pathname));
    const { rows: stored } = await app.db.query<{ spec: unknown; labels: unknown; source: string }>(
      `SELECT spec, labels, source FROM logging_backends WHERE name = 'shop-files' AND deleted_at IS NULL`,
    );
    expect(stored).toEqual([
      {
        spec: { file: [{ paths: [`${dir}/*.log`], labels: { app: 'shop' } }] },
        labels: { team: 'shop' },
        source: 'UI',
      },
    ]);

    // Listed with the integrations, and opened from there.
    const id = url.pathname.split('/').pop()!;
    await page.goto('/settings/integrations');
    await page.getByRole('cell', { name: 'shop-files', exact: true }).click();
    await waitForUrl(page, (u) => u.pathname === `/settings/integrations/logging_backends/${id}`);
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('shop-files');
    await screenshot(page, 'settings-log-backend-edit');
    // And in Settings → Log Backends.
    await page.goto('/settings/logging_backends');
    await page.getByRole('cell', { name: 'shop-files', exact: true }).waitFor();
    await screenshot(page, 'settings-log-backends');

    // Another backend: its labels updated from the form, then deleted from the integrations page.
    const { rows: other } = await app.db.query<{ id: string }>(
      `INSERT INTO logging_backends (name, spec) VALUES ('old-files', $1::jsonb) RETURNING id`,
      [JSON.stringify({ file: [{ paths: [`${dir}/old/*.log`] }] })],
    );
    const otherId = other[0]!.id;
    await page.goto(`/settings/integrations/logging_backends/${otherId}`);
    await page.getByLabel('Labels').fill('team=legacy');
    await page.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'old-files updated successfully');
    await expect
      .poll(async () => (await app.db.query(`SELECT labels FROM logging_backends WHERE id = $1`, [otherId])).rows[0])
      .toEqual({ labels: { team: 'legacy' } });
    await page.getByRole('button', { name: 'Delete' }).first().click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'old-files deleted successfully');
    await waitForUrl(page, (u) => u.pathname === '/settings/integrations');
    const { rows: deleted } = await app.db.query<{ deleted: boolean }>(
      `SELECT deleted_at IS NOT NULL AS deleted FROM logging_backends WHERE id = $1`,
      [otherId],
    );
    expect(deleted).toEqual([{ deleted: true }]);
  });

  it('browses a component’s logs: newest first, links, older pages, a stored column width', async () => {
    const page = await app.adminPage();
    const selectors = [
      { name: 'app', backend: 'shop-files', type: 'file', selector: { app: 'shop' } },
      { name: 'other', backend: 'shop-files', type: 'file', selector: { app: 'none' } },
    ];
    const { rows: inserted } = await app.db.query<{ id: string }>(
      `INSERT INTO components (name, type, external_id, log_selectors)
       VALUES ('checkout', 'Service', 'shop/checkout', $1::jsonb) RETURNING id`,
      [JSON.stringify(selectors)],
    );
    componentId = inserted[0]!.id;

    await page.goto('/logs');
    await page.getByText('Please select a component to view the logs').waitFor();
    await page.getByLabel('Component').selectOption({ label: 'checkout (Service)' });
    await waitForUrl(page, (u) => u.searchParams.get('topologyId') === componentId);
    // The first selector is chosen for the user, and the link says so.
    await expect.poll(() => page.getByLabel('Log selector').inputValue()).toBe('app');
    await waitForUrl(page, (u) => u.searchParams.get('logsSelector') === 'app');
    await expect.poll(async () => (await messages(page))[0]).toContain(`ERROR payment ${LINES} failed`);
    await expect.poll(() => count(page)).toBe('100 lines');

    // Only http(s) becomes a link.
    const link = page.getByRole('link', { name: `https://status.example/incidents/${LINES}` });
    expect(await link.getAttribute('href')).toBe(`https://status.example/incidents/${LINES}`);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    await screenshot(page, 'logs-viewer');

    // Scrolling to the end reads the next pages (by cursor), to the first line of the file.
    for (let k = 0; k < 5 && (await count(page)) !== `${LINES} lines`; k++) {
      await page.getByTestId('logs-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
      await page.waitForTimeout(400);
    }
    await expect.poll(() => count(page)).toBe(`${LINES} lines`);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    // Virtualised: the rows in view and 10 either side are in the page, not all 250.
    expect(await rows(page).count()).toBeLessThan(50);

    // A resized column keeps its width after a reload.
    const handle = page.getByRole('separator', { name: 'Resize message' });
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 122, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('opsdeck.logs.columnSizes') ?? '{}'));
    expect(stored.message).toBe(840);
    await page.reload();
    await rows(page).first().waitFor();
    const width = await page.getByRole('columnheader', { name: 'Message' }).evaluate((el) => el.clientWidth);
    expect(width).toBe(840);

    // The other selector matches no file entry's labels.
    await page.getByLabel('Log selector').selectOption('other');
    await waitForUrl(page, (u) => u.searchParams.get('logsSelector') === 'other');
    await page.getByText('There are no logs matching the search query').waitFor();
  });

  it('searches (debounced into the link), downloads the result and tails new lines', async () => {
    const page = await app.adminPage();
    // View Logs on the component's card opens the viewer on it.
    await page.goto('/topology');
    await page.getByRole('button', { name: 'Actions for checkout' }).click();
    await page.getByRole('menuitem', { name: 'View Logs' }).click();
    await waitForUrl(page, (u) => u.pathname === '/logs' && u.searchParams.get('topologyId') === componentId);
    await rows(page).first().waitFor();
    await page.getByLabel('Search logs').fill('ERROR payment');
    await waitForUrl(page, (u) => u.searchParams.get('query') === 'ERROR payment');
    await expect.poll(() => count(page)).toBe('5 lines');
    expect((await messages(page)).every((m) => m.includes('ERROR payment'))).toBe(true);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^logs-checkout-app-\d{8}-\d{6}\.log$/);
    const file = path.join(dir, 'downloaded.txt');
    await download.saveAs(file);
    const text = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(text).toHaveLength(5);
    expect(text[0]).toMatch(
      /^\d{4}-\d{2}-\d{2}T\S+ (\S+ )?ERROR payment 250 failed, see https:\/\/status\.example\/incidents\/250 /,
    );
    expect(text[0]).toContain('app="shop"');
    expect(text[4]).toContain('ERROR payment 50 failed');

    // Nothing matches: the spec's empty state.
    await page.getByLabel('Search logs').fill('no such line anywhere');
    await page.getByText('There are no logs matching the search query').waitFor();

    // Live tail: a line appended to the file shows up on top.
    await page.getByLabel('Search logs').fill('');
    await waitForUrl(page, (u) => !u.searchParams.has('query'));
    await expect.poll(() => count(page)).toBe('100 lines');
    await page.getByRole('switch', { name: 'Live tail' }).click();
    fs.appendFileSync(logFile, `${new Date().toISOString()} WARN tail line arrived\n`);
    await expect.poll(async () => (await messages(page))[0], { timeout: 15_000 }).toContain('WARN tail line arrived');
    await expect.poll(() => count(page)).toBe('101 lines · live');

    // Scrolled down, the reader keeps the line they look at when more arrive on top.
    const scroller = page.getByTestId('logs-scroll');
    await scroller.evaluate((el) => (el.scrollTop = 1200));
    const lineAtTop = () =>
      scroller.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + 400, box.top + 60);
        return hit?.closest('[data-testid="log-row"]')?.textContent ?? '';
      });
    await page.waitForTimeout(200);
    const before = await lineAtTop();
    expect(before).toMatch(/request \d+ served/);
    fs.appendFileSync(logFile, `${new Date().toISOString()} WARN second tail line\n`);
    await expect.poll(() => count(page), { timeout: 15_000 }).toBe('102 lines · live');
    await page.waitForTimeout(200);
    expect(await lineAtTop()).toBe(before);
    await page.getByRole('switch', { name: 'Live tail' }).click();
  });

  it('links selected lines to a new incident as log evidence', async () => {
    const page = await app.adminPage();
    await page.goto(`/logs?topologyId=${componentId}&query=ERROR`);
    await expect.poll(() => count(page)).toBe('5 lines');
    await rows(page).nth(1).getByRole('checkbox', { name: 'Select line' }).check();
    await rows(page).nth(3).getByRole('checkbox', { name: 'Select line' }).check();
    await expect.poll(() => page.getByTestId('logs-selected').textContent()).toBe('2 selected');
    await page.getByRole('button', { name: 'Link to Incident' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to Incident' });
    await dialog.getByLabel('Incident title').fill('payments failing');
    await dialog.getByLabel('Type').selectOption('availability');
    await dialog.getByLabel('Severity').selectOption('high');
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await expectToast(page, 'Evidence linked to incident');

    const { rows: evidences } = await app.db.query<{
      type: string;
      component_id: string;
      description: string;
      evidence: { lines: Array<{ timestamp: string; message: string }>; selected_lines: Record<string, string> };
    }>(
      `SELECT e.type, e.component_id, e.description, e.evidence FROM incidents i
       JOIN hypotheses h ON h.incident_id = i.id JOIN evidences e ON e.hypothesis_id = h.id
       WHERE i.title = 'payments failing'`,
    );
    expect(evidences).toHaveLength(1);
    const e = evidences[0]!;
    expect(e).toMatchObject({ type: 'log', component_id: componentId, description: '2 log lines of checkout / app' });
    // The 5 error lines (newest first) are all within 3 lines of the two selected.
    expect(e.evidence.lines.map((l) => /ERROR payment \d+ failed/.exec(l.message)?.[0])).toEqual([
      'ERROR payment 250 failed',
      'ERROR payment 200 failed',
      'ERROR payment 150 failed',
      'ERROR payment 100 failed',
      'ERROR payment 50 failed',
    ]);
    expect(Object.keys(e.evidence.selected_lines)).toEqual(['2', '4']);
    expect(e.evidence.selected_lines['2']).toContain('ERROR payment 200 failed');

    // The incident shows the lines.
    const { rows: incident } = await app.db.query<{ id: string }>(
      `SELECT id FROM incidents WHERE title = 'payments failing'`,
    );
    await page.goto(`/incidents/${incident[0]!.id}?comments=true`);
    await page.getByRole('tab', { name: 'Action Plan' }).click();
    await expect
      .poll(() => page.getByTestId('evidence-log').first().textContent())
      .toContain('ERROR payment 200 failed');
  });

  it('shows the failures: components that do not load, a download that fails, a backend that times out', async () => {
    const page = await app.adminPage();
    await page.route('**/api/db/components_with_logs*', (r) =>
      r.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    await page.goto('/logs');
    await page.getByText('Unable to load components!').waitFor();
    await page.unroute('**/api/db/components_with_logs*');

    await page.goto(`/logs?topologyId=${componentId}`);
    await rows(page).first().waitFor();
    await page.route('**/api/logs', (r) =>
      r.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"disk gone"}' }),
    );
    await page.getByRole('button', { name: 'Download' }).click();
    await expectToast(page, 'Failed to download logs');
    await page.unroute('**/api/logs');

    // A Loki that never answers: the server gives up after 10 s and says so.
    const hanging = http.createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const port = (hanging.address() as AddressInfo).port;
      await app.db.query(`INSERT INTO logging_backends (name, spec) VALUES ('slow-loki', $1::jsonb)`, [
        JSON.stringify({ loki: [{ url: `http://127.0.0.1:${port}` }] }),
      ]);
      const { rows: slow } = await app.db.query<{ id: string }>(
        `INSERT INTO components (name, type, log_selectors) VALUES ('slow-api', 'Service', $1::jsonb) RETURNING id`,
        [JSON.stringify([{ name: 'app', backend: 'slow-loki', selector: { app: 'slow' } }])],
      );
      await page.goto(`/logs?topologyId=${slow[0]!.id}`);
      await page
        .getByRole('alert')
        .filter({ hasText: 'The log backend "slow-loki" (loki) did not answer within 10 s.' })
        .waitFor({ timeout: 20_000 });
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  });

  it('hides Log Backends from the Add Integration menu when the logs feature is off', async () => {
    const page = await app.adminPage();
    // Through /api/db, so the server forgets the feature flags it has cached.
    const headers = { 'content-type': 'application/json', origin: app.url };
    const set = await page.request.post('/api/db/properties', {
      data: JSON.stringify({ name: 'logs.disable', value: 'true' }),
      headers,
    });
    expect(set.status()).toBeLessThan(300);
    try {
      await page.goto('/settings/integrations');
      await page.getByRole('button', { name: 'Add Integration' }).click();
      await page.getByRole('menu').getByText('Add Directly').waitFor();
      await expect
        .poll(() => page.getByRole('menuitem').allTextContents())
        .toEqual(['Custom Topology', 'Catalog Scraper']);
      await page.keyboard.press('Escape');
    } finally {
      await page.request.delete('/api/db/properties?name=eq.logs.disable', { headers });
    }
  });
});
