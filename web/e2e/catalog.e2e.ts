// The catalog screens against a real server: a file ScrapeConfig applied through the API over a
// temp folder the test writes (a namespace, a deployment, its replica set and four pods), run
// now; then the grouped summary → the flat list → the item (Config tab with YAML and selected
// lines in the URL), the file edited and scraped again, the change appearing in the item's and
// the global changes with its diff, the relationship table and graph (the four pods collapsed
// behind a group node, expanded on click, direction LR → TB, incoming relations), and 'Details
// not found'. The scheduler is off: every scrape is a Run Now.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';
import { applyScrapeConfig, runScraper, shopFolder, shopScrapeConfig, type ShopFolder } from './catalogSeed.js';

const app = useConsole({ config: () => ({ engines: false }) });
let folder: ShopFolder;
let scraperId = '';
let deploymentPath = '';

beforeAll(() => {
  folder = shopFolder();
});

async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.waitForTimeout(400); // let transitions and the graph's animation settle
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

/**
 * Waits until an element of the relationship graph stays put (the graph fits its view in a 300 ms
 * animation after each change): a click while it moves can land beside it, on the pane.
 */
async function settled(locator: ReturnType<Page['locator']>): Promise<void> {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = JSON.stringify(await locator.boundingBox());
        const same = now === last;
        last = now;
        return same;
      },
      { interval: 400 },
    )
    .toBe(true);
}

/** The id of the item of this type and name. */
async function itemId(type: string, name: string): Promise<string> {
  const { rows } = await app.db.query<{ id: string }>('SELECT id FROM config_items WHERE type = $1 AND name = $2', [
    type,
    name,
  ]);
  return rows[0]!.id;
}
afterAll(() => folder?.remove());

describe('catalog', () => {
  it('applies a file ScrapeConfig and runs it', async () => {
    const page = await app.adminPage();
    scraperId = await applyScrapeConfig(page, app.url, shopScrapeConfig(folder));
    const run = await runScraper(page, app.url, scraperId);
    expect(run).toMatchObject({ status: 'SUCCESS' });
  });

  it('shows the grouped summary and drills into the flat list of a type', async () => {
    const page = await app.adminPage();
    await page.goto('/catalog');
    const summary = page.getByRole('table', { name: 'Catalog summary' });
    const podRow = summary.locator('tbody tr').filter({ hasText: 'Kubernetes::Pod' });
    await podRow.waitFor();
    // Grouped by class and type by default.
    await expect.poll(() => summary.locator('thead').textContent()).toContain('Class');
    expect(await podRow.getByTestId('summary-count').textContent()).toBe('4');
    await screenshot(page, 'catalog-summary');
    await expect
      .poll(async () => (await summary.locator('tbody tr').allTextContents()).map((t) => t.includes('Kubernetes')))
      .toEqual([true, true, true, true]);

    await podRow.click();
    await waitForUrl(
      page,
      (u) => u.searchParams.get('configType') === 'Kubernetes::Pod' && !u.searchParams.has('groupBy'),
    );
    const list = page.getByRole('table', { name: 'Catalog items' });
    await expect
      .poll(async () => (await list.getByTestId('config-name').allTextContents()).sort())
      .toEqual(['web-1-a', 'web-1-b', 'web-1-c', 'web-1-d']);
    await expect.poll(() => page.getByTestId('pagination-range').textContent()).toBe('1–4 of 4');
    await screenshot(page, 'catalog-list');
  });

  it('searches the catalog from the debounced search box into the query string', async () => {
    const page = await app.adminPage();
    await page.goto('/catalog');
    await page.getByRole('table', { name: 'Catalog summary' }).locator('tbody tr').first().waitFor();
    await page.getByLabel('Search catalog').fill('web-1');
    await waitForUrl(page, (u) => u.searchParams.get('search') === 'web-1');
    const list = page.getByRole('table', { name: 'Catalog items' });
    await expect
      .poll(async () => (await list.getByTestId('config-name').allTextContents()).sort())
      .toEqual(['web-1', 'web-1-a', 'web-1-b', 'web-1-c', 'web-1-d']);
  });

  it('filters by tags (include and exclude) and health, and sorts on the server', async () => {
    const page = await app.adminPage();
    const list = page.getByRole('table', { name: 'Catalog items' });
    const names = () => list.getByTestId('config-name').allTextContents();
    await page.goto('/catalog?configType=Kubernetes::Pod&labels=namespace%3Dshop:1');
    await expect.poll(async () => (await names()).length).toBe(4);
    await page.goto('/catalog?configType=Kubernetes::Pod&labels=namespace%3Dshop:-1');
    await list.getByText('No data available').waitFor();
    await page.goto('/catalog?configType=Kubernetes::Deployment&health=unhealthy:-1');
    await list.getByText('No data available').waitFor();
    await page.goto('/catalog?configType=Kubernetes::Deployment&health=unhealthy:1');
    await expect.poll(names).toEqual(['web']);
    // The summary with a tag filter excluding everything.
    await page.goto('/catalog?labels=namespace%3Dshop:-1');
    const summary = page.getByRole('table', { name: 'Catalog summary' });
    await expect
      .poll(() => summary.locator('tbody tr').allTextContents())
      .toEqual([expect.stringContaining('Kubernetes::Namespace')]);

    await page.goto('/catalog?configType=Kubernetes::Pod');
    await expect.poll(names).toEqual(['web-1-a', 'web-1-b', 'web-1-c', 'web-1-d']);
    await list.getByRole('button', { name: 'Name' }).click();
    await waitForUrl(page, (u) => u.searchParams.get('sortBy') === 'name' && u.searchParams.get('sortOrder') === 'asc');
    await list.getByRole('button', { name: 'Name' }).click();
    await waitForUrl(page, (u) => u.searchParams.get('sortOrder') === 'desc');
    await expect.poll(names).toEqual(['web-1-d', 'web-1-c', 'web-1-b', 'web-1-a']);
  });

  it('opens an item with its config, YAML conversion and selected lines kept in the URL', async () => {
    const page = await app.adminPage();
    await page.goto('/catalog?configType=Kubernetes::Deployment');
    const list = page.getByRole('table', { name: 'Catalog items' });
    await list.getByTestId('config-name').filter({ hasText: /^web$/ }).click();
    const url = await waitForUrl(page, (u) => /^\/catalog\/[0-9a-f-]{36}$/.test(u.pathname));
    deploymentPath = url.pathname;

    await expect
      .poll(() => page.getByRole('navigation', { name: 'Breadcrumb' }).textContent())
      .toContain('Kubernetes::Deployment');
    const code = page.getByTestId('config-code');
    await expect.poll(() => code.textContent()).toContain('"replicas": 1');
    await page.getByRole('radio', { name: 'yaml' }).click();
    await expect.poll(() => code.textContent()).toContain('replicas: 1');
    await page.getByRole('button', { name: 'Select line 2', exact: true }).click();
    await page.getByRole('button', { name: 'Select line 3', exact: true }).click();
    await waitForUrl(page, (u) => u.searchParams.getAll('selected').join(',') === '2,3');
    await expect.poll(() => page.locator('[data-testid="code-line"][data-selected]').count()).toBe(2);
    await page.reload();
    await expect.poll(() => page.locator('[data-testid="code-line"][data-selected]').count()).toBe(2);
    // The sidebar shows the scraper that read it.
    expect(await page.getByTestId('config-sidebar').textContent()).toContain('shop-files');
    await screenshot(page, 'catalog-item-config');

    // The selected lines become config evidence of a new incident, with 3 lines of context.
    const configId = deploymentPath.split('/').pop()!;
    await page.getByRole('button', { name: 'Link to Incident' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to Incident' });
    await dialog.getByLabel('Incident title').fill('web deployment drifted');
    await dialog.getByLabel('Type').selectOption('reliability');
    await dialog.getByLabel('Severity').selectOption('high');
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await expect
      .poll(async () => {
        const { rows } = await app.db.query<{ type: string; config_id: string; evidence: unknown }>(
          `SELECT e.type, e.config_id, e.evidence FROM incidents i
           JOIN hypotheses h ON h.incident_id = i.id JOIN evidences e ON e.hypothesis_id = h.id
           WHERE i.title = 'web deployment drifted'`,
        );
        return rows[0];
      })
      .toMatchObject({ type: 'config', config_id: configId });
    const { rows } = await app.db.query<{
      evidence: { lines: Record<string, string>; selected_lines: Record<string, string> };
    }>(`SELECT e.evidence FROM evidences e WHERE e.config_id = $1`, [configId]);
    expect(Object.keys(rows[0]!.evidence.selected_lines)).toEqual(['2', '3']);
    expect(Object.keys(rows[0]!.evidence.lines).map(Number)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('shows a change after the file is edited and scraped again, with its diff', async () => {
    const page = await app.adminPage();
    folder.write(3);
    expect(await runScraper(page, app.url, scraperId)).toMatchObject({ status: 'SUCCESS' });

    await page.goto(`${deploymentPath}/changes`);
    const changes = page.getByRole('table', { name: 'Changes' });
    await expect.poll(() => changes.getByTestId('change-type').allTextContents()).toEqual(['diff']);
    await expect.poll(() => page.getByTestId('tab-count-changes').textContent()).toBe('1');
    await changes.locator('tbody tr').first().click();
    await waitForUrl(page, (u) => u.searchParams.has('id'));
    const diff = page.getByTestId('change-diff');
    await diff.waitFor();
    const added = await diff.locator('[data-kind="add"]').allTextContents();
    const removed = await diff.locator('[data-kind="del"]').allTextContents();
    expect(added.join('\n')).toContain('replicas: 3');
    expect(removed.join('\n')).toContain('replicas: 1');
    await screenshot(page, 'catalog-change-diff');
    await page.keyboard.press('Escape');
    await waitForUrl(page, (u) => !u.searchParams.has('id'));

    // The global changes list has it too, in the default range of the last 2 days.
    await page.goto('/catalog/changes');
    await waitForUrl(page, (u) => u.searchParams.get('range') === 'now-2d');
    const all = page.getByRole('table', { name: 'Changes' });
    await expect.poll(() => all.locator('tbody tr').filter({ hasText: 'web' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'catalog-changes');
    // A filter that matches nothing: the empty state.
    await page.goto('/catalog/changes?changeType=NoSuchChange:1');
    await page.getByText('No changelog found').waitFor();
  });

  it('shows relationships as a table and a graph, with groups, layout direction and incoming relations', async () => {
    const page = await app.adminPage();
    await page.goto(`${deploymentPath}/relationships`);
    const table = page.getByRole('table', { name: 'Related items' });
    // Outgoing only by default: the replica set and its four pods.
    await expect.poll(() => table.locator('tbody tr').count()).toBe(5);
    expect(await page.getByRole('switch', { name: 'Outgoing' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByRole('switch', { name: 'Incoming' }).getAttribute('aria-checked')).toBe('false');

    await page.getByRole('radio', { name: 'Graph' }).click();
    const graph = page.getByTestId('relationship-graph');
    await graph.waitFor();
    // Deployment and replica set drawn; the four pods behind a collapsed group node.
    await expect.poll(() => graph.getByTestId('graph-node').count()).toBe(2);
    const group = graph.getByTestId('graph-group');
    expect(await group.getAttribute('data-expanded')).toBe('false');
    await settled(group);
    await group.getByRole('button').click();
    await expect.poll(() => graph.getByTestId('graph-node').count()).toBe(6);
    await screenshot(page, 'catalog-graph-lr');
    expect(await graph.getAttribute('data-direction')).toBe('LR');
    await page.getByRole('radio', { name: 'TB' }).click();
    await expect.poll(() => graph.getAttribute('data-direction')).toBe('TB');
    await page.getByRole('radio', { name: 'Smooth step' }).click();
    await expect.poll(() => graph.getAttribute('data-edge-style')).toBe('smoothstep');
    await screenshot(page, 'catalog-graph-tb');

    // Incoming on, outgoing off: the namespace above the deployment.
    await page.getByRole('switch', { name: 'Incoming' }).click();
    await page.getByRole('switch', { name: 'Outgoing' }).click();
    await expect
      .poll(() => graph.getByTestId('graph-node').allTextContents())
      .toEqual(expect.arrayContaining([expect.stringContaining('shop')]));
    await expect.poll(() => graph.getByTestId('graph-node').count()).toBe(2);
    // Turning incoming off forces outgoing back on.
    await page.getByRole('switch', { name: 'Incoming' }).click();
    await expect.poll(() => page.getByRole('switch', { name: 'Outgoing' }).getAttribute('aria-checked')).toBe('true');
  });

  it('shows the scraper with its spec and job history', async () => {
    const page = await app.adminPage();
    await page.goto('/catalog/scrapers');
    await page.getByRole('table', { name: 'Scrapers' }).getByText('shop-files').click();
    await waitForUrl(page, (u) => u.pathname === `/catalog/scrapers/${scraperId}`);
    await expect.poll(() => page.locator('.cm-content').first().textContent()).toContain('ScrapeConfig');
    await page.getByRole('tab', { name: 'Job History' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Job history' }).locator('tbody tr').count()).toBe(2);
  });

  it('flags a stale scrape, a 1-day cost change, and hides deleted items unless the preference says otherwise', async () => {
    const page = await app.adminPage();
    const web = await itemId('Kubernetes::Deployment', 'web');
    const pod = await itemId('Kubernetes::Pod', 'web-1-d');
    await app.db.query(
      `UPDATE config_items SET last_scraped_time = now() - interval '2 hours', cost_total_1d = 5, cost_total_7d = 14,
         cost_total_30d = 30, changes = 1200 WHERE id = $1`,
      [web],
    );
    await app.db.query(`UPDATE config_items SET deleted_at = now() - interval '1 hour' WHERE id = $1`, [pod]);

    await page.goto('/catalog?configType=Kubernetes::Deployment');
    const list = page.getByRole('table', { name: 'Catalog items' });
    const row = list.locator('tbody tr').filter({ hasText: 'web' });
    // 5 a day against a daily average of 1: up, shown as a multiple; 1200 changes as 1k+, highlighted.
    await expect.poll(() => row.getByTestId('cost-change').textContent()).toBe('5x');
    expect(await row.textContent()).toContain('$5.00');
    expect(await row.textContent()).toContain('$30');
    expect(await row.getByTestId('changes-count').textContent()).toBe('1k+');
    expect(await row.getByTestId('changes-count').getAttribute('data-high')).toBe('true');

    await page.goto(`/catalog/${web}`);
    await expect.poll(() => page.getByTestId('stale-scrape').textContent()).toContain('Last scraped 2h ago');

    // Deleted items are hidden by default (areDeletedConfigsHidden).
    await page.goto('/catalog?configType=Kubernetes::Pod');
    const pods = page.getByRole('table', { name: 'Catalog items' });
    await expect.poll(() => pods.getByTestId('config-name').count()).toBe(3);
    await page.getByRole('button', { name: 'Preferences' }).click();
    const hide = page.getByRole('switch', { name: 'Hide Deleted Catalog' });
    expect(await hide.getAttribute('aria-checked')).toBe('true');
    await hide.click();
    await page.keyboard.press('Escape');
    await expect.poll(() => pods.getByTestId('config-name').count()).toBe(4);
    expect(await pods.getByTestId('deleted-marker').count()).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem('areDeletedConfigsHidden'))).toBe('false');

    // A deleted item: the marker, 'Last status' for its health, and no stale-scrape warning.
    await page.goto(`/catalog/${pod}`);
    await page.getByTestId('config-sidebar').getByText('Last status').waitFor();
    expect(await page.getByTestId('deleted-marker').count()).toBe(1);
    expect(await page.getByTestId('stale-scrape').count()).toBe(0);
  });

  it('lists insights with their columns and opens one in the detail panel', async () => {
    const page = await app.adminPage();
    const web = await itemId('Kubernetes::Deployment', 'web');
    await app.db.query(
      `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, message, status, source)
       VALUES ($1, 'replica-count', 'availability', 'high', 'Only one replica: no redundancy', 'open', 'e2e'),
              ($1, 'image-tag', 'security', 'low', 'Image tag is not pinned', 'resolved', 'e2e')`,
      [web],
    );
    await page.goto('/catalog/insights');
    const table = page.getByRole('table', { name: 'Insights' });
    await expect
      .poll(() => table.locator('thead th').allTextContents())
      .toEqual(['Catalog', 'Type', 'Analyzer', 'Severity', 'Status', 'First Observed', 'Last Observed']);
    await expect
      .poll(() => table.getByTestId('insight-analyzer').allTextContents())
      .toEqual(expect.arrayContaining(['replica-count', 'image-tag']));
    await page.getByLabel('Severity').selectOption('high');
    await waitForUrl(page, (u) => u.searchParams.get('severity') === 'high');
    await expect.poll(() => table.getByTestId('insight-analyzer').allTextContents()).toEqual(['replica-count']);
    await table.locator('tbody tr').first().click();
    await expect
      .poll(() => page.getByTestId('insight-panel').textContent())
      .toContain('Only one replica: no redundancy');
    await page.keyboard.press('Escape');

    // The item's Insights tab, with its count badge.
    await page.goto(`/catalog/${web}/insights`);
    await expect.poll(() => page.getByTestId('tab-count-insights').textContent()).toBe('2');
    await expect.poll(() => page.getByRole('table', { name: 'Insights' }).locator('tbody tr').count()).toBe(2);
  });

  it('unlinks a component linked by hand', async () => {
    const page = await app.adminPage();
    const web = await itemId('Kubernetes::Deployment', 'web');
    const { rows } = await app.db.query<{ id: string }>(
      "INSERT INTO components (name, type) VALUES ('shop-frontend', 'Service') RETURNING id",
    );
    const res = await page.request.post('/api/catalog/config-links', {
      data: { component_id: rows[0]!.id, config_id: web },
      headers: { origin: app.url },
    });
    expect(res.status()).toBe(201);
    await page.goto(`/catalog/${web}/relationships`);
    const links = page.getByTestId('linked-components');
    await links.getByText('shop-frontend').waitFor();
    await links.getByRole('button', { name: 'Unlink' }).click();
    await expectToast(page, 'Deleted config link successfully');
    await expect.poll(() => page.getByTestId('linked-components').count()).toBe(0);
  });

  it("shows 'Details not found' for an unknown item and redirects /configs to /catalog", async () => {
    const page = await app.adminPage();
    await page.goto('/catalog/00000000-0000-0000-0000-00000000abcd');
    await page.getByText('Details not found').waitFor();
    await page.goto('/configs?configType=Kubernetes::Pod');
    await waitForUrl(page, (u) => u.pathname === '/catalog' && u.searchParams.get('configType') === 'Kubernetes::Pod');
  });
});
