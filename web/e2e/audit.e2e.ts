// Settings → Audit Log end to end: the signed-in admin changes something through the API with the
// console's own session (a team created through /api/db, as the Teams form does), opens the audit
// log from the sidebar and finds the entry with its actor, action, resource and address; the
// filters go to the server; the entry's details name the fields written. The server refuses
// /api/audit to an editor (the sidebar's entry is the admin's: web/src/app/routes.ts).
import path from 'node:path';
import { describe, it } from 'vitest';
import { ADMIN, expect, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';

const app = useConsole({ config: () => ({ engines: false }) });

describe('audit log', () => {
  it('shows an admin the change the test just made, filtered on the server', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/jobs');
    // A write with the console's session, from the console's origin.
    const status = await page.evaluate(async () => {
      const res = await fetch('/api/db/teams', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'e2e-audit-team', icon: 'shield' }),
      });
      return res.status;
    });
    expect(status).toBe(201);

    await page.getByTestId('sidebar').getByRole('link', { name: 'Audit Log' }).click();
    await waitForUrl(page, (u) => u.pathname === '/settings/audit');
    const table = page.getByRole('table', { name: 'Audit log' });
    const entry = table.getByRole('row').filter({ hasText: 'e2e-audit-team' });
    await entry.waitFor();
    const cells = await entry.getByRole('cell').allInnerTexts();
    expect(cells.slice(1)).toEqual([ADMIN.name, 'Create', 'teams e2e-audit-team', '127.0.0.1']);
    await page.screenshot({ path: path.join(SCREENS_DIR, 'settings-audit-log.png') });

    // Filters are the server's: action=… and resource_type=… go to /api/audit.
    const filtered = page
      .waitForRequest(
        (r) =>
          r.url().includes('/api/audit?') &&
          r.url().includes('action=create') &&
          r.url().includes('resource_type=teams'),
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    await page.getByLabel('Action').selectOption('create');
    await page.getByLabel('Resource type').selectOption('teams');
    expect(await filtered).toBeDefined();
    await entry.waitFor();
    const name = page.getByLabel('Resource name');
    await name.fill('no-such-team');
    await name.press('Enter');
    await waitForUrl(page, (u) => u.searchParams.get('q') === 'no-such-team');
    await expect.poll(() => entry.count()).toBe(0);
    await name.fill('audit-team');
    await name.press('Enter');
    await entry.waitFor();

    // Signing in (the admin's, through /login) is recorded too.
    const { rows: signIns } = await app.db.query<{ actor_kind: string; source_ip: string }>(
      `SELECT actor_kind, source_ip FROM audit_log WHERE action = 'sign_in' AND actor_email = $1`,
      [ADMIN.email],
    );
    expect(signIns[0]).toEqual({ actor_kind: 'person', source_ip: '127.0.0.1' });

    await entry.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`<${ADMIN.email}>`).waitFor();
    const json = await dialog.locator('pre').innerText();
    expect(JSON.parse(json)).toMatchObject({ method: 'POST', fields: ['icon', 'name'] });
  });

  it('is refused to an editor by the server', async () => {
    const { rows } = await app.db.query<{ id: string }>(
      `INSERT INTO people (name, email) VALUES ('Audit Editor', 'audit-editor@e2e.test') RETURNING id`,
    );
    await app.db.query(`INSERT INTO person_roles (person_id, role) VALUES ($1, 'editor')`, [rows[0]!.id]);
    const { createToken } = await import('../../server/src/auth/tokens.js');
    const { token } = await createToken(app.db, { name: 'e2e', personId: rows[0]!.id, createdBy: null });
    const res = await fetch(`${app.url}/api/audit`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(403);
  });
});
