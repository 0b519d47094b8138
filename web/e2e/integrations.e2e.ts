// Settings → Integrations: a Topology and a ScrapeConfig applied and run through the API are listed
// together with their type and last run; the Add Integration menu opens the new-resource pages; a
// row opens the resource's edit page under /settings/integrations/{type}/{id}, and updating the
// scraper from the Code tab returns to the list; an unknown type says so. Also: an incident rule
// created at /settings/incident_rules appears in its list.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';

const app = useConsole();

let dir: string;
let topologyId: string;
let scraperId: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-e2e-integrations-'));
  fs.writeFileSync(path.join(dir, 'apps.yaml'), 'id: app-1\nname: cart\nkind: App\n');
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const TOPOLOGY = `apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata:
  name: shop-int
  namespace: ops
spec:
  schedule: "@every 1h"
  type: App
  components:
    - name: web
      type: Service
`;

const scrapeConfig = (schedule: string) => `apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: files-int
  namespace: ops
spec:
  schedule: "${schedule}"
  file:
    - type: "Demo::App"
      id: $.id
      name: $.name
      paths: ["${dir}/*.yaml"]
`;

async function apiPost(page: Page, url: string, data: string, contentType = 'application/yaml') {
  const res = await page.request.post(url, { data, headers: { 'content-type': contentType, origin: app.url } });
  const text = await res.text();
  if (res.status() >= 300) throw new Error(`${url}: ${res.status()} ${text}`);
  return JSON.parse(text) as { applied?: Array<{ id: string }>; status?: string };
}

async function replaceEditorText(page: Page, text: string) {
  const editor = page.locator('.cm-content').first();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** How many runs job_history holds for a resource. */
async function runs(resourceType: string, resourceId: string): Promise<number> {
  const { rows } = await app.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM job_history WHERE resource_type = $1 AND resource_id = $2',
    [resourceType, resourceId],
  );
  return rows[0]!.n;
}

const row = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Integrations' }).getByRole('row').filter({ hasText: name });

describe('integrations', () => {
  it('lists an applied topology and scraper with their type and last run', async () => {
    const page = await app.adminPage();
    topologyId = (await apiPost(page, '/api/topology', TOPOLOGY)).applied![0]!.id;
    scraperId = (await apiPost(page, '/api/catalog', scrapeConfig('@every 60m'))).applied![0]!.id;
    // New resources run at the scheduler's next pass; after it, the next is an hour away, so the
    // run counts below stay put.
    await expect.poll(() => runs('topology', topologyId), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => runs('config_scraper', scraperId), { timeout: 20_000 }).toBe(1);
    expect((await apiPost(page, `/api/topology/${topologyId}/run`, '{}', 'application/json')).status).toBe('SUCCESS');
    expect((await apiPost(page, `/api/catalog/run/${scraperId}`, '{}', 'application/json')).status).toBe('SUCCESS');

    await page.goto('/settings/integrations');
    await row(page, 'shop-int').waitFor();
    await expect.poll(() => page.getByTestId('pagination-range').textContent()).toBe('1–2 of 2');
    const topology = row(page, 'shop-int');
    const scraper = row(page, 'files-int');
    await expect.poll(() => topology.textContent()).toMatch(/Topology.*ops.*UI.*SUCCESS/);
    await expect.poll(() => scraper.textContent()).toMatch(/Catalog Scraper.*ops.*UI.*SUCCESS/);
    // Sorted by name on the server: files-int first; by type descending, the topology first.
    const names = () =>
      page.getByRole('table', { name: 'Integrations' }).locator('tbody tr td:first-child').allTextContents();
    await expect.poll(names).toEqual(['files-int', 'shop-int']);
    await page.getByRole('columnheader', { name: 'Type' }).getByRole('button').click();
    await waitForUrl(page, (u) => u.searchParams.get('sortBy') === 'integration_type');
    await expect.poll(names).toEqual(['files-int', 'shop-int']);
    await page.getByRole('columnheader', { name: 'Type' }).getByRole('button').click();
    await waitForUrl(page, (u) => u.searchParams.get('sortOrder') === 'desc');
    await expect.poll(names).toEqual(['shop-int', 'files-int']);

    // Add Integration: 'Add Directly' opens the new-resource pages.
    await page.getByRole('button', { name: 'Add Integration' }).click();
    await page.getByRole('menu').getByText('Add Directly').waitFor();
    fs.mkdirSync(SCREENS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENS_DIR, 'settings-integrations.png') });
    await expect
      .poll(() => page.getByRole('menuitem').allTextContents())
      .toEqual(['Custom Topology', 'Catalog Scraper', 'Log Backends']);
    await page.getByRole('menuitem', { name: 'Custom Topology' }).click();
    await waitForUrl(page, (u) => u.pathname === '/settings/topologies/new');
    await page.getByRole('button', { name: 'Save' }).waitFor();
    await page.goBack();
    await page.getByRole('button', { name: 'Add Integration' }).click();
    await page.getByRole('menuitem', { name: 'Catalog Scraper' }).click();
    await waitForUrl(page, (u) => u.pathname === '/settings/config_scrapers/new');
    await page.getByRole('button', { name: 'Save' }).waitFor();
  });

  it('opens a topology and a scraper, and updates the scraper from the Code tab', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/integrations');
    await row(page, 'shop-int').click();
    await waitForUrl(page, (u) => u.pathname === `/settings/integrations/topologies/${topologyId}`);
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('shop-int');
    await expect.poll(() => page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    // Opened from the integrations, the page leads back there (back link, breadcrumb, Cancel).
    await expect.poll(() => page.getByRole('link', { name: 'Integrations' }).count()).toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => page.getByRole('link', { name: 'Cancel' }).getAttribute('href'))
      .toBe('/settings/integrations');
    await page.getByRole('tab', { name: 'Job History' }).click();
    // The scheduled run and the one run through the API.
    const topologyRuns = await runs('topology', topologyId);
    expect(topologyRuns).toBe(2);
    await expect
      .poll(() => page.getByTestId('pagination-range').textContent())
      .toBe(`1–${topologyRuns} of ${topologyRuns}`);

    await page.goto('/settings/integrations');
    await row(page, 'files-int').click();
    await waitForUrl(page, (u) => u.pathname === `/settings/integrations/scrapers/${scraperId}`);
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('files-int');
    await page.getByRole('tab', { name: 'Job History' }).click();
    const scraperRuns = await runs('config_scraper', scraperId);
    expect(scraperRuns).toBe(2);
    await expect
      .poll(() => page.getByTestId('pagination-range').textContent())
      .toBe(`1–${scraperRuns} of ${scraperRuns}`);

    await page.getByRole('tab', { name: 'Spec' }).click();
    await page.getByRole('tab', { name: 'Code' }).click();
    await expect.poll(() => page.locator('.cm-content').first().textContent()).toContain('kind: ScrapeConfig');
    await replaceEditorText(page, scrapeConfig('@every 2h'));
    await expect.poll(() => page.getByTestId('document-problems').count()).toBe(0);
    await page.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'files-int updated successfully');
    await waitForUrl(page, (u) => u.pathname === '/settings/integrations');
    const { rows } = await app.db.query<{ schedule: string; spec: { spec: { schedule: string } } }>(
      'SELECT schedule, spec FROM config_scrapers WHERE id = $1 AND deleted_at IS NULL',
      [scraperId],
    );
    expect(rows[0]).toMatchObject({ schedule: '@every 2h', spec: { spec: { schedule: '@every 2h' } } });
    await row(page, 'files-int').waitFor();
    await expect.poll(() => page.getByTestId('pagination-range').textContent()).toBe('1–2 of 2');
  });

  it("says 'Unknown type' for any other type", async () => {
    const page = await app.adminPage();
    await page.goto('/settings/integrations/foo/x');
    await page.getByText('Unknown type', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Integrations' }).first().click();
    await waitForUrl(page, (u) => u.pathname === '/settings/integrations');
  });

  it('creates an incident rule at /settings/incident_rules and lists it', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/incident_rules');
    await page.getByRole('link', { name: 'Add Incident Rule' }).click();
    await waitForUrl(page, (u) => u.pathname === '/settings/incident_rules/new');
    await page.getByLabel('Name', { exact: true }).fill('payments-down');
    await replaceEditorText(
      page,
      'components:\n  - types: [API]\nfilter:\n  status: [unhealthy]\ntemplate:\n  title: "{{.component.name}} is down"\n',
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'payments-down created successfully');
    await waitForUrl(page, (u) => /^\/settings\/incident_rules\/[0-9a-f-]{36}$/.test(u.pathname));
    const { rows } = await app.db.query<{ spec: unknown; source: string }>(
      `SELECT spec, source FROM incident_rules WHERE name = 'payments-down' AND deleted_at IS NULL`,
    );
    // Stored as POST /api/incidents/rules stores it: the form's fields with the rule's defaults.
    expect(rows).toEqual([
      {
        spec: {
          name: 'payments-down',
          priority: 0,
          breakOnMatch: false,
          autoResolve: { enabled: false },
          components: [{ types: ['API'] }],
          filter: { status: ['unhealthy'] },
          template: { title: '{{.component.name}} is down' },
        },
        source: 'UI',
      },
    ]);

    await page.goto('/settings/incident_rules');
    await page.getByRole('cell', { name: 'payments-down', exact: true }).waitFor();
  });
});
