// The topology screens against a real server and a real HTTP target on loopback: a Topology applied
// from YAML whose inline HTTP check targets the test's server, run through the API; its card turns
// healthy, then unhealthy when the target answers 500 and the check and topology run again. Then
// Zoom In (query carried, refererId added), sorting and the stored choices (sort, card width), the
// side panel's sections (one open at a time, Details first), linking a catalog item, the snapshot
// zip (its file names read back from the downloaded file), the snapshot failure toast, the empty
// state and the read-only /view/topology/{id} card. The scheduler is off: every run is explicit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';
import { startTarget, type HttpTarget } from './healthSeed.js';

const app = useConsole({ config: () => ({ engines: false }) });
let target: HttpTarget;
let topologyId = '';
let rootId = '';
let checkoutId = '';
let checkId = '';

beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => {
  await target?.close();
});

function topologyYaml(url: string): string {
  return `apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata:
  name: e2e-shop
  namespace: ops
spec:
  schedule: "@every 1h"
  type: App
  components:
    - name: checkout
      type: Service
      labels: {tier: web}
      properties:
        - name: cpu
          value: 80
          max: 100
        - name: memory
          value: 256
          max: 1024
          unit: MiB
        - name: rps
          value: 12
          headline: true
      checks:
        - inline:
            schedule: "@every 1h"
            http:
              - name: checkout-health
                url: ${url}/health
                responseCodes: [200]
    - name: cart
      type: Service
      labels: {tier: cache}
      properties:
        - name: cpu
          value: 20
          max: 100
`;
}

async function apiPost(page: Page, url: string, data?: string, contentType = 'application/json') {
  const res = await page.request.post(url, {
    data: data ?? '{}',
    headers: { 'content-type': contentType, origin: app.url },
  });
  const text = await res.text();
  if (res.status() >= 300) throw new Error(`${url}: ${res.status()} ${text}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.waitForTimeout(300); // let transitions settle
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

/** Runs the inline check, then the topology (whose run rolls health up). */
async function runCheckAndTopology(page: Page) {
  await apiPost(page, `/api/canary/run/check/${checkId}`);
  const run = await apiPost(page, `/api/topology/${topologyId}/run`);
  expect(run.errors).toEqual([]);
}

const card = (page: Page, name: string) => page.locator(`[data-testid="topology-card"][aria-label="${name}"]`);
const cardNames = (page: Page) => page.getByTestId('card-title').allTextContents();

describe('topology', () => {
  it('applies a Topology and follows its inline check on the card as the target breaks', async () => {
    const page = await app.adminPage();
    target.status = 200;
    const applied = await apiPost(page, '/api/topology', topologyYaml(target.url), 'application/yaml');
    topologyId = (applied.applied as Array<{ id: string }>)[0]!.id;
    const first = await apiPost(page, `/api/topology/${topologyId}/run`);
    expect(first.errors).toEqual([]);

    const { rows: checks } = await app.db.query<{ id: string }>(
      `SELECT c.id FROM checks c JOIN canaries ca ON ca.id = c.canary_id
       WHERE ca.source = $1 AND ca.deleted_at IS NULL AND c.name = 'checkout-health'`,
      [`topology:${topologyId}`],
    );
    expect(checks).toHaveLength(1);
    checkId = checks[0]!.id;
    const { rows: comps } = await app.db.query<{ id: string; name: string }>(
      `SELECT id, name FROM components WHERE topology_id = $1 AND deleted_at IS NULL`,
      [topologyId],
    );
    rootId = comps.find((c) => c.name === 'e2e-shop')!.id;
    checkoutId = comps.find((c) => c.name === 'checkout')!.id;

    await runCheckAndTopology(page);
    await page.goto('/topology');
    const shop = card(page, 'e2e-shop');
    await shop.waitFor();
    await expect.poll(() => shop.getAttribute('data-health')).toBe('healthy');
    // The children are listed in the card.
    await expect
      .poll(() => shop.getByTestId('child-component').allTextContents())
      .toEqual(expect.arrayContaining([expect.stringContaining('checkout'), expect.stringContaining('cart')]));

    target.status = 500;
    await runCheckAndTopology(page);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => shop.getAttribute('data-health')).toBe('unhealthy');
    await expect.poll(() => shop.locator('[data-health-color]').first().getAttribute('data-health-color')).toBe('red');
    await screenshot(page, 'light-topology-cards');
  });

  it('zooms in keeping the query, sorts by health first and keeps the chosen sort and width', async () => {
    const page = await app.adminPage();
    await page.goto('/topology?team=nobody:-1&status=unhealthy:1&refererId=gone');
    const shop = card(page, 'e2e-shop');
    await shop.getByRole('button', { name: 'Actions for e2e-shop' }).click();
    await page.getByRole('menuitem', { name: 'Zoom In' }).click();
    const url = await waitForUrl(page, (u) => u.pathname === `/topology/${rootId}`);
    expect(url.searchParams.get('team')).toBe('nobody:-1');
    expect(url.searchParams.has('status')).toBe(false);
    expect(url.searchParams.has('refererId')).toBe(false);

    // Health order, descending: the unhealthy checkout before cart (unknown).
    await expect.poll(() => cardNames(page)).toEqual(['checkout', 'cart']);
    const checkout = card(page, 'checkout');
    await expect.poll(() => checkout.getAttribute('data-health')).toBe('unhealthy');
    // CPU at 80 of 100 is red; memory at 25% is not; rps is a headline.
    await expect
      .poll(() => checkout.getByRole('progressbar', { name: 'cpu usage' }).getAttribute('data-tone'))
      .toBe('red');
    await expect
      .poll(() => checkout.getByRole('progressbar', { name: 'memory usage' }).getAttribute('data-tone'))
      .toBe('normal');
    await expect.poll(() => checkout.getByTestId('headline-properties').textContent()).toContain('12');
    await expect
      .poll(() => card(page, 'cart').getByRole('progressbar', { name: 'cpu usage' }).getAttribute('data-tone'))
      .toBe('normal');
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Breadcrumb' }).textContent())
      .toBe('Dashboarde2e-shop');

    // The sort choice: stored locally and sent to the server.
    const sent: URL[] = [];
    page.on('request', (r) => r.url().includes('/api/topology?') && sent.push(new URL(r.url())));
    await page.getByLabel('Sort by').selectOption({ label: 'Name' });
    await expect.poll(() => sent.at(-1)?.searchParams.get('sortBy')).toBe('name');
    await expect.poll(() => cardNames(page)).toEqual(['checkout', 'cart']); // still descending
    await page.getByRole('button', { name: 'Descending', exact: true }).click();
    await expect.poll(() => cardNames(page)).toEqual(['cart', 'checkout']);
    await expect.poll(() => sent.at(-1)?.searchParams.get('sortBy')).toBe('name');
    expect(sent.at(-1)?.searchParams.get('sortOrder')).toBe('asc');
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('topologyCardsSort')))
      .toBe(JSON.stringify({ sortBy: 'name', sortOrder: 'asc' }));
    // A sort by a headline property is offered.
    await expect.poll(() => page.getByLabel('Sort by').locator('option').allTextContents()).toContain('rps');

    // The card width slider: 250–768 in steps of 2, stored locally.
    const slider = page.getByRole('slider', { name: 'Card width' });
    expect(await slider.getAttribute('min')).toBe('250');
    expect(await slider.getAttribute('max')).toBe('768');
    expect(await slider.getAttribute('step')).toBe('2');
    await slider.fill('400');
    await expect.poll(async () => (await card(page, 'cart').boundingBox())?.width).toBe(400);
    await page.goto(`/topology/${rootId}`);
    await expect.poll(async () => (await card(page, 'cart').boundingBox())?.width).toBe(400);
    // Without sortBy in the link, the stored choice applies.
    await expect.poll(() => cardNames(page)).toEqual(['cart', 'checkout']);

    // The label filter: include, then exclude, in the query string and sent to the server.
    await page.getByRole('button', { name: /^Labels:/ }).click();
    await page.getByRole('listitem', { name: /^tier=web/ }).click();
    await waitForUrl(page, (u) => u.searchParams.get('labels') === 'tier=web:1');
    await expect.poll(() => cardNames(page)).toEqual(['checkout']);
    expect(sent.at(-1)?.searchParams.get('labels')).toBe('tier=web');
    await page.getByRole('listitem', { name: /^tier=web/ }).click();
    await waitForUrl(page, (u) => u.searchParams.get('labels') === 'tier=web:-1');
    await expect.poll(() => cardNames(page)).toEqual(['cart']);
    expect(sent.at(-1)?.searchParams.get('labels')).toBe('tier!=web');
    await page.keyboard.press('Escape');
    await page.evaluate(() => localStorage.removeItem('topologyCardsSort'));
  });

  it('opens the side panel sections one at a time and links a catalog item', async () => {
    const page = await app.adminPage();
    // Test data: one catalog item to link (the catalog engine would have scraped it).
    await app.db.query(
      `INSERT INTO config_items (external_id, type, config_class, name, health, status)
       VALUES ('e2e/orders-db', 'Postgres::Database', 'Database', 'e2e-orders-db', 'healthy', 'Running')`,
    );
    await page.goto(`/topology/${rootId}`);
    await card(page, 'checkout').getByRole('link', { name: 'checkout', exact: true }).click();
    const url = await waitForUrl(page, (u) => u.pathname === `/topology/${checkoutId}`);
    expect(url.searchParams.get('refererId')).toBe(rootId);
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Breadcrumb' }).textContent())
      .toBe('Dashboarde2e-shopcheckout');

    const panel = page.getByTestId('component-panel');
    const expanded = () => panel.locator('button[aria-expanded="true"]').allTextContents();
    // Details first; Incidents is there while the incidents feature is on.
    await expect.poll(expanded).toEqual(['Details']);
    await expect
      .poll(() => panel.locator('h3 button').allTextContents())
      .toEqual(['Details', 'Catalog', 'Incidents', 'Changes', 'Checks', 'Playbook runs', 'Teams', 'Insights']);
    await expect.poll(() => panel.getByTestId('panel-details').textContent()).toContain('Service');

    await panel.getByRole('button', { name: 'Checks', exact: true }).click();
    await expect.poll(expanded).toEqual(['Checks']);
    const check = panel.getByTestId('panel-check');
    await expect.poll(() => check.textContent()).toContain('checkout-health');
    await expect.poll(() => check.locator('[data-health-color]').getAttribute('data-health-color')).toBe('red');

    await panel.getByRole('button', { name: 'Teams', exact: true }).click();
    await expect.poll(expanded).toEqual(['Teams']);
    await panel.getByText('No teams own this component.').waitFor();
    await panel.getByRole('button', { name: 'Changes', exact: true }).click();
    await panel.getByText('No changelog found').waitFor();
    await panel.getByRole('button', { name: 'Insights', exact: true }).click();
    await panel.getByText('There are no insights for this component.').waitFor();
    await panel.getByRole('button', { name: 'Incidents', exact: true }).click();
    await panel.getByText('There are no incidents for this component.').waitFor();
    await panel.getByRole('button', { name: 'Playbook runs', exact: true }).click();
    await expect.poll(expanded).toEqual(['Playbook runs']);
    await panel.getByText('No playbook runs').waitFor();

    await panel.getByRole('button', { name: 'Catalog', exact: true }).click();
    await panel.getByText('No catalog items are linked to this component.').waitFor();
    await panel.getByRole('button', { name: 'Link to catalog' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to catalog' });
    const link = dialog.getByRole('button', { name: 'Link', exact: true });
    expect(await link.isDisabled()).toBe(true);
    const searches: URL[] = [];
    page.on('request', (r) => r.url().includes('/api/db/config_items') && searches.push(new URL(r.url())));
    await dialog.getByLabel('Search catalog').fill('orders');
    await expect.poll(() => searches.at(-1)?.searchParams.get('name')).toBe('ilike.*orders*');
    expect(searches.at(-1)?.searchParams.get('limit')).toBe('50');
    await dialog.getByRole('option', { name: /e2e-orders-db/ }).click();
    await link.click();
    await expectToast(page, 'config link successful');
    await expect.poll(() => panel.getByTestId('panel-catalog-rows').textContent()).toContain('e2e-orders-db');
    const { rows } = await app.db.query<{ selector_id: string }>(
      `SELECT selector_id FROM config_component_relationships WHERE component_id = $1 AND deleted_at IS NULL
         AND config_id IS NOT NULL`,
      [checkoutId],
    );
    expect(rows).toEqual([{ selector_id: 'manual' }]);
    await screenshot(page, 'light-topology-panel');
  });

  it('pages the Teams section 50 at a time as it scrolls, and stacks five team avatars on the card', async () => {
    const page = await app.adminPage();
    // Test data: 60 teams owning checkout.
    await app.db.query(
      `INSERT INTO teams (name) SELECT 'e2e-team-' || lpad(i::text, 2, '0') FROM generate_series(1, 60) AS i`,
    );
    await app.db.query(
      `INSERT INTO team_components (team_id, component_id) SELECT id, $1 FROM teams WHERE name LIKE 'e2e-team-%'`,
      [checkoutId],
    );
    const requests: URL[] = [];
    page.on('request', (r) => r.url().includes('/api/db/team_components') && requests.push(new URL(r.url())));
    await page.goto(`/topology/${checkoutId}`);
    const avatars = card(page, 'checkout').getByTestId('team-avatars');
    await expect.poll(() => avatars.locator('[aria-label^="e2e-team-"]').count()).toBe(5);
    await expect.poll(() => avatars.textContent()).toContain('+55');

    const panel = page.getByTestId('component-panel');
    await panel.getByRole('button', { name: 'Teams', exact: true }).click();
    const rows = panel.getByTestId('panel-teams-rows');
    await expect.poll(() => rows.locator('li').count()).toBe(50);
    expect(await rows.getAttribute('data-total')).toBe('60');
    expect(requests[0]!.searchParams.get('component_id')).toBe(`eq.${checkoutId}`);
    expect(requests[0]!.searchParams.get('limit')).toBe('50');
    expect(requests[0]!.searchParams.get('offset')).toBe('0');
    // Scrolling near the end loads the next page.
    await panel.locator('[data-panel-scroll]').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => rows.locator('li').count()).toBe(60);
    expect(requests.at(-1)!.searchParams.get('offset')).toBe('50');
  });

  it('offers View Logs only with an external id, and hides logs and incidents when their features are off', async () => {
    const page = await app.adminPage();
    await app.db.query(`UPDATE components SET external_id = 'ops/checkout' WHERE id = $1`, [checkoutId]);
    await page.goto(`/topology/${rootId}`);
    const actions = async (name: string) => {
      await card(page, name)
        .getByRole('button', { name: `Actions for ${name}` })
        .click();
      const items = await page.getByRole('menuitem').allTextContents();
      await page.keyboard.press('Escape');
      return items.map((t) => t.trim());
    };
    expect(await actions('checkout')).toEqual(['Zoom In', 'View Logs', 'Snapshot', 'Link to Incident', 'Silence']);
    expect(await actions('cart')).toEqual(['Zoom In', 'Snapshot', 'Link to Incident', 'Silence']);
    // A card is evidence for an incident: the Link to Incident dialog opens from its menu.
    await card(page, 'cart').getByRole('button', { name: 'Actions for cart' }).click();
    await page.getByRole('menuitem', { name: 'Link to Incident' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await card(page, 'checkout').getByRole('button', { name: 'Actions for checkout' }).click();
    expect(await page.getByRole('menuitem', { name: 'View Logs' }).getAttribute('href')).toBe(
      `/logs?topologyId=${checkoutId}`,
    );
    await page.keyboard.press('Escape');
    await expect
      .poll(() => card(page, 'checkout').getByTestId('card-incidents').getAttribute('href'))
      .toBe(`/incidents?component=${checkoutId}`);
    expect(await card(page, 'checkout').getByTestId('card-insights').getAttribute('href')).toBe(
      `/catalog/insights?component=${checkoutId}`,
    );

    for (const name of ['logs.disable', 'incidents.disable'])
      await apiPost(page, '/api/db/properties', JSON.stringify({ name, value: 'true' }));
    try {
      await page.goto(`/topology/${checkoutId}`);
      const panel = page.getByTestId('component-panel');
      await expect
        .poll(() => panel.locator('h3 button').allTextContents())
        .toEqual(['Details', 'Catalog', 'Changes', 'Checks', 'Playbook runs', 'Teams', 'Insights']);
      expect(await card(page, 'checkout').getByTestId('card-incidents').count()).toBe(0);
      expect(await actions('checkout')).toEqual(['Zoom In', 'Snapshot', 'Silence']);
    } finally {
      for (const name of ['logs.disable', 'incidents.disable']) {
        const res = await page.request.delete(`/api/db/properties?name=eq.${name}`, { headers: { origin: app.url } });
        expect(res.status()).toBeLessThan(300);
      }
    }
  });

  it('downloads a snapshot zip and toasts a failed download', async () => {
    const page = await app.adminPage();
    await page.goto(`/topology/${rootId}`);
    const panel = page.getByTestId('component-panel');
    await panel.getByRole('button', { name: 'Snapshot', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Download snapshot' });
    // The first time range is the default; related components are off by default.
    expect(await dialog.getByLabel('Time range').inputValue()).toBe('now-2d');
    const related = dialog.getByRole('switch', { name: 'Include related components' });
    expect(await related.getAttribute('aria-checked')).toBe('false');
    await related.click();

    const requested: URL[] = [];
    page.on('request', (r) => r.url().includes('/api/snapshot/') && requested.push(new URL(r.url())));
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    expect(requested[0]!.pathname).toBe(`/api/snapshot/topology/${rootId}`);
    expect(requested[0]!.searchParams.get('start')).toBe('now-2d');
    expect(requested[0]!.searchParams.get('related')).toBe('true');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-snapshot-')), 'snapshot.zip');
    await download.saveAs(file);
    const entries = unzipSync(new Uint8Array(fs.readFileSync(file)));
    expect(Object.keys(entries).sort()).toEqual(
      expect.arrayContaining([
        'component.json',
        'components.json',
        'checks.json',
        'check_statuses.json',
        'configs.json',
        'manifest.json',
        'related_components.json',
      ]),
    );
    const component = JSON.parse(new TextDecoder().decode(entries['component.json'])) as { name: string };
    expect(component.name).toBe('e2e-shop');
    const children = JSON.parse(new TextDecoder().decode(entries['components.json'])) as Array<{ name: string }>;
    expect(children.map((c) => c.name).sort()).toEqual(['cart', 'checkout']);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    await dialog.waitFor({ state: 'hidden' });

    // The server fails: the dialog stays and says so.
    await page.route('**/api/snapshot/**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
    );
    await panel.getByRole('button', { name: 'Snapshot', exact: true }).click();
    await page.getByRole('dialog', { name: 'Download snapshot' }).getByRole('button', { name: 'Download' }).click();
    await expectToast(page, 'Error downloading file');
    await page.unroute('**/api/snapshot/**');
    await page.keyboard.press('Escape');
  });

  it('shows the empty state, and the read-only card of /view/topology/{id} at a size', async () => {
    const page = await app.adminPage();
    await page.goto('/topology?type=NoSuchType:1');
    await page.getByText('There are no components matching this criteria').waitFor();

    await page.goto(`/view/topology/${checkoutId}?size=small`);
    const view = page.getByTestId('topology-view');
    const only = view.getByTestId('topology-card');
    await only.waitFor();
    await expect.poll(async () => (await only.boundingBox())?.width).toBe(198);
    await expect.poll(() => only.getAttribute('data-health')).toBe('unhealthy');
    expect(await only.getByRole('button', { name: /Actions for/ }).count()).toBe(0);
    // The shell's header and sidebar are covered: what shows at their place is the view's frame.
    for (const [x, y] of [
      [20, 100],
      [700, 20],
    ])
      expect(
        await page.evaluate(
          ([px, py]) => !!document.elementFromPoint(px!, py!)?.closest('[data-testid="topology-view"]'),
          [x, y],
        ),
      ).toBe(true);
    await screenshot(page, 'light-topology-view');
    await page.goto(`/view/topology/${checkoutId}?size=extra-large`);
    await expect.poll(async () => (await page.getByTestId('topology-card').boundingBox())?.width).toBe(554);
  });
});
