// Whose logs the viewer shows and who may read them, against a real server reading a real file: a
// catalog item whose scraper said where its logs are is in the dropdown next to the components
// (configId in the link, its lines, selected lines linked to an incident as the item's log
// evidence); the search reaches the link only after typing pauses (500 ms); a backend's notice of
// lines it could not read (Kubernetes' tail) is shown; a viewer reads a
// component's logs but not a backend of their choosing, and gets no Link to Incident; a log backend
// from elsewhere (ConfigFile) has no buttons; with the logs feature off, cards have no View Logs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expect, expectToast, useConsole, waitForUrl } from './harness.js';

const app = useConsole({ config: () => ({ engines: false }) });

let dir = '';
let itemId = '';
let componentId = '';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-logs-owners-e2e-'));
  const last = Date.now() - 60_000;
  const line = (i: number, text: string) => `${new Date(last - (20 - i) * 1000).toISOString()} ${text} ${i}`;
  fs.writeFileSync(
    path.join(dir, 'cart.log'),
    `${Array.from({ length: 20 }, (_, k) => line(k + 1, k % 5 === 4 ? 'ERROR cart sync failed' : 'INFO cart ok')).join('\n')}\n`,
  );
  fs.writeFileSync(path.join(dir, 'web.log'), `${line(20, 'INFO web served')}\n`);
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const rows = (page: Page) => page.getByTestId('log-row');
const messages = (page: Page) => rows(page).locator('[role="cell"]:nth-child(3)').allTextContents();
const count = (page: Page) => page.getByTestId('logs-count').textContent();
/** Waits like the locators do (10 s): on a loaded shared machine a page takes more than a second. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000 });

async function seed() {
  await app.db.query(`INSERT INTO logging_backends (name, spec) VALUES ('owner-files', $1::jsonb)`, [
    JSON.stringify({
      file: [
        { paths: [`${dir}/cart.log`], labels: { app: 'cart' } },
        { paths: [`${dir}/web.log`], labels: { app: 'web' } },
      ],
    }),
  ]);
  const { rows: item } = await app.db.query<{ id: string }>(
    `INSERT INTO config_items (external_id, type, config_class, name, log_selectors)
     VALUES ('shop/cart', 'Kubernetes::Deployment', 'Deployment', 'cart', $1::jsonb) RETURNING id`,
    [JSON.stringify([{ name: 'pods', backend: 'owner-files', type: 'file', selector: { app: 'cart' } }])],
  );
  itemId = item[0]!.id;
  const { rows: component } = await app.db.query<{ id: string }>(
    `INSERT INTO components (name, type, external_id, log_selectors)
     VALUES ('web', 'Service', 'shop/web', $1::jsonb) RETURNING id`,
    [JSON.stringify([{ name: 'app', backend: 'owner-files', type: 'file', selector: { app: 'web' } }])],
  );
  componentId = component[0]!.id;
}

describe('logs of catalog items, and who may read logs', () => {
  it('shows a catalog item’s logs from the dropdown and links its lines to an incident', async () => {
    await seed();
    const page = await app.adminPage();
    await page.goto('/logs');
    await page.getByText('Please select a component to view the logs').waitFor();
    const dropdown = page.getByLabel('Component');
    await expect
      .poll(() => dropdown.locator('optgroup').evaluateAll((groups) => groups.map((g) => g.getAttribute('label'))))
      .toEqual(['Components', 'Catalog items']);
    await dropdown.selectOption({ label: 'cart (Kubernetes::Deployment)' });
    await waitForUrl(page, (u) => u.searchParams.get('configId') === itemId && !u.searchParams.has('topologyId'));
    await poll(() => page.getByLabel('Log selector').inputValue()).toBe('pods');
    await waitForUrl(page, (u) => u.searchParams.get('logsSelector') === 'pods');
    await poll(() => count(page)).toBe('20 lines');
    expect((await messages(page))[0] ?? '').toContain('ERROR cart sync failed 20');
    expect((await messages(page))[1]).toContain('INFO cart ok 19');

    // Typing reaches the link once it pauses for 500 ms, not before.
    await page.getByLabel('Search logs').fill('ERROR cart');
    await page.waitForTimeout(250);
    expect(new URL(page.url()).searchParams.has('query')).toBe(false);
    await waitForUrl(page, (u) => u.searchParams.get('query') === 'ERROR cart');
    await poll(() => count(page)).toBe('4 lines');

    await rows(page).nth(0).getByRole('checkbox', { name: 'Select line' }).check();
    await page.getByRole('button', { name: 'Link to Incident' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to Incident' });
    await dialog.getByLabel('Incident title').fill('cart sync failing');
    await dialog.getByLabel('Type').selectOption('availability');
    await dialog.getByLabel('Severity').selectOption('high');
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await expectToast(page, 'Evidence linked to incident');
    const { rows: evidences } = await app.db.query<{
      config_id: string | null;
      component_id: string | null;
      description: string;
      evidence: { selected_lines: Record<string, string> };
    }>(
      `SELECT e.config_id, e.component_id, e.description, e.evidence FROM incidents i
       JOIN hypotheses h ON h.incident_id = i.id JOIN evidences e ON e.hypothesis_id = h.id
       WHERE i.title = 'cart sync failing'`,
    );
    expect(evidences).toHaveLength(1);
    expect(evidences[0]).toMatchObject({
      config_id: itemId,
      component_id: null,
      description: '1 log line of cart / pods',
    });
    expect(Object.values(evidences[0]!.evidence.selected_lines)[0]).toContain('ERROR cart sync failed 20');

    // The time range of the link is the one read: the last 30 seconds hold none of these lines.
    await page.goto(`/logs?configId=${itemId}&start=now-30s`);
    await page.getByText('There are no logs matching the search query').waitFor();
    await page.goto(`/logs?configId=${itemId}`);

    // Choosing a component drops the item (and its selector) from the link.
    await dropdown.selectOption({ label: 'web (Service)' });
    await waitForUrl(page, (u) => u.searchParams.get('topologyId') === componentId && !u.searchParams.has('configId'));
    await page.getByLabel('Search logs').fill('');
    await poll(async () => (await messages(page))[0] ?? '').toContain('INFO web served');
  });

  it('shows what the backend says it could not read', async () => {
    const page = await app.adminPage();
    // The server's own answer, with the notice a Kubernetes backend adds past its tail.
    const message =
      'Kubernetes returns only the newest 5000 lines of a container, so older lines are not shown: web-0/app before 2026-01-01T00:00:00.000Z.';
    await page.route('**/api/logs', async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as Record<string, unknown>;
      await route.fulfill({
        response: answer,
        json: { ...body, truncated: { before: '2026-01-01T00:00:00.000Z', message } },
      });
    });
    try {
      await page.goto(`/logs?topologyId=${componentId}`);
      await poll(async () => (await messages(page))[0] ?? '').toContain('INFO web served');
      await page.getByRole('status').filter({ hasText: message }).waitFor();
    } finally {
      await page.unroute('**/api/logs');
    }
  });

  it('says No result when nothing has logs', async () => {
    const page = await app.adminPage();
    for (const view of ['components_with_logs', 'configs_with_logs'])
      await page.route(`**/api/db/${view}*`, (r) =>
        r.fulfill({ status: 200, contentType: 'application/json', body: '[]' }),
      );
    try {
      await page.goto('/logs');
      await page.getByText('Please select a component to view the logs').waitFor();
      await poll(() => page.getByLabel('Component').locator('option').allTextContents()).toEqual(['No result']);
      expect(await page.getByLabel('Log selector').locator('option').allTextContents()).toEqual(['No result']);
    } finally {
      await page.unrouteAll();
    }
  });

  it('lets a viewer read a component’s logs, only through its selector, without linking them', async () => {
    const admin = await app.adminPage();
    const invite = await admin.request.post('/api/users/invite', {
      data: { firstName: 'Val', lastName: 'Viewer', email: 'val@example.com', role: 'viewer' },
      headers: { origin: app.url },
    });
    expect(invite.ok()).toBe(true);
    const { link } = (await invite.json()) as { link: string };
    const page = await app.newPage();
    await page.goto(link);
    await page.getByLabel('Password', { exact: true }).fill('viewer-password-1');
    await page.getByLabel('Confirm password').fill('viewer-password-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await waitForUrl(page, (u) => u.pathname === '/login');
    await app.signIn(page, 'val@example.com', 'viewer-password-1');

    await page.goto(`/logs?topologyId=${componentId}`);
    await poll(async () => (await messages(page))[0] ?? '').toContain('INFO web served');
    await rows(page).nth(0).getByRole('checkbox', { name: 'Select line' }).check();
    await poll(() => page.getByTestId('logs-selected').textContent()).toBe('1 selected');
    expect(await page.getByRole('button', { name: 'Link to Incident' }).count()).toBe(0);

    // The cart's file, asked for by backend and labels: refused.
    const headers = { origin: app.url };
    const own = await page.request.post('/api/logs', {
      data: { id: componentId, labels: { app: 'cart' } },
      headers,
    });
    expect(own.status()).toBe(403);
    expect(((await own.json()) as { message: string }).message).toBe(
      "Your role reads logs as the component's log selector says: leave out labels.",
    );
    expect((await page.request.post('/api/logs', { data: { backend: 'owner-files' }, headers })).status()).toBe(403);
  });

  it('shows a log backend from elsewhere read-only, from Settings and from Integrations', async () => {
    const page = await app.adminPage();
    const { rows } = await app.db.query<{ id: string }>(
      `INSERT INTO logging_backends (name, spec, source) VALUES ('from-file', $1::jsonb, 'ConfigFile') RETURNING id`,
      [JSON.stringify({ file: [{ paths: [`${dir}/web.log`] }] })],
    );
    for (const url of [
      `/settings/logging_backends/${rows[0]!.id}`,
      `/settings/integrations/logging_backends/${rows[0]!.id}`,
    ]) {
      await page.goto(url);
      await page.getByText('is read-only here').waitFor();
      await poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('from-file');
      expect(await page.getByRole('button', { name: 'Update' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    }
  });

  it('hides View Logs on cards when the logs feature is off', async () => {
    const page = await app.adminPage();
    await page.goto('/topology');
    await page.getByRole('button', { name: 'Actions for web' }).click();
    await page.getByRole('menuitem', { name: 'View Logs' }).waitFor();
    await page.keyboard.press('Escape');

    const headers = { 'content-type': 'application/json', origin: app.url };
    const set = await page.request.post('/api/db/properties', {
      data: JSON.stringify({ name: 'logs.disable', value: 'true' }),
      headers,
    });
    expect(set.status()).toBeLessThan(300);
    try {
      await page.goto('/topology');
      await page.getByRole('button', { name: 'Actions for web' }).click();
      await page.getByRole('menuitem').first().waitFor();
      expect(await page.getByRole('menuitem', { name: 'View Logs' }).count()).toBe(0);
      await page.keyboard.press('Escape');
    } finally {
      await page.request.delete('/api/db/properties?name=eq.logs.disable', { headers });
    }
  });
});
