// The health dashboard against a real server and a real HTTP target on loopback: a Canary applied
// from YAML on the settings page (a YAML error and the server's errors shown on their lines first),
// Run Now in the check drawer while the target answers 200 and then 500, the passing and failing
// counts following it, the history filters (status, and a custom duration that must be in ms or
// s), grouping, tabs, label filters and search from the query string, the HTTP check form, and
// screenshots of the dashboard and the drawer. The scheduler is off: every run is a Run Now.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';
import { applyCanary, canaryYaml, recordRuns, startTarget, type HttpTarget } from './healthSeed.js';

const app = useConsole({ config: () => ({ engines: false }) });
let target: HttpTarget;

beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => {
  await target?.close();
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
  await page.waitForTimeout(300); // let transitions settle
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

const problems = (page: Page) => page.getByTestId('document-problems').textContent();
const counts = async (page: Page) => ({
  passing: Number((await page.getByTestId('health-passing').locator('strong').textContent()) ?? -1),
  failing: Number((await page.getByTestId('health-failing').locator('strong').textContent()) ?? -1),
});
const checkRows = (page: Page) => page.getByTestId('check-row');
const rowNames = async (page: Page) =>
  (await checkRows(page).locator('td:first-child .font-medium').allTextContents()).map((t) => t.trim());

let webCheckId = '';
const PLAYBOOK_FOR_HTTP_CHECKS = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: echo-check}
spec:
  title: Echo the check
  checks: [{types: [http]}]
  actions:
    - name: echo
      exec: {script: "echo {{.check.name}}"}
`;
/** For what waits on a few requests in a row while the machine is busy. */
const SLOW = { timeout: 20_000 };

describe('health checks', () => {
  it('applies a Canary from YAML in Settings after showing a YAML error and the server’s errors on their lines', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/canaries');
    await page.getByText('No data available').waitFor();
    await page.getByRole('link', { name: 'Add Health Check' }).click();
    await waitForUrl(page, (u) => u.pathname === '/settings/canaries/new');
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.locator('.cm-content').first().waitFor();
    // The Code tab starts from a Canary skeleton.
    await expect.poll(() => page.locator('.cm-content').first().textContent()).toContain('kind: Canary');

    let posted = 0;
    page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/canary' && posted++);
    const save = page.getByRole('button', { name: 'Save' });

    // A YAML syntax error: found in the browser, on its line; nothing is sent.
    await replaceEditorText(
      page,
      'apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata:\n  name: e2e-web\nspec:\n  http:\n    - name: e2e-home\n      url: [unclosed\n',
    );
    await expect.poll(() => problems(page)).toMatch(/^Line \d+: /);
    await expect.poll(() => save.isDisabled()).toBe(true);
    await page.locator('.cm-lint-marker-error').first().waitFor();
    expect(posted).toBe(0);

    // Valid YAML the server refuses: its errors come back with line and column, in the list and the editor.
    const good = canaryYaml({ name: 'e2e-web', http: { 'e2e-home': '/' }, targetUrl: target.url });
    await replaceEditorText(page, good.replace('"@every 1h"', '"@every banana"'));
    await expect.poll(() => page.getByTestId('document-problems').count()).toBe(0);
    await save.click();
    await expect.poll(() => problems(page)).toContain('Line 6, column 13: spec.schedule: "banana" is not a duration');
    await page.locator('.cm-lint-marker-error').first().waitFor();
    await screenshot(page, 'light-canary-code-errors');
    expect(posted).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/settings/canaries/new');

    // Fixed: saved, and the page moves to the stored canary.
    await replaceEditorText(page, good);
    await expect.poll(() => page.getByTestId('document-problems').count()).toBe(0);
    await save.click();
    await expectToast(page, 'e2e-web created successfully');
    const url = await waitForUrl(page, (u) => /^\/settings\/canaries\/[0-9a-f-]{36}$/.test(u.pathname));
    expect(posted).toBe(2);
    const id = url.pathname.split('/').pop()!;
    const { rows } = await app.db.query<{ name: string; source: string; schedule: string }>(
      'SELECT name, source, schedule FROM canaries WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ name: 'e2e-web', source: 'UI', schedule: '@every 1h' });
    const checks = await app.db.query<{ id: string; name: string }>(
      'SELECT id, name FROM checks WHERE canary_id = $1',
      [id],
    );
    expect(checks.rows.map((c) => c.name)).toEqual(['e2e-home']);
    webCheckId = checks.rows[0].id;

    // The list: name, namespace, schedule, number of checks, source.
    await page.goto('/settings/canaries');
    const row = page.getByRole('row').filter({ hasText: 'e2e-web' });
    await row.waitFor();
    await expect
      .poll(() => row.getByRole('cell').allTextContents())
      .toEqual(expect.arrayContaining(['e2e-web', 'default', '@every 1h', '1', 'UI']));
  });

  it('runs the check from the drawer and follows it on the dashboard as the target breaks', async () => {
    const page = await app.adminPage();
    target.status = 200;
    await page.goto('/health');
    // Never run: not passing, so shown with Hide Passing on (the default).
    const row = checkRows(page).filter({ hasText: 'e2e-home' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('Unknown');
    await expect.poll(() => counts(page)).toEqual({ passing: 0, failing: 0 });

    await row.click();
    await waitForUrl(page, (u) => u.searchParams.get('checkId') === webCheckId);
    const drawer = page.getByRole('dialog');
    await expect.poll(() => drawer.getByTestId('check-drawer-title').textContent()).toBe('e2e-home');
    await expect.poll(() => drawer.getByTestId('check-endpoint').textContent()).toBe(`${target.url}/`);
    // Modal without restyling the whole page (ui/overlay.tsx): <body> takes no presses (Radix) but the
    // page's root keeps its own pointer-events, so the change stops there; no scroll lock on <body>;
    // focus is in the drawer.
    expect(
      await page.evaluate(() => ({
        root: getComputedStyle(document.getElementById('root')!).pointerEvents,
        body: document.body.style.pointerEvents,
        scrollLock: document.body.hasAttribute('data-scroll-locked'),
        focusInDrawer: !!document.activeElement?.closest('[role="dialog"]'),
      })),
    ).toEqual({ root: 'auto', body: 'none', scrollLock: false, focusInDrawer: true });
    // No playbook runs on this check yet: no Playbooks menu.
    await drawer.getByRole('button', { name: 'Run Now' }).waitFor();
    expect(await drawer.getByRole('button', { name: /Playbooks/ }).count()).toBe(0);
    // Applied canaries are scheduled at once: the drawer shows when the check runs next.
    await expect.poll(() => drawer.getByTestId('metric-next-run').textContent()).not.toContain('Not scheduled');
    await drawer.getByRole('button', { name: 'Run Now' }).click();
    await expectToast(page, /e2e-home passed in \d/);
    await drawer.getByTestId('check-drawer-header').getByText('Healthy').waitFor();
    await expect.poll(() => drawer.getByTestId('metric-uptime').textContent()).toContain('100.0%');
    await expect.poll(() => drawer.getByRole('table', { name: 'Check history' }).getByRole('row').count()).toBe(2);

    await page.keyboard.press('Escape');
    await waitForUrl(page, (u) => !u.searchParams.has('checkId'));
    // Now passing: hidden by Hide Passing, counted as passing.
    await expect.poll(() => counts(page)).toEqual({ passing: 1, failing: 0 });
    await page.getByText('No data available').waitFor();
    await page.getByRole('switch', { name: /Hide Passing/ }).click();
    await waitForUrl(page, (u) => u.searchParams.get('hidePassing') === 'false');
    await checkRows(page).filter({ hasText: 'e2e-home' }).getByText('Healthy').waitFor();

    // The target breaks; the drawer opened from a link runs it again.
    target.status = 500;
    await page.goto(`/health?checkId=${webCheckId}`);
    await page.getByRole('dialog').getByRole('button', { name: 'Run Now' }).click();
    await expectToast(page, /e2e-home failed: .*500/);
    await page.getByRole('dialog').getByTestId('check-drawer-header').getByText('Unhealthy').waitFor();
    await expect.poll(() => page.getByTestId('metric-uptime').textContent()).toContain('50.0%');
    // A press on the backdrop (left of the drawer) closes it, and the page takes presses again.
    await page.mouse.click(12, 450);
    await waitForUrl(page, (u) => !u.searchParams.has('checkId'));
    await expect
      .poll(() =>
        page.evaluate(() => [document.getElementById('root')!.style.pointerEvents, document.body.style.pointerEvents]),
      )
      .toEqual(['', '']);
    await expect.poll(() => counts(page)).toEqual({ passing: 0, failing: 1 });
    const failing = checkRows(page).filter({ hasText: 'e2e-home' });
    await failing.getByText('Unhealthy').waitFor();
    await expect
      .poll(() => failing.locator('[data-health-color]').first().getAttribute('data-health-color'))
      .toBe('red');
    // The age cell ('just now') has the full date as its tooltip once the pointer is on it.
    const age = failing.locator('td').nth(4);
    await age.hover();
    await expect.poll(() => age.getAttribute('title')).toContain(String(new Date().getFullYear()));
  });

  it('filters the check history by status and by a custom duration only in ms or s', async () => {
    const page = await app.adminPage();
    const requests: URL[] = [];
    page.on('request', (r) => r.url().includes('/api/db/check_statuses') && requests.push(new URL(r.url())));
    await page.goto(`/health?checkId=${webCheckId}`);
    const drawer = page.getByRole('dialog');
    const history = drawer.getByRole('table', { name: 'Check history' });
    const historyRows = () => history.locator('tbody tr').count();
    await expect.poll(historyRows, SLOW).toBe(2);
    const first = requests[0];
    expect(first.searchParams.get('check_id')).toBe(`eq.${webCheckId}`);
    expect(first.searchParams.get('time')).toMatch(/^gt\.\d{4}-\d\d-\d\dT/);
    expect(first.searchParams.get('order')).toBe('time.desc');
    expect(first.searchParams.get('limit')).toBe('50');
    expect(first.searchParams.get('offset')).toBe('0');
    await expect
      .poll(() => drawer.getByLabel('Page size').locator('option').allTextContents())
      .toEqual(['50', '100', '200']);

    await drawer.getByLabel('Status').selectOption({ label: 'Healthy' });
    await expect.poll(() => requests.at(-1)?.searchParams.get('status')).toBe('eq.true');
    await expect.poll(historyRows).toBe(1);
    await expect.poll(() => history.textContent()).not.toContain('got 500');
    await drawer.getByLabel('Status').selectOption({ label: 'Unhealthy' });
    await expect.poll(() => requests.at(-1)?.searchParams.get('status')).toBe('eq.false');
    await expect.poll(() => history.textContent()).toContain('500');
    await drawer.getByLabel('Status').selectOption({ label: 'All' });
    await expect.poll(historyRows).toBe(2);

    // A custom duration in minutes is refused and changes nothing.
    await drawer.getByLabel('Duration', { exact: true }).selectOption({ label: 'Custom…' });
    const sent = requests.length;
    await drawer.getByLabel('Custom duration').fill('5 minutes');
    await drawer.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => drawer.getByTestId('duration-error').textContent())
      .toBe('duration is allowed only in milli seconds & seconds');
    await page.waitForTimeout(300);
    expect(requests.slice(sent).some((u) => u.searchParams.has('duration'))).toBe(false);
    expect(await historyRows()).toBe(2);

    // Seconds are converted to ms.
    await drawer.getByLabel('Custom duration').fill('2s');
    await drawer.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => requests.at(-1)?.searchParams.get('duration')).toBe('gte.2000');
    await drawer.getByTestId('duration-active').waitFor();
    await expect.poll(() => drawer.getByTestId('duration-error').count()).toBe(0);
    await history.getByText('No data available').waitFor();
    await drawer.getByLabel('Duration', { exact: true }).selectOption({ label: '500ms' });
    await expect.poll(() => requests.at(-1)?.searchParams.get('duration')).toBe('gte.500');

    // Spec and Relationships tabs.
    await drawer.getByRole('tab', { name: 'Spec' }).click();
    await expect.poll(() => drawer.locator('.cm-content').textContent()).toContain(`url: ${target.url}/`);
    await drawer.getByRole('tab', { name: /Relationships/ }).click();
    await drawer.getByText('No related components or configs').waitFor();
    await expect.poll(() => drawer.getByTestId('relationships-count').textContent(), SLOW).toBe('0');
    // A playbook for http checks: the admin gets the Playbooks menu, listing it.
    const applied = await page.request.post('/api/playbook', {
      data: PLAYBOOK_FOR_HTTP_CHECKS,
      headers: { 'content-type': 'application/yaml', origin: app.url },
    });
    expect(applied.ok()).toBe(true);
    await page.reload();
    await drawer.getByRole('button', { name: 'Playbooks' }).click();
    await page.getByRole('menuitem', { name: 'Echo the check' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menuitem').count()).toBe(0);

    // Linked to a component (as a topology that selects the check links it) and a config item;
    // a soft-deleted component and a second selector for the same item are not listed twice.
    const component = await app.db.query<{ id: string }>(
      `INSERT INTO components (name, type, icon, health) VALUES ('payments-frontend', 'WebService', 'http', 'unhealthy') RETURNING id`,
    );
    const gone = await app.db.query<{ id: string }>(
      `INSERT INTO components (name, health, deleted_at) VALUES ('retired-frontend', 'healthy', now()) RETURNING id`,
    );
    const config = await app.db.query<{ id: string }>(
      `INSERT INTO config_items (external_id, type, config_class, name, health)
       VALUES ('default/e2e-pod', 'Kubernetes::Pod', 'Pod', 'e2e-pod', 'healthy') RETURNING id`,
    );
    const canary = await app.db.query<{ canary_id: string }>('SELECT canary_id FROM checks WHERE id = $1', [
      webCheckId,
    ]);
    for (const [componentId, selector] of [
      [component.rows[0].id, 'manual'],
      [component.rows[0].id, 'selector-1'],
      [gone.rows[0].id, 'manual'],
    ])
      await app.db.query(
        `INSERT INTO check_component_relationships (check_id, component_id, canary_id, selector_id) VALUES ($1, $2, $3, $4)`,
        [webCheckId, componentId, canary.rows[0].canary_id, selector],
      );
    await app.db.query(
      `INSERT INTO check_config_relationships (check_id, config_id, canary_id, selector_id) VALUES ($1, $2, $3, 'manual')`,
      [webCheckId, config.rows[0].id, canary.rows[0].canary_id],
    );
    await page.goto(`/health?checkId=${webCheckId}`);
    await expect.poll(() => drawer.getByTestId('relationships-count').textContent(), SLOW).toBe('2');
    await drawer.getByRole('tab', { name: /Relationships/ }).click();
    const components = drawer.getByRole('region', { name: 'Components' });
    const configs = drawer.getByRole('region', { name: 'Configs' });
    await expect
      .poll(() => components.getByTestId('relationship-row').allTextContents(), SLOW)
      .toEqual([expect.stringMatching(/^payments-frontend.*WebService.*unhealthy/)]);
    await expect
      .poll(() =>
        components.getByRole('img', { name: 'Component health: unhealthy' }).getAttribute('data-health-color'),
      )
      .toBe('red');
    await expect
      .poll(() => configs.getByTestId('relationship-row').allTextContents())
      .toEqual([expect.stringMatching(/^e2e-pod.*Kubernetes::Pod.*healthy/)]);
    expect(await configs.getByRole('link').getAttribute('href')).toBe(`/catalog/${config.rows[0].id}`);
    await expect
      .poll(() => drawer.getByRole('link', { name: 'Edit' }).getAttribute('href'))
      .toMatch(/^\/settings\/canaries\/[0-9a-f-]{36}$/);
    await components.getByRole('link', { name: /payments-frontend/ }).click();
    await waitForUrl(page, (u) => u.pathname === `/topology/${component.rows[0].id}`);
  });

  it('groups, tabs, filters by label and searches from the query string', async () => {
    const page = await app.adminPage();
    const pay = await applyCanary(
      page,
      app.url,
      canaryYaml({
        name: 'payments',
        namespace: 'payments',
        labels: { team: 'payments', env: 'prod', critical: 'true' },
        http: { 'payments-api': '/pay', 'payments-ledger': '/ledger' },
        targetUrl: target.url,
      }),
    );
    const search = await applyCanary(
      page,
      app.url,
      canaryYaml({
        name: 'search',
        namespace: 'search',
        labels: { team: 'search', env: 'staging' },
        http: { 'search-api': '/search', 'search-indexer': '/indexer' },
        targetUrl: target.url,
      }),
    );
    await recordRuns(app.db, pay['payments-api'], [true, true, true, true]);
    await recordRuns(app.db, pay['payments-ledger'], [true, false, true, false]);
    await recordRuns(app.db, search['search-api'], [true, true, true]);
    await recordRuns(app.db, search['search-indexer'], [true, true]);

    // Grouped by a label: group rows with the group's health and passed/total runs.
    await page.goto('/health?hidePassing=false&groupBy=team');
    const groups = page.getByTestId('group-row');
    await expect.poll(() => groups.count()).toBe(2);
    const payments = groups.filter({ hasText: 'payments' });
    await expect.poll(() => payments.getByTestId('group-uptime').textContent()).toBe('6/8');
    await expect.poll(() => payments.textContent()).toContain('Mixed');
    await expect.poll(() => groups.filter({ hasText: 'search' }).getByTestId('group-uptime').textContent()).toBe('5/5');
    // Folding a group hides its checks.
    await payments.getByRole('button', { name: 'Collapse payments' }).click();
    await expect.poll(() => rowNames(page)).toEqual(expect.not.arrayContaining(['payments-api']));
    await payments.getByRole('button', { name: 'Expand payments' }).click();
    await expect.poll(() => rowNames(page)).toEqual(expect.arrayContaining(['payments-api', 'payments-ledger']));

    // Tabs by namespace (the default): All plus one per namespace.
    const tabs = page.getByTestId('health-tabs').getByRole('tab');
    await expect
      .poll(async () => (await tabs.allTextContents()).map((t) => t.replace(/\d+$/, '')))
      .toEqual(['All', 'default', 'payments', 'search']);
    await tabs.filter({ hasText: 'search' }).click();
    await waitForUrl(page, (u) => u.searchParams.get('tab') === 'search');
    await expect.poll(() => rowNames(page)).toEqual(['search-api', 'search-indexer']);

    // Tab by a label key.
    await page.goto('/health?hidePassing=false&groupBy=no-group&tabBy=env');
    await expect
      .poll(async () => (await tabs.allTextContents()).map((t) => t.replace(/\d+$/, '')))
      .toEqual(['All', 'prod', 'staging', 'none']);

    // Label filters: include and exclude.
    const only = encodeURIComponent(JSON.stringify({ 'team=payments': 1 }));
    await page.goto(`/health?hidePassing=false&groupBy=no-group&labels=${only}`);
    await expect.poll(() => rowNames(page)).toEqual(['payments-api', 'payments-ledger']);
    const not = encodeURIComponent(JSON.stringify({ 'team=payments': -1 }));
    await page.goto(`/health?hidePassing=false&groupBy=no-group&labels=${not}`);
    await expect.poll(() => rowNames(page)).toEqual(['e2e-home', 'search-api', 'search-indexer']);
    // The sidebar shows the filter and changes it: a boolean label is a three-way toggle.
    await page.getByRole('radio', { name: 'critical: Include' }).click();
    await expect
      .poll(() => JSON.parse(new URL(page.url()).searchParams.get('labels') ?? '{}'))
      .toEqual({ 'team=payments': -1, 'critical=true': 1 });
    await page.getByText('No data available').waitFor();
    await page.getByRole('button', { name: /^team:/ }).click();
    await page.getByRole('listitem', { name: /^payments/ }).click();
    await page.keyboard.press('Escape');
    await expect
      .poll(() => JSON.parse(new URL(page.url()).searchParams.get('labels') ?? '{}'))
      .toEqual({ 'critical=true': 1 });
    await expect.poll(() => rowNames(page)).toEqual(['payments-api', 'payments-ledger']);

    // Search (debounced) on name, description or endpoint; sorting by a column.
    await page.goto('/health?hidePassing=false&groupBy=no-group');
    await page.getByPlaceholder('Search by name, description, or endpoint').fill('ledger');
    await waitForUrl(page, (u) => u.searchParams.get('query') === 'ledger');
    await expect.poll(() => rowNames(page)).toEqual(['payments-ledger']);
    await page.getByPlaceholder('Search by name, description, or endpoint').fill('/indexer');
    await expect.poll(() => rowNames(page)).toEqual(['search-indexer']);
    await page.goto('/health?hidePassing=false&groupBy=no-group&sortBy=uptime&sortDesc=false');
    await expect
      .poll(() => rowNames(page))
      .toEqual(['e2e-home', 'payments-ledger', 'payments-api', 'search-api', 'search-indexer']);

    // Card layout.
    await page.goto('/health?hidePassing=false&layout=card');
    await expect.poll(() => page.getByTestId('check-card').count()).toBe(5);
    await expect.poll(() => page.getByTestId('card-group').count()).toBe(3);
  });

  it('edits an http check in the form and writes it back to the canary', async () => {
    const page = await app.adminPage();
    const { rows } = await app.db.query<{ id: string }>(`SELECT id FROM canaries WHERE name = 'e2e-web'`);
    await page.goto(`/settings/canaries/${rows[0].id}`);
    const form = page.getByTestId('http-check-form');
    await form.waitFor();
    await expect.poll(() => form.getByLabel('URL').inputValue()).toBe(`${target.url}/`);
    const threshold = form.getByLabel('Threshold (ms)');
    await threshold.fill('soon');
    await form.getByText('This field must be a number').waitFor();
    await threshold.fill('');
    await form.getByText('This field is required').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Update' }).isDisabled()).toBe(true);
    await threshold.fill('1500');
    // A body only for POST and PUT.
    await expect.poll(() => form.getByLabel('Body').count()).toBe(0);
    await form.getByLabel('Method').selectOption('POST');
    await form.getByLabel('Body').fill('{"ping":true}');
    await form.getByRole('button', { name: '503' }).click();
    await form.getByLabel('Test script').selectOption({ label: 'Expr' });
    await form.getByLabel('Test expr').fill('code in [200, 503]');
    await expect.poll(() => page.getByTestId('document-problems').count()).toBe(0);
    await screenshot(page, 'light-canary-http-form');
    await page.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'e2e-web updated successfully');
    const { rows: stored } = await app.db.query<{ spec: { spec: { http: unknown[] } } }>(
      `SELECT spec FROM canaries WHERE id = $1`,
      [rows[0].id],
    );
    expect(stored[0].spec.spec.http).toEqual([
      {
        name: 'e2e-home',
        url: `${target.url}/`,
        method: 'POST',
        body: '{"ping":true}',
        responseCodes: [200, 503],
        thresholdMillis: 1500,
        test: { expr: 'code in [200, 503]' },
      },
    ]);
    // The Job History tab lists the canary's runs (none: the scheduler is off here).
    await page.getByRole('tab', { name: 'Job History' }).click();
    await page.getByText('No data available').waitFor();
  });

  it('shows a viewer the drawer without Run Now, and the server refuses their run', async () => {
    const admin = await app.adminPage();
    const invite = await admin.request.post('/api/users/invite', {
      data: { firstName: 'Vic', lastName: 'Viewer', email: 'vic@example.com', role: 'viewer' },
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
    await app.signIn(page, 'vic@example.com', 'viewer-password-1');

    await page.goto(`/health?checkId=${webCheckId}`);
    const drawer = page.getByRole('dialog');
    await drawer.getByTestId('check-drawer-title').waitFor();
    await drawer.getByRole('link', { name: 'View definition' }).waitFor();
    await expect.poll(() => drawer.getByRole('button', { name: 'Run Now' }).count()).toBe(0);
    // A playbook matches this check (applied above), but a viewer may not run playbooks: no menu.
    expect(await app.db.query('SELECT 1 FROM playbooks WHERE deleted_at IS NULL').then((r) => r.rows.length)).toBe(1);
    await expect.poll(() => drawer.getByRole('button', { name: /Playbooks/, includeHidden: true }).count()).toBe(0);
    const refused = await page.request.post(`/api/canary/run/check/${webCheckId}`, { headers: { origin: app.url } });
    expect(refused.status()).toBe(403);
  });

  it('captures the dashboard and the drawer in light and dark mode', async () => {
    const admin = await app.adminPage();
    const more = await applyCanary(
      admin,
      app.url,
      canaryYaml({
        name: 'edge',
        namespace: 'edge',
        labels: { team: 'edge', env: 'prod' },
        http: { 'cdn-assets': '/assets', 'edge-gateway': '/gateway', 'status-page': '/status' },
        targetUrl: target.url,
      }),
    );
    const pattern = (n: number, failEvery: number) => Array.from({ length: n }, (_, i) => (i + 1) % failEvery !== 0);
    await recordRuns(app.db, more['cdn-assets'], pattern(72, 17), { everyMinutes: 5, durationMs: 90 });
    await recordRuns(app.db, more['edge-gateway'], [...pattern(70, 9), false, false], {
      everyMinutes: 5,
      durationMs: 240,
    });
    await recordRuns(app.db, more['status-page'], pattern(72, 1000), { everyMinutes: 5, durationMs: 45 });
    const shoot = screenshot;

    for (const scheme of ['light', 'dark'] as const) {
      const page = await app.newPage({ colorScheme: scheme });
      await app.signIn(page);
      await page.goto('/health?hidePassing=false&timeRange=6h');
      await checkRows(page).first().waitFor();
      await shoot(page, `${scheme}-health-table`);
      await page.goto('/health?hidePassing=false&timeRange=6h&layout=card');
      await page.getByTestId('check-card').first().waitFor();
      await shoot(page, `${scheme}-health-cards`);
      await page.goto(`/health?hidePassing=false&timeRange=6h&checkId=${more['edge-gateway']}`);
      await page.getByTestId('health-overview-chart').locator('.recharts-bar-rectangle').first().waitFor();
      await page.getByRole('table', { name: 'Check history' }).locator('tbody tr').nth(5).waitFor();
      await shoot(page, `${scheme}-health-drawer`);
    }
    // A short window: the chart moves into the Graph tab.
    const short = await app.newPage({ viewport: { width: 1280, height: 700 } });
    await app.signIn(short);
    await short.goto(`/health?checkId=${more['edge-gateway']}`);
    await short.getByRole('dialog').getByRole('tab', { name: 'Graph' }).click();
    await short.getByTestId('health-overview-chart').waitFor();
    await shoot(short, 'light-health-drawer-short');
    await expect
      .poll(() => short.getByRole('dialog').getByRole('tab').allTextContents())
      .toEqual(['History', 'Graph', 'Spec', 'Relationships0']);
  });

  it('renders only the rows near the viewport of a long table, and scrolls to the rest', async () => {
    const admin = await app.adminPage();
    const http: Record<string, string> = {};
    for (let i = 0; i < 400; i++) http[`bulk-${String(i).padStart(3, '0')}`] = `/bulk/${i}`;
    await applyCanary(admin, app.url, canaryYaml({ name: 'bulk', namespace: 'bulk', http, targetUrl: target.url }));
    const page = await app.adminPage();
    await page.goto('/health?hidePassing=false&groupBy=no-group&tab=bulk');
    await expect
      .poll(() => page.getByTestId('health-tabs').getByRole('tab', { selected: true }).textContent())
      .toBe('bulk400');
    await checkRows(page).first().waitFor();
    // The table knows all 400 rows (plus the header) but the DOM holds only a window of them.
    await expect
      .poll(() => page.getByRole('table', { name: 'Health checks' }).getAttribute('aria-rowcount'))
      .toBe('401');
    const inDom = await checkRows(page).count();
    expect(inDom).toBeGreaterThan(10);
    expect(inDom).toBeLessThan(100);
    expect((await rowNames(page))[0]).toBe('bulk-000');
    // Scrolled to the end: the last rows are rendered, the first ones are gone, and they open the drawer.
    await page.locator('#main').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const last = checkRows(page).filter({ hasText: 'bulk-399' });
    await last.waitFor();
    await expect.poll(async () => (await rowNames(page)).includes('bulk-000')).toBe(false);
    await last.click();
    await expect.poll(() => page.getByRole('dialog').getByTestId('check-drawer-title').textContent()).toBe('bulk-399');
  });

  it('polls the summary in the console format, and a poll when nothing changed is a bodiless 304', async () => {
    const page = await app.adminPage();
    const polls: Array<{ status: number; url: string; bytes: () => Promise<number> }> = [];
    page.on('response', (r) => {
      if (!r.url().includes('/api/canary/api/summary')) return;
      polls.push({
        status: r.status(),
        url: r.url(),
        bytes: async () => {
          const s = await r.request().sizes();
          return s.responseBodySize + s.responseHeadersSize;
        },
      });
    });
    await page.goto('/health?hidePassing=false&groupBy=no-group&timeRange=1h');
    await checkRows(page).first().waitFor();
    await expect.poll(() => polls.filter((p) => p.status === 200).length).toBeGreaterThan(0);
    expect(polls[0]!.url).toContain('format=console');
    // Asked for when the route started loading (summaryPrefetch.ts), and that answer is the one
    // shown: the page does not ask again.
    expect(polls.map((p) => new URL(p.url).searchParams.get('start'))).toEqual(['1h']);
    const shown = await checkRows(page).count();
    polls.length = 0;
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect.poll(() => polls.length, SLOW).toBeGreaterThan(0);
    expect(polls[0]!.url).toContain('since=');
    expect(polls[0]!.status).toBe(304);
    expect(await polls[0]!.bytes()).toBeLessThan(1024);
    // The page still shows what it had.
    expect(await checkRows(page).count()).toBe(shown);
  });
});
