// Notifications end to end, with the real engines (events → rules → delivery): a rule created from
// the form (check.failed → a generic webhook on a loopback receiver), a check broken with Run Now,
// the sent entry in the send history with its body; a silence made from the check drawer's Silence
// button (the add form prefilled), the next failure recorded as silenced and nothing delivered;
// the silence deleted after its confirmation. Also: the rule's Code tab refusing an unknown event
// with the server's line, and an expired silence struck through.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ADMIN, expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';
import { applyCanary, canaryYaml, startTarget, type HttpTarget } from './healthSeed.js';

interface Receiver {
  url: string;
  calls: Array<{ path: string; body: string }>;
  close(): Promise<void>;
}

/** A loopback webhook endpoint that records every call. */
async function startReceiver(): Promise<Receiver> {
  const calls: Receiver['calls'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      calls.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const app = useConsole();
let target: HttpTarget;
let receiver: Receiver;
let checkId = '';

const RULE = 'e2e-check-failures';
const CHECK = 'e2e-notify-api';
/** The engines poll, deliver and retry in the background; a busy machine needs a while. */
const SLOW = { timeout: 30_000, interval: 500 };

beforeAll(async () => {
  target = await startTarget();
  target.status = 500;
  receiver = await startReceiver();
});
afterAll(async () => {
  await target?.close();
  await receiver?.close();
});

async function historyStatuses(): Promise<string[]> {
  const { rows } = await app.db.query<{ status: string }>(
    `SELECT h.status FROM notification_send_history h JOIN notifications n ON n.id = h.notification_id
      WHERE n.name = $1 ORDER BY h.created_at`,
    [RULE],
  );
  return rows.map((r) => r.status);
}

async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.waitForTimeout(300); // let transitions settle
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

async function runNow(page: Page) {
  const res = await page.request.post(`/api/canary/run/check/${checkId}`, { headers: { origin: app.url } });
  expect(res.ok()).toBe(true);
}

describe('notifications', () => {
  it('creates a rule from the form: check.failed to a generic webhook', async () => {
    const page = await app.adminPage();
    await page.getByRole('link', { name: 'Notifications' }).click(); // the header's bell
    await waitForUrl(page, (u) => u.pathname === '/notifications');
    await page.getByRole('tab', { name: 'Rules' }).click();
    await waitForUrl(page, (u) => u.pathname === '/notifications/rules');
    await page.getByText('No data available').waitFor();

    await page.getByRole('button', { name: 'Add Rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Notification Rule' });
    // Nothing filled in: the required fields say so and nothing is sent.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('This field is required').first().waitFor();
    expect(await dialog.getByText('This field is required').count()).toBe(3); // name, events, person

    await dialog.getByLabel('Name', { exact: true }).fill(RULE);
    await dialog.getByRole('button', { name: 'Events' }).click();
    await page.getByRole('checkbox', { name: 'check.failed' }).check();
    await page.keyboard.press('Escape');
    await dialog.getByRole('list', { name: 'Chosen events' }).getByText('check.failed').waitFor();
    await dialog
      .locator('label')
      .filter({ hasText: /^Others$/ })
      .click();
    await dialog.getByLabel('Send to').selectOption('url');
    await dialog.getByLabel('Service URL').fill(`generic+${receiver.url}/hook`);
    // Under a minute is refused with the spec's words.
    await dialog.getByLabel('Wait For', { exact: true }).selectOption('__custom__');
    await dialog.getByLabel('Wait For (custom)').fill('30s');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Duration must be greater than 1 minute').waitFor();
    await dialog.getByLabel('Wait For', { exact: true }).selectOption('');
    await screenshot(page, 'notifications-rule-form');

    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, `${RULE} created successfully`);
    const row = page.getByRole('row').filter({ hasText: RULE });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('check.failed');
    await expect.poll(() => row.textContent()).toContain(`generic+${receiver.url}/hook`);
    await screenshot(page, 'notifications-rules');
    const { rows } = await app.db.query<{ events: string[]; custom_services: unknown; source: string }>(
      'SELECT events, custom_services, source FROM notifications WHERE name = $1 AND deleted_at IS NULL',
      [RULE],
    );
    expect(rows).toEqual([
      { events: ['check.failed'], custom_services: [{ url: `generic+${receiver.url}/hook` }], source: 'UI' },
    ]);
  });

  it('sends when a check breaks, and shows the sent entry with its body', async () => {
    const page = await app.adminPage();
    const checks = await applyCanary(
      page,
      app.url,
      canaryYaml({ name: 'e2e-notify', http: { [CHECK]: '/health' }, targetUrl: target.url }),
    );
    checkId = checks[CHECK]!;
    await page.goto(`/health?checkId=${checkId}`);
    await page.getByRole('dialog').getByRole('button', { name: 'Run Now' }).click();
    // The toast comes with the run's result (CI's busy machine once took over 10 s).
    await expectToast(page, new RegExp(`${CHECK} failed`), SLOW.timeout);

    await expect.poll(() => receiver.calls.length, SLOW).toBe(1);
    expect(receiver.calls[0]!.path).toBe('/hook');
    expect(receiver.calls[0]!.body).toContain(CHECK);
    await expect.poll(historyStatuses, SLOW).toEqual(['sent']);

    await page.goto('/notifications');
    const row = page.getByRole('row').filter({ hasText: CHECK });
    await row.getByTestId('send-status').filter({ hasText: 'Sent' }).waitFor();
    await expect.poll(() => row.textContent()).toContain(RULE);
    await row.click();
    await waitForUrl(page, (u) => !!u.searchParams.get('id'));
    const details = page.getByRole('dialog').getByTestId('send-details');
    await details.waitFor();
    await expect.poll(() => details.textContent()).toContain('check.failed');
    // The rendered Markdown: the canary, the check's error and the link back to the console.
    const body = details.getByTestId('notification-body');
    await expect.poll(() => body.textContent()).toContain('expected status 200, got 500');
    expect(await body.getByRole('link', { name: 'View check in Opsdeck' }).getAttribute('href')).toContain(checkId);
    await screenshot(page, 'notifications-history-details');
    // The details open from the link alone.
    const link = page.url();
    await page.keyboard.press('Escape');
    await waitForUrl(page, (u) => !u.searchParams.has('id'));
    await page.goto(link);
    await page.getByRole('dialog').getByTestId('notification-body').waitFor();

    // The filters live in the URL.
    await page.goto('/notifications');
    await page.getByLabel('Status').selectOption('silenced');
    await waitForUrl(page, (u) => u.searchParams.get('status') === 'silenced');
    await page.getByText('No data available').waitFor();
    await page.getByLabel('Resource type').selectOption('check');
    await page.getByLabel('Status').selectOption('sent');
    await waitForUrl(
      page,
      (u) => u.searchParams.get('status') === 'sent' && u.searchParams.get('resourceType') === 'check',
    );
    await page.getByRole('row').filter({ hasText: CHECK }).waitFor();
  });

  it('silences the check from its drawer: the next failure is recorded as silenced and not sent', async () => {
    const page = await app.adminPage();
    // The check recovers first, so that the next failure is a new event.
    target.status = 200;
    await runNow(page);

    await page.goto(`/health?checkId=${checkId}`);
    await page.getByRole('dialog').getByRole('link', { name: 'Silence' }).click();
    await waitForUrl(
      page,
      (u) => u.pathname === '/notifications/silences/add' && u.searchParams.get('check_id') === checkId,
    );
    const form = page.getByRole('form', { name: 'Silence' });
    await expect.poll(() => form.getByRole('button', { name: 'Check', exact: true }).textContent()).toBe(CHECK);
    await form.getByLabel('Duration').selectOption('4h');
    await form.getByLabel('Reason').fill('deploying the API');
    await screenshot(page, 'notifications-silence-add');
    await form.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Silence added successfully');
    await waitForUrl(page, (u) => u.pathname === '/notifications/silences');
    const row = page.getByRole('row').filter({ hasText: CHECK });
    await expect.poll(() => row.textContent()).toContain('deploying the API');
    await expect.poll(() => row.textContent()).toContain('(4h)');
    await expect.poll(() => row.textContent()).toContain(ADMIN.name);

    target.status = 500;
    await runNow(page);
    await expect.poll(historyStatuses, SLOW).toEqual(['sent', 'silenced']);
    await page.goto('/notifications?status=silenced');
    const silenced = page.getByRole('row').filter({ hasText: CHECK });
    await silenced.getByTestId('send-status').filter({ hasText: 'Silenced' }).waitFor();
    await page.goto('/notifications');
    await page.getByRole('row').filter({ hasText: 'Silenced' }).waitFor();
    await screenshot(page, 'notifications-history');
    await page.goto('/notifications?status=silenced');
    await silenced.click();
    await page.getByRole('dialog').getByTestId('send-details').waitFor();
    await expect.poll(() => page.getByRole('dialog').getByTestId('send-details').textContent()).toContain('Reason');
    // Still one delivery.
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.calls.length).toBe(1);
  });

  it('deletes the silence after the confirmation', async () => {
    const page = await app.adminPage();
    await page.goto('/notifications/silences');
    const row = page.getByRole('row').filter({ hasText: CHECK });
    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Delete Notification Silence').waitFor();
    await confirm.getByText('Are you sure you want to delete this notification silence?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Silence deleted successfully');
    await page.getByText('No data available').waitFor();
    const { rows } = await app.db.query<{ deleted: boolean }>(
      'SELECT deleted_at IS NOT NULL AS deleted FROM notification_silences WHERE check_id = $1',
      [checkId],
    );
    expect(rows).toEqual([{ deleted: true }]);
  });

  it('refuses an unknown event in the Code tab with the server’s line, and saves nothing', async () => {
    const page = await app.adminPage();
    await page.goto('/notifications/rules');
    await page.getByRole('row').filter({ hasText: RULE }).click();
    await waitForUrl(page, (u) => !!u.searchParams.get('id'));
    const dialog = page.getByRole('dialog', { name: RULE });
    await dialog.getByRole('tab', { name: 'Code' }).click();
    const editor = dialog.locator('.cm-content');
    await expect.poll(() => editor.textContent()).toContain('kind: Notification');
    await expect.poll(() => editor.textContent()).toContain('check.failed');
    const yaml = `apiVersion: mission-control.flanksource.com/v1\nkind: Notification\nmetadata:\n  name: ${RULE}\n  namespace: default\nspec:\n  events:\n    - check.exploded\n  to:\n    url: generic+${receiver.url}/hook\n`;
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(yaml);
    await dialog.getByRole('button', { name: 'Update' }).click();
    await expect
      .poll(() => dialog.getByTestId('document-problems').textContent(), SLOW)
      .toMatch(/Line \d+.*check\.exploded/);
    const { rows } = await app.db.query<{ events: string[] }>(
      'SELECT events FROM notifications WHERE name = $1 AND deleted_at IS NULL',
      [RULE],
    );
    expect(rows).toEqual([{ events: ['check.failed'] }]);
  });

  it('strikes through an expired silence', async () => {
    const page = await app.adminPage();
    await app.db.query(
      `INSERT INTO notification_silences ("from", until, check_id, description, source)
       VALUES (now() - interval '2 hours', now() - interval '1 hour', $1, 'last night', 'UI')`,
      [checkId],
    );
    await page.goto('/notifications/silences');
    const row = page.getByRole('row').filter({ hasText: 'last night' });
    await row.waitFor();
    expect(await row.locator('[data-expired]').count()).toBeGreaterThan(0);
    await screenshot(page, 'notifications-silences');
  });

  it('shows a viewer the screens without Add, Update, Delete or Silence, and the server refuses their writes', async () => {
    const admin = await app.adminPage();
    const invited = await admin.request.post('/api/users/invite', {
      data: { firstName: 'Vera', lastName: 'Viewer', email: 'viewer@e2e.test', role: 'viewer' },
      headers: { origin: app.url },
    });
    expect(invited.ok()).toBe(true);
    const token = new URL(((await invited.json()) as { link: string }).link, app.url).searchParams.get('invite');
    const accepted = await admin.request.post('/api/auth/invite/accept', {
      data: { token, password: 'viewer-password-1' },
      headers: { origin: app.url },
    });
    expect(accepted.ok()).toBe(true);

    const page = await app.newPage();
    await app.signIn(page, 'viewer@e2e.test', 'viewer-password-1');
    await page.goto('/notifications/rules');
    const row = page.getByRole('row').filter({ hasText: RULE });
    await row.waitFor();
    expect(await page.getByRole('button', { name: 'Add Rule' }).count()).toBe(0);
    await row.click();
    const dialog = page.getByRole('dialog', { name: RULE });
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().waitFor();
    expect(await dialog.getByRole('button', { name: 'Update' }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await dialog.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);

    await page.goto('/notifications/silences');
    await page.getByRole('row').filter({ hasText: 'last night' }).waitFor();
    expect(await page.getByRole('link', { name: 'Add Silence' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    await page.goto(`/health?checkId=${checkId}`);
    await page.getByRole('dialog').getByTestId('check-drawer-title').waitFor();
    expect(await page.getByRole('dialog').getByRole('link', { name: 'Silence' }).count()).toBe(0);

    const refused = await page.request.post('/api/db/notification_silences', {
      data: { check_id: checkId, until: new Date(Date.now() + 3_600_000).toISOString() },
      headers: { origin: app.url },
    });
    expect(refused.status()).toBe(403);
  });
});
