// Running a playbook from the health check drawer, end to end: a Playbook for http checks applied
// from YAML, the drawer's Playbooks menu listing it, the run modal with the check as its resource
// and the default rendered for it, Run disabled while a required field is empty, 'Running...' while
// the run starts, the run's page, and the run executed by the server's runner (a real child
// process echoing the message). A start the server refuses is toasted with its error; a viewer
// gets no menu and the server refuses their run.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';
import { applyCanary, canaryYaml, startTarget, type HttpTarget } from './healthSeed.js';
import type { PlaybookRunDetail } from '../src/features/playbooks/types.js';

// Engines on: the playbook runner executes the run.
const app = useConsole();
let target: HttpTarget;
let checkId = '';
let playbookId = '';

const PLAYBOOK = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: echo-check}
spec:
  title: Echo the check
  category: Diagnostics
  checks: [{types: [http]}]
  parameters:
    - {name: message, label: Message, default: "hello {{.check.name}}", required: true}
    - {name: verbose, label: Verbose, type: checkbox}
    - {name: level, label: Level, type: list, properties: {options: [{label: Low, value: low}, {label: High, value: high}]}}
  actions:
    - name: echo
      exec: {script: "echo {{.params.message}}"}
`;

beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => {
  await target?.close();
});

/** Opens the check's drawer from the dashboard (passing checks shown). */
async function openDrawer(page: Page) {
  await page.goto('/health?hidePassing=false');
  await page.getByTestId('check-row').filter({ hasText: 'pb-home' }).click();
  await waitForUrl(page, (u) => u.searchParams.get('checkId') === checkId);
  const drawer = page.getByRole('dialog');
  await drawer.getByTestId('check-drawer-title').waitFor();
  return drawer;
}

async function openRunModal(page: Page) {
  const drawer = await openDrawer(page);
  await drawer.getByRole('button', { name: 'Playbooks' }).click();
  await page.getByRole('menuitem', { name: 'Echo the check' }).click();
  const modal = page.getByRole('dialog', { name: 'Echo the check' });
  await modal.waitFor();
  return modal;
}

describe('running a playbook', () => {
  it('runs a playbook on a check from the drawer’s Playbooks menu and lands on the run', async () => {
    const page = await app.adminPage();
    const checks = await applyCanary(
      page,
      app.url,
      canaryYaml({ name: 'pb-web', http: { 'pb-home': '/' }, targetUrl: target.url }),
    );
    checkId = checks['pb-home'];
    const applied = await page.request.post('/api/playbook', {
      data: PLAYBOOK,
      headers: { 'content-type': 'application/yaml', origin: app.url },
    });
    expect(applied.ok()).toBe(true);
    playbookId = ((await applied.json()) as { applied: Array<{ id: string }> }).applied[0].id;

    const modal = await openRunModal(page);
    // The resource is the check; the default is rendered for it.
    await modal.getByText('Check', { exact: true }).waitFor();
    await expect.poll(() => modal.getByTestId('run-resource').textContent()).toBe('pb-home');
    await modal.getByText('Playbook Parameters').waitFor();
    const message = modal.getByLabel('Message');
    await expect.poll(() => message.inputValue()).toBe('hello pb-home');
    await expect.poll(() => modal.getByLabel('Verbose').isChecked()).toBe(false);
    await expect
      .poll(() => modal.getByLabel('Level').locator('option').allTextContents())
      .toEqual(['Select…', 'Low', 'High']);
    const run = modal.getByRole('button', { name: 'Run', exact: true });
    await expect.poll(() => run.isEnabled()).toBe(true);

    // A required field emptied: Run is disabled and the field says why.
    await message.fill('');
    await expect.poll(() => run.isDisabled()).toBe(true);
    await modal.getByText('This field is required').waitFor();
    await message.fill('echoed from the browser');
    await expect.poll(() => run.isEnabled()).toBe(true);
    await expect.poll(() => modal.getByText('This field is required').count()).toBe(0);
    await modal.getByLabel('Verbose').check();
    await modal.getByLabel('Level').selectOption({ label: 'High' });
    fs.mkdirSync(SCREENS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENS_DIR, 'light-playbook-run-modal.png') });

    // The start is held for a moment so 'Running...' can be seen.
    let sent: Record<string, unknown> | undefined;
    await page.route('**/api/playbook/run', async (route) => {
      sent = route.request().postDataJSON() as Record<string, unknown>;
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await run.click();
    const running = modal.getByRole('button', { name: 'Running...' });
    await running.waitFor();
    expect(await running.isDisabled()).toBe(true);
    const url = await waitForUrl(page, (u) => /^\/playbooks\/runs\/[0-9a-f-]{36}$/.test(u.pathname), 15_000);
    await page.unroute('**/api/playbook/run');
    expect(sent).toEqual({
      id: playbookId,
      check_id: checkId,
      params: { message: 'echoed from the browser', verbose: true, level: 'high' },
    });
    await expect.poll(() => page.getByRole('dialog', { name: 'Echo the check' }).count()).toBe(0);

    // The server's runner executed it: the action echoed the message.
    const runId = url.pathname.split('/').pop()!;
    const detail = async () =>
      (await (await page.request.get(`/api/playbook/run/${runId}`)).json()) as PlaybookRunDetail;
    await expect.poll(async () => (await detail()).status, { timeout: 30_000, interval: 500 }).toBe('completed');
    const done = await detail();
    expect(done.check_id).toBe(checkId);
    expect(done.parameters).toMatchObject({ message: 'echoed from the browser', level: 'high' });
    expect(done.actions.map((a) => [a.name, a.status])).toEqual([['echo', 'completed']]);
    expect(String(done.actions[0].result?.stdout).trim()).toBe('echoed from the browser');
  });

  it('asks for a check first when the playbook is run without one, through a search picker', async () => {
    const page = await app.adminPage();
    await page.goto('/playbooks');
    await page.getByRole('button', { name: 'Run Echo the check' }).click();
    const modal = page.getByRole('dialog', { name: 'Echo the check' });
    await modal.getByText('Please select a resource to see the parameters.').waitFor();
    const run = modal.getByRole('button', { name: 'Run', exact: true });
    expect(await run.isDisabled()).toBe(true);

    await modal.getByRole('button', { name: 'Check' }).click();
    const search = page.getByRole('combobox', { name: 'Search Check' });
    const options = page.getByRole('listbox', { name: 'Check' });
    await options.getByText('Start typing to search').waitFor();
    await search.fill('no-such-check');
    await options.getByText('No options found').waitFor();
    await search.fill('pb-h');
    await options.getByRole('option', { name: /pb-home/ }).click();

    await expect.poll(() => modal.getByRole('button', { name: 'Check' }).textContent()).toBe('pb-home');
    await expect.poll(() => modal.getByLabel('Message').inputValue()).toBe('hello pb-home');
    await expect.poll(() => run.isEnabled()).toBe(true);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('toasts the server’s error when it refuses to start the run, and stays on the form', async () => {
    const page = await app.adminPage();
    const modal = await openRunModal(page);
    const message = modal.getByLabel('Message');
    await expect.poll(() => message.inputValue()).toBe('hello pb-home');
    // A parameter the playbook does not take, slipped into the request on its way: the server says no.
    await page.route('**/api/playbook/run', async (route) => {
      const body = route.request().postDataJSON() as { params: Record<string, unknown> };
      await route.continue({ postData: JSON.stringify({ ...body, params: { ...body.params, bogus: 'x' } }) });
    });
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/playbook/run'));
    await modal.getByRole('button', { name: 'Run', exact: true }).click();
    const refused = await answer;
    await page.unroute('**/api/playbook/run');
    expect(refused.status()).toBe(400);
    const { error } = (await refused.json()) as { error: string };
    expect(error).toContain('bogus');
    await expectToast(page, error);
    expect(new URL(page.url()).pathname).toBe('/health');
    await expect.poll(() => modal.getByRole('button', { name: 'Run', exact: true }).isEnabled()).toBe(true);
  });

  it('shows a viewer no Playbooks menu, and the server refuses their run', async () => {
    const admin = await app.adminPage();
    const invite = await admin.request.post('/api/users/invite', {
      data: { firstName: 'Vera', lastName: 'Viewer', email: 'vera@example.com', role: 'viewer' },
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
    await app.signIn(page, 'vera@example.com', 'viewer-password-1');

    const drawer = await openDrawer(page);
    await drawer.getByRole('link', { name: 'View definition' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await drawer.getByRole('button', { name: /Playbooks/, includeHidden: true }).count()).toBe(0);
    const refused = await page.request.post('/api/playbook/run', {
      data: { id: playbookId, check_id: checkId, params: { message: 'not allowed' } },
      headers: { origin: app.url },
    });
    expect(refused.status()).toBe(403);
  });
});
