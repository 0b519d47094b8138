// A settings resource (a team) created from YAML in the Code tab: a document with a YAML error is
// shown with its line and cannot be saved, then schema errors likewise, then the fixed document is
// saved and appears in the list; the edit page keeps the name read-only and shows Job History.
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { expect, expectToast, useConsole, waitForUrl } from './harness.js';
import { seedJobHistory } from './seed.js';

const app = useConsole();

async function replaceEditorText(page: Page, text: string) {
  const editor = page.locator('.cm-content').first();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const problems = (page: Page) => page.getByTestId('document-problems').textContent();

describe('settings resources', () => {
  it('creates a team from YAML after refusing a document with a YAML error', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/teams');
    await page.getByText('No data available').waitFor();
    await page.getByRole('link', { name: 'Add Team' }).click();
    await waitForUrl(page, (u) => u.pathname === '/settings/teams/new');
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.locator('.cm-content').first().waitFor();
    await expect.poll(() => page.locator('.cm-gutters').first().textContent()).toMatch(/1/);

    const save = page.getByRole('button', { name: 'Save' });
    // A YAML syntax error on line 3: shown with its line, nothing can be saved.
    let posted = 0;
    page.on('request', (r) => r.method() === 'POST' && r.url().includes('/api/db/teams') && posted++);
    await replaceEditorText(page, 'name: sre\nspec:\n  notifications: [unclosed\n');
    await expect.poll(() => problems(page)).toMatch(/^Line \d+: /);
    await expect.poll(() => save.isDisabled()).toBe(true);
    // The editor marks the line too.
    await page.locator('.cm-lint-marker-error').first().waitFor();

    // Valid YAML that breaks the schema: the offending line is named.
    await replaceEditorText(page, 'name: sre\nicon: pagerduty\nspec:\n  notifications:\n    - url: 42\n');
    await expect.poll(() => problems(page)).toContain('Line 5: spec.notifications[0].url: must be a string');
    await expect.poll(() => save.isDisabled()).toBe(true);
    expect(posted).toBe(0);

    await replaceEditorText(
      page,
      'name: sre\nicon: pagerduty\nspec:\n  notifications:\n    - connection: connection://slack/sre\n',
    );
    await expect.poll(() => page.getByTestId('document-problems').count()).toBe(0);
    await save.click();
    await expectToast(page, 'sre created successfully');
    const url = await waitForUrl(page, (u) => /^\/settings\/teams\/[0-9a-f-]{36}$/.test(u.pathname));
    expect(posted).toBe(1);

    // Stored as written.
    const id = url.pathname.split('/').pop()!;
    const { rows } = await app.db.query<{ name: string; icon: string; spec: unknown; source: string }>(
      'SELECT name, icon, spec, source FROM teams WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({
      name: 'sre',
      icon: 'pagerduty',
      spec: { notifications: [{ connection: 'connection://slack/sre' }] },
      source: 'UI',
    });

    // Editing: the name is read-only, Update replaces Save.
    await page.getByRole('tab', { name: 'Form' }).waitFor();
    await expect.poll(() => page.getByLabel('Name').isDisabled()).toBe(true);
    await page.getByLabel('Icon').fill('slack');
    await page.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'sre updated successfully');

    await page.goto('/settings/teams');
    await page.getByRole('cell', { name: 'sre', exact: true }).waitFor();
  });

  it('applies a Topology from the editor: the server names the bad line, the fixed one runs', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/topologies');
    await page.getByRole('link', { name: 'Add Topology' }).click();
    await waitForUrl(page, (u) => u.pathname === '/settings/topologies/new');
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.locator('.cm-content').first().waitFor();
    // The Code tab starts from a whole Topology resource.
    await expect.poll(() => page.locator('.cm-content').first().textContent()).toContain('kind: Topology');

    const head =
      'apiVersion: canaries.flanksource.com/v1\nkind: Topology\nmetadata:\n  name: shop\n  namespace: default\nspec:\n';
    // Valid for the outline schema; the server finds the component without a name on line 9.
    await replaceEditorText(page, `${head}  schedule: "@every 1h"\n  components:\n    - type: Service\n`);
    const save = page.getByRole('button', { name: 'Save' });
    await expect.poll(() => save.isDisabled()).toBe(false);
    await save.click();
    await expect
      .poll(() => problems(page))
      .toContain(
        'Line 9, column 7: spec.components[0].name: a component needs a name (or a lookup that returns the components)',
      );
    expect((await app.db.query(`SELECT 1 FROM topologies WHERE name = 'shop'`)).rows).toHaveLength(0);

    await replaceEditorText(
      page,
      `${head}  schedule: "@every 1h"\n  components:\n    - name: cart\n      type: Service\n    - name: pay\n`,
    );
    await expect.poll(() => page.getByTestId('document-problems').count()).toBe(0);
    await save.click();
    await expectToast(page, 'shop created successfully');
    const url = await waitForUrl(page, (u) => /^\/settings\/topologies\/[0-9a-f-]{36}$/.test(u.pathname));
    const id = url.pathname.split('/').pop()!;
    const { rows } = await app.db.query<{ schedule: string; source: string; spec: { kind: string } }>(
      'SELECT schedule, source, spec FROM topologies WHERE id = $1',
      [id],
    );
    expect(rows[0]).toMatchObject({ schedule: '@every 1h', source: 'UI', spec: { kind: 'Topology' } });
    // The form shows what was applied; the engine builds the tree from it.
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('shop');
    await expect.poll(() => page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    await expect.poll(() => page.getByLabel('Namespace', { exact: true }).inputValue()).toBe('default');
    await app.server.ctx.topology.runNow(id);
    const { rows: built } = await app.db.query<{ name: string }>(
      'SELECT name FROM components WHERE topology_id = $1 AND deleted_at IS NULL ORDER BY name',
      [id],
    );
    expect(built.map((r) => r.name)).toEqual(['cart', 'pay', 'shop']);

    await page.getByRole('tab', { name: 'Job History' }).click();
    // The run above, and the engine's first scheduled run of the new topology when its poll came
    // first (a race the test does not control): one or two rows.
    await expect.poll(() => page.getByTestId('pagination-range').textContent()).toMatch(/^1–([12]) of \1$/);

    await page.goto('/settings/topologies');
    await page.getByRole('cell', { name: 'shop', exact: true }).waitFor();

    // Updating from the form applies the resource again, then returns to the integrations.
    await page.goto(`/settings/topologies/${id}`);
    await page.getByLabel('Schedule', { exact: true }).selectOption('@every 30m');
    await page.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'shop updated successfully');
    await waitForUrl(page, (u) => u.pathname === '/settings/integrations');
    const { rows: updated } = await app.db.query<{ schedule: string }>(
      'SELECT schedule FROM topologies WHERE id = $1',
      [id],
    );
    expect(updated[0]!.schedule).toBe('@every 30m');

    // Deleting goes through DELETE /api/topology/:id: the topology and its components are gone.
    await page.goto(`/settings/topologies/${id}`);
    await page.getByRole('button', { name: 'Delete' }).first().click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'shop deleted successfully');
    await waitForUrl(page, (u) => u.pathname === '/settings/integrations');
    const { rows: gone } = await app.db.query(
      'SELECT 1 FROM components WHERE topology_id = $1 AND deleted_at IS NULL',
      [id],
    );
    expect(gone).toHaveLength(0);
  });

  it('shows the job history of a resource and read-only resources from other sources', async () => {
    const page = await app.adminPage();
    const { rows } = await app.db.query<{ id: string }>(
      `INSERT INTO teams (name, spec, source) VALUES ('from-git', '{}', 'ConfigFile') RETURNING id`,
    );
    await seedJobHistory(app.db, 7, { resourceId: rows[0].id });
    await page.goto(`/settings/teams/${rows[0].id}`);
    await page.getByText('is read-only here').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Update' }).count()).toBe(0);
    await expect.poll(() => page.getByLabel('Name').isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Job History' }).click();
    await expect.poll(() => page.getByTestId('pagination-range').textContent()).toBe('1–7 of 7');

    await page.goto('/settings/teams/00000000-0000-0000-0000-000000000000');
    await page.getByText('No resources found').waitFor();
  });
});
