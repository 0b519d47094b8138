// /settings/connections (spec/3 §2 Connections, §6, §8): an admin adds a PostgreSQL connection to this
// machine's PostgreSQL and tests it; a connection to a closed port shows why its test failed; an edit
// that does not retype the password keeps the stored one (and still tests fine); a secret reference is
// stored as its address; a connection from Kubernetes is read-only; a type the server cannot test says
// so; Delete asks first, then the row goes.
import fs from 'node:fs';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { describe, it } from 'vitest';
import { ADMIN, expect, expectToast, SCREENS_DIR, useConsole } from './harness.js';

const app = useConsole();

const PG_URL = 'postgres://$(username):$(password)@127.0.0.1:5432/test';
const CLOSED_URL = 'postgres://$(username):$(password)@127.0.0.1:1/test';

interface StoredConnection {
  id: string;
  name: string;
  namespace: string;
  source: string | null;
  password: string | null;
  created_by: string | null;
  deleted_at: string | null;
  has_password: boolean;
  password_ref: string | null;
}

async function stored(name: string): Promise<StoredConnection | undefined> {
  const { rows } = await app.db.query<StoredConnection>(
    `SELECT id, name, namespace, source, password, created_by, deleted_at, has_password, password_ref
       FROM connections WHERE name = $1 ORDER BY created_at DESC LIMIT 1`,
    [name],
  );
  return rows[0];
}

const table = (page: Page) => page.getByRole('table', { name: 'Connections' });
const row = (page: Page, name: string) => table(page).getByRole('row').filter({ hasText: name });
const dialog = (page: Page) => page.getByRole('dialog');
/** A form field by its label (a required one's label ends with a marker). */
const field = (page: Page, label: string) => dialog(page).getByLabel(new RegExp(`^${label}( \\*)?$`));
const cell = (page: Page, name: string) => row(page, name).getByRole('cell', { name, exact: true });

/** Add Connection → PostgreSQL, filled in (not saved). */
async function startPostgres(page: Page, name: string, url: string) {
  await page.getByRole('button', { name: 'Add Connection' }).click();
  await dialog(page).getByRole('region', { name: 'Databases' }).getByRole('button', { name: 'PostgreSQL' }).click();
  await expect.poll(() => field(page, 'Namespace').inputValue()).toBe('default');
  await field(page, 'Name').fill(name);
  await field(page, 'URL').fill(url);
  await field(page, 'Username').fill('postgres');
  await field(page, 'Password').fill('any-password');
}

async function shoot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.waitForTimeout(250); // let transitions settle
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

const testResult = (page: Page) => dialog(page).getByTestId('connection-test-result');

describe('connections', () => {
  it('adds a PostgreSQL connection and tests it', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/connections');
    await page.getByText('No data available').waitFor();

    await page.getByRole('button', { name: 'Add Connection' }).click();
    // The types are grouped by family.
    for (const family of ['Databases', 'Cloud', 'Source control', 'Notification services', 'Other'])
      await dialog(page).getByRole('region', { name: family }).waitFor();
    await page.keyboard.press('Escape');

    await startPostgres(page, 'local-pg', 'not a url');
    // The shared validation, under the field, before anything is sent.
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await dialog(page).getByText('URL must be a URL such as https://host:port (got "not a url")').waitFor();
    await field(page, 'URL').fill(PG_URL);

    await dialog(page).getByRole('button', { name: 'Test' }).click();
    await expectToast(page, 'Connection successful');
    await testResult(page).getByText('Connection successful').waitFor();

    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Connection added successfully');
    await row(page, 'local-pg').getByText('PostgreSQL').waitFor();
    await expect.poll(() => row(page, 'local-pg').textContent()).toContain('127.0.0.1:5432/test');

    const saved = await stored('local-pg');
    const { rows: admin } = await app.db.query<{ id: string }>('SELECT id FROM people WHERE email = $1', [ADMIN.email]);
    expect(saved).toMatchObject({ namespace: 'default', source: 'UI', has_password: true, created_by: admin[0].id });
    // Sealed at rest.
    expect(saved?.password).not.toBe('any-password');

    // A saved connection is tested from its row.
    await row(page, 'local-pg').getByRole('button', { name: 'Test local-pg' }).click();
    await expect
      .poll(() => page.locator('[data-sonner-toast]').filter({ hasText: 'Connection successful' }).count())
      .toBeGreaterThan(0);
  });

  it('shows why the test of a connection to a closed port failed', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/connections');
    await startPostgres(page, 'closed-port', CLOSED_URL);
    await dialog(page).getByRole('button', { name: 'Test' }).click();
    await testResult(page).getByRole('alert').waitFor({ timeout: 20_000 });
    const failure = (await testResult(page).textContent()) ?? '';
    expect(failure).toMatch(/connection refused: 127\.0\.0\.1:1/);
    expect(failure).not.toContain('Connection successful');
    await expectToast(page, failure.trim().slice(0, 20));

    await shoot(page, 'light-connection-test-failed');

    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Connection added successfully');
    // The saved connection's own test fails the same way. The dialog's failure toast is gone first
    // (after 5 s), so the toast counted is the row's: on a loaded machine the two did not overlap.
    const failureToasts = page.locator('[data-sonner-toast]').filter({ hasText: failure.trim() });
    await expect.poll(() => failureToasts.count()).toBe(0);
    await row(page, 'closed-port').getByRole('button', { name: 'Test closed-port' }).click();
    await expect.poll(() => failureToasts.count()).toBeGreaterThan(0);
  });

  it('edits a connection without retyping its password', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/connections');
    const before = await stored('local-pg');

    await cell(page, 'local-pg').click();
    await dialog(page).getByRole('heading', { name: 'Edit Connection' }).waitFor();
    const password = field(page, 'Password');
    expect(await password.inputValue()).toBe('');
    expect(await password.getAttribute('placeholder')).toBe('•••••• (unchanged)');
    await dialog(page).getByText('A value is set.').waitFor();

    // The form's test sends the id and no password, so the stored password is used.
    const testCall = page.waitForRequest((r: Request) => r.url().endsWith('/api/connection/test'));
    await dialog(page).getByRole('button', { name: 'Test' }).click();
    const testBody = (await testCall).postDataJSON() as Record<string, unknown>;
    expect(testBody).toMatchObject({ id: before?.id, name: 'local-pg', username: 'postgres' });
    expect(testBody).not.toHaveProperty('password');
    await testResult(page).getByText('Connection successful').waitFor();

    await field(page, 'Name').fill('local-postgres');
    const patch = page.waitForRequest(
      (r: Request) => r.method() === 'PATCH' && r.url().includes('/api/db/connections'),
    );
    await dialog(page).getByRole('button', { name: 'Update' }).click();
    const body = (await patch).postDataJSON() as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['name', 'updated_at']);
    await expectToast(page, 'Connection updated successfully');
    await row(page, 'local-postgres').waitFor();

    const after = await stored('local-postgres');
    expect(after?.id).toBe(before?.id);
    expect(after?.password).toBe(before?.password);
    const api = await page.request.get(`/api/db/connections?id=eq.${after?.id}&select=has_password,name`);
    expect(await api.json()).toEqual([{ has_password: true, name: 'local-postgres' }]);

    await row(page, 'local-postgres').getByRole('button', { name: 'Test local-postgres' }).click();
    await expect
      .poll(() => page.locator('[data-sonner-toast]').filter({ hasText: 'Connection successful' }).count())
      .toBeGreaterThan(0);
  });

  it('stores a secret reference as its address and shows it on edit', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/connections');
    await page.getByRole('button', { name: 'Add Connection' }).click();
    await dialog(page).getByLabel('Filter connection types').fill('http');
    await dialog(page).getByRole('button', { name: 'HTTP', exact: true }).click();
    await field(page, 'Name').fill('status-api');
    await field(page, 'URL').fill('https://status.example.com');
    await field(page, 'Password').fill('typed then dropped');
    await dialog(page).getByLabel('Password source').selectOption({ label: 'Secret reference' });
    // Switching the mode clears the value.
    expect(await field(page, 'Password').inputValue()).toBe('');
    await field(page, 'Password').fill('status-creds/token');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Connection added successfully');
    expect(await stored('status-api')).toMatchObject({ password_ref: 'secret://status-creds/token' });

    await cell(page, 'status-api').click();
    expect(await dialog(page).getByLabel('Password source').inputValue()).toBe('secret');
    expect(await field(page, 'Password').inputValue()).toBe('status-creds/token');
    await page.keyboard.press('Escape');
  });

  it('shows a connection from Kubernetes read-only', async () => {
    const page = await app.adminPage();
    await app.db.query(
      `INSERT INTO connections (name, namespace, type, url, source) VALUES ('cluster-prom', 'monitoring', 'prometheus', 'http://prometheus:9090', 'kubernetes/monitoring')`,
    );
    await page.goto('/settings/connections');
    await cell(page, 'cluster-prom').click();
    await dialog(page).getByText('it can only be changed there').waitFor();
    expect(await field(page, 'URL').isDisabled()).toBe(true);
    expect(
      await dialog(page)
        .getByRole('button', { name: /^(Save|Update|Delete)$/ })
        .count(),
    ).toBe(0);
    await dialog(page).getByRole('button', { name: 'Close', exact: true }).last().click();
  });

  it('says when a type cannot be tested', async () => {
    // PagerDuty: its Events API has no call that checks a routing key without creating an event.
    const page = await app.adminPage();
    await app.db.query(
      `INSERT INTO connections (name, namespace, type, properties, source)
         VALUES ('pager', 'default', 'pagerduty', '{"severity": "warning"}', 'UI')`,
    );
    await page.goto('/settings/connections');
    await row(page, 'pager').getByRole('button', { name: 'Test pager' }).click();
    await expectToast(page, 'We currently do not support testing this connection type');

    await cell(page, 'pager').click();
    await field(page, 'Integration \\(routing\\) key').fill('typed-for-the-test');
    await dialog(page).getByRole('button', { name: 'Test' }).click();
    await testResult(page).getByText('We currently do not support testing this connection type').waitFor();
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
  });

  it('deletes a connection after confirmation', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/connections');
    await cell(page, 'closed-port').click();
    await dialog(page).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Connection ?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Connection deleted successfully');
    await expect.poll(() => row(page, 'closed-port').count()).toBe(0);
    // Soft delete: the row is kept with deleted_at.
    expect((await stored('closed-port'))?.deleted_at).not.toBeNull();
    await row(page, 'local-postgres').waitFor();
  });
});
