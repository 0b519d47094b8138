// Playbooks end to end against a real server: the empty /playbooks page with its sample; a new
// playbook written as YAML whose title is filled in through the Title field (kept in step with
// spec.title), saved and shown under its category; YAML and server errors shown at their lines;
// an update; Run from the card (an exec action, really executed) landing on the run; History;
// Delete; and a viewer who sees no New, Run or Delete and whose POST /api/playbook is refused.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { ADMIN, expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';

const app = useConsole();
const PASSWORD = 'viewer-password-1';

const PLAYBOOK_WITHOUT_TITLE = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: disk-report
  namespace: default
spec:
  category: Maintenance
  description: Reports the free disk space.
  icon: terminal
  actions:
    - name: report
      exec:
        script: echo "disk report ok"
`;

let playbookId = '';

async function replaceEditorText(page: Page, text: string) {
  const editor = page.locator('.cm-content').first();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const editorText = (page: Page) => page.locator('.cm-content').first().innerText();
const problems = (page: Page) => page.getByTestId('document-problems').textContent();
const card = (page: Page | Locator, title: string) => page.getByTestId('playbook-card').filter({ hasText: title });
const category = (page: Page, name: string) =>
  page.getByTestId('playbook-category').and(page.getByRole('region', { name, exact: true }));

async function shoot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.waitForTimeout(250); // let transitions settle
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

const one = async <T>(sql: string, params: unknown[] = []): Promise<T> =>
  (await app.db.query<T>(sql, params)).rows[0] as T;

describe('playbooks', () => {
  it('shows the empty state with a sample, New Playbook and the Runs link', async () => {
    const page = await app.adminPage();
    await page.goto('/playbooks');
    await page.getByText('There are no playbooks yet').waitFor();
    await expect.poll(() => page.locator('pre').first().textContent()).toContain('kind: Playbook');
    await expect.poll(() => page.getByRole('link', { name: 'Runs' }).getAttribute('href')).toBe('/playbooks/runs');
    // In the toolbar and in the empty state.
    await expect.poll(() => page.getByRole('link', { name: 'New Playbook' }).count()).toBe(2);
    await shoot(page, 'playbooks-empty');
  });

  it('creates a playbook once the Title field fills spec.title, and shows it under its category', async () => {
    const page = await app.adminPage();
    await page.goto('/playbooks');
    await page.getByRole('link', { name: 'New Playbook' }).first().click();
    await waitForUrl(page, (u) => u.pathname === '/playbooks/new');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('New Playbook');
    await expect.poll(() => editorText(page)).toContain('kind: Playbook');

    let posted = 0;
    page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/playbook' && posted++);
    const save = page.getByRole('button', { name: 'Save', exact: true });
    const title = page.getByLabel('Title');

    // No title: the field and the spec both say so, nothing can be saved.
    await replaceEditorText(page, PLAYBOOK_WITHOUT_TITLE);
    await expect.poll(() => title.inputValue()).toBe('');
    await page.getByText('Title is required').waitFor();
    await expect.poll(() => problems(page)).toContain("Line 7: spec: missing required property 'title'");
    await expect.poll(() => save.isDisabled()).toBe(true);

    // A YAML syntax error: shown at its line, the title cannot be edited, nothing can be saved.
    await replaceEditorText(page, 'kind: Playbook\nspec:\n  title: Disk\n  actions: [unclosed\n');
    await expect.poll(() => problems(page)).toMatch(/^Line [45]: /);
    await page.locator('.cm-lint-marker-error').first().waitFor();
    await expect.poll(() => title.isDisabled()).toBe(true);
    await expect.poll(() => save.isDisabled()).toBe(true);

    // The Title field writes spec.title into the YAML, first in the spec.
    await replaceEditorText(page, PLAYBOOK_WITHOUT_TITLE);
    await title.fill('Disk report');
    await expect.poll(() => editorText(page)).toContain('spec:\n  title: Disk report\n  category: Maintenance');
    await expect.poll(() => page.getByTestId('document-problems').count()).toBe(0);
    expect(posted).toBe(0);

    await save.click();
    await expectToast(page, 'Playbook Spec created successfully');
    await waitForUrl(page, (u) => u.pathname === '/playbooks');
    expect(posted).toBe(1);
    await card(category(page, 'Maintenance'), 'Disk report').waitFor();

    const admin = await one<{ id: string }>('SELECT id FROM people WHERE email = $1', [ADMIN.email]);
    const row = await one<{ id: string; title: string; category: string; created_by: string; spec: unknown }>(
      `SELECT id, title, category, created_by, spec FROM playbooks WHERE name = 'disk-report' AND deleted_at IS NULL`,
    );
    expect(row).toMatchObject({ title: 'Disk report', category: 'Maintenance', created_by: admin.id });
    expect(row.spec).toMatchObject({ kind: 'Playbook', spec: { actions: [{ name: 'report' }] } });
    playbookId = row.id;
    await expect
      .poll(() => card(page, 'Disk report').getByRole('link', { name: /^Edit/ }).getAttribute('href'))
      .toBe(`/playbooks/${playbookId}`);
  });

  it("saves the sample unchanged, and lists a playbook without a category under 'Other', last", async () => {
    const page = await app.adminPage();
    const applied = await page.request.post('/api/playbook', {
      headers: { origin: app.url, 'content-type': 'application/yaml' },
      data: `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: say-hello}
spec:
  title: Say hello
  actions:
    - name: hello
      exec: {script: echo hello}
`,
    });
    expect(applied.status()).toBe(201);
    // The sample a new playbook starts from saves as it is.
    await page.goto('/playbooks/new');
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Echo a greeting');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Playbook Spec created successfully');
    await waitForUrl(page, (u) => u.pathname === '/playbooks');
    await card(category(page, 'Examples'), 'Echo a greeting').waitFor();
    await card(category(page, 'Other'), 'Say hello').waitFor();
    await expect
      .poll(() => page.getByTestId('playbook-category').locator('h2').allTextContents())
      .toEqual(['Examples (1)', 'Maintenance (1)', 'Other (1)']);
    await shoot(page, 'playbooks');
  });

  it('marks the server’s refusal at its line, then updates the playbook', async () => {
    const page = await app.adminPage();
    await page.goto('/playbooks');
    await card(page, 'Disk report').getByRole('link', { name: /^Edit/ }).click();
    await waitForUrl(page, (u) => u.pathname === `/playbooks/${playbookId}`);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Disk report');
    await expect.poll(() => editorText(page)).toContain('name: disk-report');
    const title = page.getByLabel('Title');
    await expect.poll(() => title.inputValue()).toBe('Disk report');
    await shoot(page, 'playbook-edit');

    // Editing spec.title in the YAML moves the Title field with it.
    const text = await editorText(page);
    await replaceEditorText(page, text.replace('title: Disk report', 'title: Disk usage'));
    await expect.poll(() => title.inputValue()).toBe('Disk usage');

    // The outline schema lets an unknown SQL driver through; the server refuses it at its line.
    const refused = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: disk-report
spec:
  title: Disk usage
  actions:
    - name: report
      sql:
        driver: oracle
        query: select 1
`;
    await replaceEditorText(page, refused);
    const update = page.getByRole('button', { name: 'Update', exact: true });
    await update.click();
    await expectToast(page, /^Unable to update playbook spec: /);
    await expect.poll(() => problems(page)).toMatch(/Line (9|10)(, column \d+)?: /);
    await shoot(page, 'playbook-edit-errors');
    const unchanged = await one<{ title: string }>('SELECT title FROM playbooks WHERE id = $1', [playbookId]);
    expect(unchanged.title).toBe('Disk report');

    await replaceEditorText(page, PLAYBOOK_WITHOUT_TITLE);
    await title.fill('Disk space report');
    await update.click();
    await expectToast(page, 'Playbook Spec updated successfully');
    await waitForUrl(page, (u) => u.pathname === '/playbooks');
    await card(category(page, 'Maintenance'), 'Disk space report').waitFor();
    const row = await one<{ id: string; title: string }>(
      `SELECT id, title FROM playbooks WHERE name = 'disk-report' AND deleted_at IS NULL`,
    );
    expect(row).toEqual({ id: playbookId, title: 'Disk space report' });
  });

  it('runs a playbook from its card and lands on the run, which executes the script', async () => {
    const page = await app.adminPage();
    await page.goto('/playbooks');
    await card(page, 'Disk space report').getByRole('button', { name: /^Run/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();
    const url = await waitForUrl(page, (u) => /^\/playbooks\/runs\/[0-9a-f-]{36}$/.test(u.pathname));
    const runId = url.pathname.split('/').pop()!;
    const run = await one<{ playbook_id: string }>('SELECT playbook_id FROM playbook_runs WHERE id = $1', [runId]);
    expect(run.playbook_id).toBe(playbookId);
    await expect
      .poll(
        async () =>
          (await one<{ status: string } | undefined>('SELECT status FROM playbook_runs WHERE id = $1', [runId]))
            ?.status,
        { timeout: 30_000 },
      )
      .toBe('completed');
    const action = await one<{ name: string; result: { stdout?: string } }>(
      'SELECT name, result FROM playbook_run_actions WHERE playbook_run_id = $1',
      [runId],
    );
    expect(action.name).toBe('report');
    expect(action.result.stdout).toContain('disk report ok');
  });

  it('opens the history of a playbook from its card', async () => {
    const page = await app.adminPage();
    await page.goto('/playbooks');
    await card(page, 'Disk space report')
      .getByRole('link', { name: /^History/ })
      .click();
    const url = await waitForUrl(page, (u) => u.pathname === '/playbooks/runs');
    expect(url.searchParams.get('playbook')).toBe(playbookId);
  });

  it('shows a viewer the cards without New, Run or Delete and a read-only spec; the server refuses their apply', async () => {
    const admin = await app.adminPage();
    const headers = { origin: app.url };
    const invited = await admin.request.post('/api/users/invite', {
      data: { firstName: 'Val', lastName: 'Viewer', email: 'val@example.com', role: 'viewer' },
      headers,
    });
    expect(invited.ok()).toBe(true);
    const { link } = (await invited.json()) as { link: string };
    const token = new URL(link, app.url).searchParams.get('invite');
    const accepted = await admin.request.post('/api/auth/invite/accept', {
      data: { token, password: PASSWORD },
      headers,
    });
    expect(accepted.ok()).toBe(true);

    const page = await app.newPage();
    await page.goto('/login');
    await app.signIn(page, 'val@example.com', PASSWORD);
    await page.goto('/playbooks');
    const disk = card(page, 'Disk space report');
    await disk.waitFor();
    await disk.getByRole('link', { name: /^History/ }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'New Playbook' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: /^(Run|Delete)/ }).count()).toBe(0);

    await disk.getByRole('link', { name: /^Edit/ }).click();
    await waitForUrl(page, (u) => u.pathname === `/playbooks/${playbookId}`);
    await expect.poll(() => editorText(page)).toContain('name: disk-report');
    await page.getByText('You can read this spec; changing it needs write access to connections.').waitFor();
    await expect.poll(() => page.getByLabel('Title').isDisabled()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: /^(Update|Delete)$/ }).count()).toBe(0);

    const refused = await page.request.post('/api/playbook', {
      headers: { origin: app.url, 'content-type': 'application/yaml' },
      data: PLAYBOOK_WITHOUT_TITLE.replace('spec:\n', 'spec:\n  title: Sneaky\n'),
    });
    expect(refused.status()).toBe(403);
    const row = await one<{ title: string }>('SELECT title FROM playbooks WHERE id = $1', [playbookId]);
    expect(row.title).toBe('Disk space report');
  });

  it('deletes a playbook from its card after confirming', async () => {
    const page = await app.adminPage();
    await page.goto('/playbooks');
    await card(page, 'Disk space report')
      .getByRole('button', { name: /^Delete/ })
      .click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Playbook ?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(page, 'Playbook Spec deleted successfully');
    await expect.poll(() => card(page, 'Disk space report').count()).toBe(0);
    await card(page, 'Say hello').waitFor();
    await expect.poll(() => page.getByTestId('playbook-category').count()).toBe(2);
    const row = await one<{ deleted: boolean }>(
      'SELECT deleted_at IS NOT NULL AS deleted FROM playbooks WHERE id = $1',
      [playbookId],
    );
    expect(row.deleted).toBe(true);
  });
});
