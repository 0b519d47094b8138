// Settings → Event Queue end to end: a notification handler really fails (an EventRouter on the
// server's database with a consumer that throws) until its events give up; the page shows them as
// failed with the most common error (whole in a modal), sorted and filtered on the server and never
// cached; Retry puts them back and a now-working handler takes them; Discard (confirmed) removes
// another name's failed events; an editor sees the page without the admin's actions.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { EventRouter, MAX_ATTEMPTS, type EventConsumer } from '../../server/src/jobs/eventQueue.js';
import { expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';

// No engines: the only router touching the queue is this file's.
const app = useConsole({ config: () => ({ engines: false }) });

const SMTP_ERROR =
  'SMTP 550 5.1.1 <oncall@example.com>: Recipient address rejected: mailbox unavailable (while sending the check.failed notification for "api-health")';
const PASSWORD = 'editor-password-1';

/** The notification handler: fails for the names in `broken`, with the SMTP server's answer. */
const broken = new Set<string>();
const handled: string[] = [];
const notifications: EventConsumer = {
  name: 'notifications',
  accepts: (name) => name === 'check.failed' || name === 'component.unhealthy',
  async handle(_tx, event) {
    if (broken.has(event.name)) throw new Error(SMTP_ERROR);
    handled.push(event.id);
  },
};

let started: EventRouter | undefined;
/** One router on the server's own database (app.db exists once the console started). */
const router = (): EventRouter => {
  if (!started) {
    started = new EventRouter(app.db);
    started.register(notifications);
  }
  return started;
};

async function queue(name: string, count: number): Promise<void> {
  await app.db.query(
    `INSERT INTO event_queue (name, properties) SELECT $1, jsonb_build_object('check', 'api-health', 'i', g)
     FROM generate_series(1, $2::int) g`,
    [name, count],
  );
}

/** Runs the router until the events of `name` gave up (the backoff between attempts skipped). */
async function failUntilGivenUp(name: string): Promise<void> {
  broken.add(name);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    await app.db.query(`UPDATE event_queue SET not_before = now() - interval '1 s' WHERE name = $1`, [name]);
    await router().drain();
  }
  const { rows } = await app.db.query<{ attempts: number; error: string | null }>(
    'SELECT attempts, error FROM event_queue WHERE name = $1',
    [name],
  );
  expect(rows.every((r) => r.attempts === MAX_ATTEMPTS && r.error === `notifications: ${SMTP_ERROR}`)).toBe(true);
}

const table = (page: Page) => page.getByRole('table', { name: 'Event queue' });
const row = (page: Page, name: string) => table(page).getByRole('row').filter({ hasText: name });
/** Opens a row's actions menu and picks one. */
async function rowAction(page: Page, name: string, action: 'Retry failed' | 'Discard failed') {
  await row(page, name)
    .getByRole('button', { name: `Actions for ${name}` })
    .click();
  await page.getByRole('menuitem', { name: action }).click();
}
/** The texts of a row's cells. */
const cells = (page: Page, name: string) => row(page, name).getByRole('cell').allInnerTexts();

describe('event queue status', () => {
  it('shows a failing handler’s events and lets an admin retry them', async () => {
    await queue('check.failed', 2);
    await failUntilGivenUp('check.failed');
    await queue('component.unhealthy', 1);

    const page = await app.adminPage();
    const summary = page.waitForResponse((r) => r.url().includes('/api/db/event_queue_summary'));
    await page.goto('/settings/event-queue-status');
    expect((await summary).headers()['cache-control']).toBe('no-store');

    // name, pending, failed, average attempts, first/last failure, most common error, actions.
    await expect
      .poll(() => cells(page, 'check.failed').then((c) => c.slice(0, 4)))
      .toEqual(['check.failed', '0', '2', '5']);
    expect((await cells(page, 'component.unhealthy')).slice(0, 3)).toEqual(['component.unhealthy', '1', '0']);
    await page.screenshot({ path: path.join(SCREENS_DIR, 'settings-event-queue.png') });
    const failedRow = row(page, 'check.failed');
    const error = failedRow.getByRole('button', { name: /notifications: SMTP 550/ });
    await error.click();
    const modal = page.getByRole('dialog', { name: 'Most common error' });
    await modal.getByText(`notifications: ${SMTP_ERROR}`).waitFor();
    await modal.getByRole('button', { name: 'Close' }).click();

    // The failed events go back to pending; the handler works again and takes them.
    await rowAction(page, 'check.failed', 'Retry failed');
    await expectToast(page, '2 events of check.failed back in the queue');
    await expect.poll(() => cells(page, 'check.failed').then((c) => c.slice(0, 3))).toEqual(['check.failed', '2', '0']);
    broken.delete('check.failed');
    expect(await router().drain()).toBe(3);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => row(page, 'check.failed').count()).toBe(0);
    expect(handled).toHaveLength(3);

    const { rows } = await app.db.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM job_history WHERE name = 'Event Queue' AND resource_type = 'event_queue'`,
    );
    expect(rows.map((r) => [r.details.action, r.details.name, r.details.count])).toEqual([
      ['retry', 'check.failed', 2],
    ]);
  });

  it('sorts and filters on the server', async () => {
    await queue('check.failed', 1);
    await failUntilGivenUp('check.failed');
    await queue('component.unhealthy', 2);
    const page = await app.adminPage();
    await page.goto('/settings/event-queue-status');
    await row(page, 'component.unhealthy').waitFor();

    const sorted = page.waitForRequest(
      (r) => r.url().includes('event_queue_summary') && r.url().includes('order=name.asc'),
    );
    await table(page).getByRole('button', { name: 'Name' }).click();
    await sorted;
    await waitForUrl(page, (u) => u.searchParams.get('sortBy') === 'name');
    await expect
      .poll(() =>
        table(page)
          .getByRole('row')
          .allInnerTexts()
          .then((r) => r.slice(1).map((t) => t.split(/\s/)[0])),
      )
      .toEqual(['check.failed', 'component.unhealthy']);

    const filtered = page.waitForRequest(
      (r) => r.url().includes('event_queue_summary') && r.url().includes('name=ilike.'),
    );
    await page.getByLabel('Filter by event name').fill('compo');
    await filtered;
    await expect.poll(() => row(page, 'check.failed').count()).toBe(0);
    await row(page, 'component.unhealthy').waitFor();
    await waitForUrl(page, (u) => u.searchParams.get('name') === 'compo');
    await page.getByLabel('Filter by event name').fill('');
    await row(page, 'check.failed').waitFor();
  });

  it('discards the failed events of a row after a confirmation', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/event-queue-status');
    await row(page, 'check.failed').waitFor();
    await rowAction(page, 'check.failed', 'Discard failed');
    const confirm = page.getByRole('alertdialog', { name: 'Discard failed events ?' });
    await confirm.getByText('The 1 event of check.failed that failed will be deleted and never handled.').waitFor();
    await confirm.getByRole('button', { name: 'Discard' }).click();
    await expectToast(page, '1 event of check.failed discarded');
    await expect.poll(() => row(page, 'check.failed').count()).toBe(0);
    // The pending events of another name stay.
    expect((await cells(page, 'component.unhealthy')).slice(0, 3)).toEqual(['component.unhealthy', '2', '0']);
    // Retry and Discard are offered only when something failed.
    await row(page, 'component.unhealthy').getByRole('button', { name: 'Actions for component.unhealthy' }).click();
    for (const action of ['Retry failed', 'Discard failed'])
      expect(await page.getByRole('menuitem', { name: action }).getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');
  });

  it('shows an editor the status without the admin’s actions, and the server refuses them', async () => {
    await queue('check.failed', 1);
    await failUntilGivenUp('check.failed');
    const admin = await app.adminPage();
    const invited = await admin.request.post('/api/users/invite', {
      data: { firstName: 'Eddie', lastName: 'Editor', email: 'eddie@example.com', role: 'editor' },
      headers: { origin: app.url },
    });
    const token = new URL(((await invited.json()) as { link: string }).link, app.url).searchParams.get('invite');
    await admin.request.post('/api/auth/invite/accept', {
      data: { token, password: PASSWORD },
      headers: { origin: app.url },
    });

    const page = await app.newPage();
    await app.signIn(page, 'eddie@example.com', PASSWORD);
    await page.goto('/settings');
    await expect.poll(() => cells(page, 'check.failed').then((c) => c.slice(0, 3))).toEqual(['check.failed', '0', '1']);
    expect(await page.getByRole('button', { name: /^Actions for/ }).count()).toBe(0);
    for (const action of ['retry', 'discard']) {
      const res = await page.request.post(`/api/event-queue/${action}`, {
        data: { name: 'check.failed' },
        headers: { origin: app.url },
      });
      expect(res.status()).toBe(403);
    }
    const { rows } = await app.db.query(`SELECT 1 FROM event_queue WHERE name = 'check.failed' AND error IS NOT NULL`);
    expect(rows).toHaveLength(1);
  });
});
