// Settings → Maintenance against the real server: a one-off window created in the form (a check by
// name), listed with what it covers, edited and deleted; the form's own checks before anything is sent
// and the server's answer for a check that does not exist; a window in progress in the check drawer.
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { expect, expectToast, useConsole, waitForUrl } from './harness.js';

const app = useConsole();
const dialog = (page: Page) => page.getByRole('dialog');

describe('settings: maintenance windows', () => {
  it('creates, lists, edits and deletes a window', async () => {
    const { rows } = await app.db.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec) VALUES ('shop', 'default', '{}') RETURNING id::text`,
    );
    await app.db.query(`INSERT INTO checks (canary_id, type, name) VALUES ($1, 'http', 'checkout')`, [rows[0]!.id]);
    const page = await app.adminPage();
    await page.goto('/settings/maintenance');
    await page.getByText('No maintenance windows yet').waitFor();
    await page.getByRole('button', { name: 'Add Maintenance Window' }).click();

    // The form's checks first.
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await dialog(page).getByText('A name is required').waitFor();
    await dialog(page).getByText('Choose what is in maintenance: checks, components or status pages').waitFor();

    await dialog(page).getByLabel('Name').fill('db-upgrade');
    await dialog(page).getByLabel('Message').fill('Upgrading the database');
    await dialog(page).getByLabel('Start').fill('2030-03-01T10:00');
    await dialog(page).getByLabel('End').fill('2030-03-01T09:00');
    await dialog(page).getByLabel('Checks').fill('no-such-check');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await dialog(page).getByText('The end must be after the start').waitFor();
    await dialog(page).getByLabel('End').fill('2030-03-01T12:00');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await dialog(page).getByText('spec.checks[0]: no check named "no-such-check"').first().waitFor();

    await dialog(page).getByLabel('Checks').fill('checkout');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'db-upgrade created successfully');
    const row = page.getByRole('row').filter({ hasText: 'db-upgrade' });
    await row.getByText('1 check').waitFor();
    await row.getByText('Silenced').waitFor();

    // Edit: a recurring window now.
    await row.click();
    await waitForUrl(page, (u) => u.searchParams.has('id'));
    await expect.poll(() => dialog(page).getByLabel('Message').inputValue()).toBe('Upgrading the database');
    await expect.poll(() => dialog(page).getByLabel('Checks').inputValue()).toBe('checkout');
    await dialog(page).getByLabel('Happens').selectOption('recurring');
    await dialog(page).getByLabel('Schedule').fill('0 2 * * 0');
    await dialog(page).getByLabel('Duration').fill('2h');
    await dialog(page).getByLabel('Time zone').fill('Europe/Berlin');
    await dialog(page).getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'db-upgrade updated successfully');
    await page.getByRole('row').filter({ hasText: '0 2 * * 0 for 2h (Europe/Berlin)' }).waitFor();
    const { rows: stored } = await app.db.query<{ schedule: string; starts_at: Date | null }>(
      `SELECT schedule, starts_at FROM maintenance_windows WHERE name = 'db-upgrade' AND deleted_at IS NULL`,
    );
    expect(stored).toEqual([{ schedule: '0 2 * * 0', starts_at: null }]);

    // Delete asks first.
    await page.getByRole('row').filter({ hasText: 'db-upgrade' }).click();
    await dialog(page).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'db-upgrade deleted successfully');
    await page.getByText('No maintenance windows yet').waitFor();
  });

  it('shows a window in progress in the check drawer', async () => {
    const { rows } = await app.db.query<{ id: string }>(`SELECT id::text FROM checks WHERE name = 'checkout'`);
    const checkId = rows[0]!.id;
    await app.db.query(
      `INSERT INTO maintenance_windows (name, message, starts_at, ends_at, check_ids)
       VALUES ('now', 'Swapping the payment provider', now() - interval '5 minutes', now() + interval '1 hour', $1)`,
      [[checkId]],
    );
    const page = await app.adminPage();
    await page.goto(`/health?checkId=${checkId}`);
    const notice = page.getByRole('dialog').getByTestId('in-maintenance');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('In maintenance: Swapping the payment provider');
  });
});
