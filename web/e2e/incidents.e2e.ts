// Incidents end to end against a real server: create an incident from the list (after the
// required-field message), grow its hypothesis tree three levels deep, attach a health check as
// evidence from the check drawer's Link to Incident dialog (validation messages first), add it to
// the definition of done through the wizard, move to mitigated through the contributing-factors
// dialog, add a person responder, comment with an @mention, then close and reopen. Every step is
// checked in the page and in the database the server wrote.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';
import { applyCanary, canaryYaml, recordRuns, startTarget, type HttpTarget } from './healthSeed.js';

const app = useConsole({ config: () => ({ engines: false }) });
let target: HttpTarget;
let checkId = '';
let incidentId = '';
let admin = { id: '', name: '' };

beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => {
  await target?.close();
});

const one = async <T>(sql: string, params: unknown[] = []): Promise<T> =>
  (await app.db.query<T>(sql, params)).rows[0] as T;

async function hypothesisTypes(): Promise<string[]> {
  const { rows } = await app.db.query<{ type: string }>(
    'SELECT type FROM hypotheses WHERE incident_id = $1 ORDER BY created_at',
    [incidentId],
  );
  return rows.map((r) => r.type);
}

const status = async () =>
  (await one<{ status: string }>('SELECT status FROM incidents WHERE id = $1', [incidentId])).status;

async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.waitForTimeout(300); // let transitions settle
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

async function openActionPlan(page: Page) {
  await page.getByRole('tab', { name: 'Action Plan' }).click();
  await page.getByTestId('action-plan').waitFor();
}

describe('incidents', () => {
  it('creates an incident from the list after asking for a title, and lands on it', async () => {
    const page = await app.adminPage();
    admin = await one<{ id: string; name: string }>('SELECT id, name FROM people WHERE email = $1', [ADMIN.email]);
    await page.goto('/incidents');
    await page.getByText('There are no incidents matching this criteria').waitFor();
    // The status filter starts at open.
    await expect.poll(() => page.getByLabel('Status').inputValue()).toBe('open');

    await page.getByRole('button', { name: 'Create New Incident' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Incident' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('This field is required').waitFor();
    await dialog.getByLabel('Title').fill('Checkout API failing');
    await dialog.getByLabel('Severity').selectOption('high');
    await dialog.getByRole('button', { name: 'Create' }).click();

    const url = await waitForUrl(page, (u) => /^\/incidents\/[0-9a-f-]{36}$/.test(u.pathname));
    incidentId = url.pathname.split('/')[2]!;
    const row = await one<{ title: string; severity: string; status: string; type: string; created_by: string }>(
      'SELECT title, severity, status, type, created_by FROM incidents WHERE id = $1',
      [incidentId],
    );
    expect(row).toEqual({
      title: 'Checkout API failing',
      severity: 'high',
      status: 'open',
      type: 'availability',
      created_by: admin.id,
    });
    await expect.poll(() => page.getByTestId('page-title').textContent()).toMatch(/^INC\d+ · Checkout API failing$/);
    await page.getByRole('button', { name: 'Close', exact: true }).waitFor();
    // The server gave it a root hypothesis.
    expect(await hypothesisTypes()).toEqual(['root']);

    await page.goto('/incidents');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Checkout API failing' }).count()).toBe(1);
    await page.getByLabel('Status').selectOption('closed');
    await page.getByText('There are no incidents matching this criteria').waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('closed');
  });

  it('grows the hypothesis tree root → factor → solution', async () => {
    const page = await app.adminPage();
    await page.goto(`/incidents/${incidentId}`);
    await openActionPlan(page);
    const rootNode = page.locator('[data-testid="hypothesis"][data-hypothesis-type="root"]');
    await rootNode.getByRole('button', { name: 'Add factor' }).click();
    await rootNode.getByLabel('New factor title').fill('Database connection pool exhausted');
    await rootNode.getByRole('button', { name: 'Save' }).click();
    const factor = page.locator('[data-testid="hypothesis"][data-hypothesis-type="factor"]');
    await factor.waitFor();
    await expect
      .poll(() => factor.getByLabel('Hypothesis title').inputValue())
      .toBe('Database connection pool exhausted');

    await factor.getByRole('button', { name: 'Expand' }).click();
    await factor.getByRole('button', { name: 'Add solution' }).click();
    await factor.getByLabel('New solution title').fill('Raise the pool size');
    await factor.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-testid="hypothesis"][data-hypothesis-type="solution"]').waitFor();
    await expect.poll(hypothesisTypes).toEqual(['root', 'factor', 'solution']);
    const solution = await one<{ status: string; parent_type: string }>(
      `SELECT h.status, p.type AS parent_type FROM hypotheses h JOIN hypotheses p ON p.id = h.parent_id
       WHERE h.incident_id = $1 AND h.type = 'solution'`,
      [incidentId],
    );
    expect(solution).toEqual({ status: 'Possible', parent_type: 'factor' });

    // The status is saved shortly after it is chosen.
    await factor.getByLabel('Hypothesis status').first().selectOption('Likely');
    await expect
      .poll(
        async () =>
          (
            await one<{ status: string }>(`SELECT status FROM hypotheses WHERE incident_id = $1 AND type = 'factor'`, [
              incidentId,
            ])
          ).status,
      )
      .toBe('Likely');
  });

  it('attaches a health check as evidence from the check drawer', async () => {
    const page = await app.adminPage();
    const ids = await applyCanary(
      page,
      app.url,
      canaryYaml({ name: 'checkout', http: { 'checkout-api': '/status' }, targetUrl: target.url }),
    );
    checkId = ids['checkout-api']!;
    await recordRuns(app.db, checkId, [true, true, false, false]);

    await page.goto(`/health?checkId=${checkId}`);
    await page.getByRole('button', { name: 'Link to Incident' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to Incident' });
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await dialog.getByText('Must select or create an incident').waitFor();
    await dialog.getByText('Please select incident severity').waitFor();
    await dialog.getByText('Please select an incident type').waitFor();

    await dialog.getByRole('radio', { name: 'Existing incident' }).check();
    await expect
      .poll(() => dialog.getByRole('combobox', { name: 'Incident', exact: true }).locator('option').count())
      .toBeGreaterThan(1);
    await dialog.getByRole('combobox', { name: 'Incident', exact: true }).selectOption(incidentId);
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await dialog.getByText('Must select or create a hypothesis').waitFor();
    const factorId = (
      await one<{ id: string }>(`SELECT id FROM hypotheses WHERE incident_id = $1 AND type = 'factor'`, [incidentId])
    ).id;
    await expect
      .poll(() => dialog.getByRole('combobox', { name: 'Hypothesis' }).locator('option').count())
      .toBeGreaterThan(2);
    await dialog.getByRole('combobox', { name: 'Hypothesis' }).selectOption(factorId);
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await expectToast(page, 'Evidence linked to incident');

    const evidence = await one<{
      type: string;
      check_id: string;
      evidence: Record<string, unknown>;
      hypothesis_id: string;
    }>(
      `SELECT e.type, e.check_id, e.evidence, e.hypothesis_id FROM evidences e
       JOIN hypotheses h ON h.id = e.hypothesis_id WHERE h.incident_id = $1`,
      [incidentId],
    );
    expect(evidence.type).toBe('check');
    expect(evidence.check_id).toBe(checkId);
    expect(evidence.hypothesis_id).toBe(factorId);
    expect(evidence.evidence).toMatchObject({ check_id: checkId, includeMessages: true });
    expect(typeof evidence.evidence.start).toBe('string');

    // The toast links to the incident.
    await page.locator('[data-sonner-toast]').getByRole('link').first().click();
    await waitForUrl(page, (u) => u.pathname === `/incidents/${incidentId}`);
  });

  it('adds the check to the definition of done and moves to mitigated through the dialog', async () => {
    const page = await app.adminPage();
    await page.goto(`/incidents/${incidentId}?comments=true`);
    await openActionPlan(page);
    await page.getByTestId('evidence-check').getByRole('link', { name: 'checkout-api' }).waitFor();

    const dod = page.getByTestId('definition-of-done');
    await dod.getByText('No Evidence').waitFor();
    await dod.getByRole('button', { name: 'Add definition of done' }).click();
    const wizard = page.getByRole('dialog', { name: 'Add definition of done' });
    const add = wizard.getByRole('button', { name: 'Add', exact: true });
    await expect.poll(() => add.isDisabled()).toBe(true);
    await wizard.getByRole('checkbox').first().check();
    await add.click();
    await wizard.getByRole('button', { name: 'check healthy and age over 5m' }).click();
    await wizard.getByRole('button', { name: 'Submit' }).click();
    await dod.getByTestId('dod-item').filter({ hasText: 'checkout-api' }).waitFor();
    const marked = await one<{ definition_of_done: boolean; script: string }>(
      'SELECT definition_of_done, script FROM evidences WHERE check_id = $1',
      [checkId],
    );
    expect(marked.definition_of_done).toBe(true);
    expect(marked.script).toContain("check.status == 'healthy'");

    await page.getByLabel('Status', { exact: true }).selectOption('mitigated');
    const factors = page.getByRole('dialog', { name: 'Add contributing factors to definition of done' });
    await factors.waitFor();
    await factors.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Please select atleast one evidence');
    expect(await status()).toBe('open');
    await factors.getByRole('button', { name: 'Skip' }).click();
    await expectToast(page, 'Incident status updated successfully');
    await expect.poll(status).toBe('mitigated');
    await expect.poll(() => page.getByTestId('incident-status').first().textContent()).toBe('Mitigated');
    // From mitigated the dropdown offers only the allowed moves.
    await expect
      .poll(() => page.getByLabel('Status', { exact: true }).locator('option').allTextContents())
      .toEqual(['Mitigated', 'Resolved', 'Closed', 'Open']);
  });

  it('adds a person responder', async () => {
    const page = await app.adminPage();
    await page.goto(`/incidents/${incidentId}`);
    await page.getByRole('button', { name: 'Add Responder' }).click();
    const wizard = page.getByRole('dialog', { name: 'Select Responder' });
    await wizard.getByRole('radio', { name: 'Person' }).check();
    const addButton = wizard.getByRole('button', { name: 'Add', exact: true });
    await expect.poll(() => addButton.isDisabled()).toBe(true);
    await wizard.getByRole('combobox', { name: 'Person' }).selectOption(admin.id);
    await addButton.click();
    await expectToast(page, 'Responder added successfully');
    await page.getByTestId('responder').filter({ hasText: admin.name }).waitFor();
    const responder = await one<{ type: string; person_id: string; properties: Record<string, unknown> }>(
      'SELECT type, person_id, properties FROM responders WHERE incident_id = $1 AND deleted_at IS NULL',
      [incidentId],
    );
    expect(responder).toMatchObject({ type: 'person', person_id: admin.id, properties: { responderType: 'person' } });
  });

  it('comments with a mention', async () => {
    const page = await app.adminPage();
    await page.goto(`/incidents/${incidentId}`);
    const box = page.getByLabel('Comment', { exact: true });
    await box.click();
    await box.pressSequentially(`Pool raised, please verify @${admin.name.slice(0, 3)}`);
    await page.getByRole('option', { name: new RegExp(admin.name) }).waitFor();
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe(`Pool raised, please verify @${admin.name} `);
    await page.getByRole('button', { name: 'Send comment' }).click();
    await page.locator(`[data-testid="comment"] [data-mention="${admin.id}"]`).first().waitFor();
    await expect
      .poll(
        async () =>
          (
            await one<{ comment: string } | undefined>('SELECT comment FROM comments WHERE incident_id = $1', [
              incidentId,
            ])
          )?.comment,
      )
      .toBe(`Pool raised, please verify @[${admin.name}](user:${admin.id})`);
    await expect.poll(() => page.locator('[data-testid="comment"][data-pending]').count()).toBe(0);
  });

  it('reopens, closes and reopens with the header toggle, and the changelog records it', async () => {
    const page = await app.adminPage();
    await page.goto(`/incidents/${incidentId}`);
    await page.getByRole('button', { name: 'Reopen' }).click();
    await expect.poll(status).toBe('open');
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(status).toBe('closed');
    await expect
      .poll(() => page.getByLabel('Status', { exact: true }).locator('option').allTextContents())
      .toEqual(['Closed', 'Open']);
    await page.getByRole('button', { name: 'Reopen' }).click();
    await expect.poll(status).toBe('open');
    await page.getByRole('button', { name: 'Close', exact: true }).waitFor();

    const { rows } = await app.db.query<{ type: string }>(
      'SELECT type FROM incident_histories WHERE incident_id = $1',
      [incidentId],
    );
    const types = rows.map((r) => r.type);
    expect(types).toContain('incident.created');
    expect(types.filter((t) => t === 'incident.status_updated').length).toBeGreaterThanOrEqual(4);
    await expect.poll(() => page.getByTestId('history-entry').count()).toBeGreaterThanOrEqual(rows.length);
  });

  it('saves severity and type edits from the details panel, and lists the incident with its responder', async () => {
    const page = await app.adminPage();
    await page.goto(`/incidents/${incidentId}`);
    const details = page.getByTestId('incident-details');
    await details.getByLabel('Severity').selectOption('critical');
    await details.getByLabel('Type').selectOption('performance');
    await expect
      .poll(async () =>
        one<{ severity: string; type: string }>('SELECT severity, type FROM incidents WHERE id = $1', [incidentId]),
      )
      .toEqual({ severity: 'critical', type: 'performance' });

    await page.getByTestId('changelog').waitFor();
    await screenshot(page, 'incident-detail');
    await page.goto(`/incidents/${incidentId}?comments=true`);
    await openActionPlan(page);
    await page.getByTestId('evidence').first().waitFor();
    await screenshot(page, 'incident-action-plan');

    await page.goto('/incidents');
    const row = page.getByRole('row').filter({ hasText: 'Checkout API failing' });
    await row.waitFor();
    await screenshot(page, 'incidents-list');
    await expect.poll(() => row.getByTestId('incident-responders').locator('> *').count()).toBe(1);
    await expect.poll(() => row.getByTestId('incident-severity').textContent()).toBe('Critical');
    await page.getByLabel('Search incidents').fill('no such words');
    await page.getByText('There are no incidents matching this criteria').waitFor();
    await waitForUrl(page, (u) => u.searchParams.get('search') === 'no such words');
    await page.getByLabel('Search incidents').fill('checkout');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Checkout API failing' }).count()).toBe(1);
  });

  it('opens a new incident with the check as evidence from the drawer', async () => {
    const page = await app.adminPage();
    await page.goto(`/health?checkId=${checkId}`);
    await page.getByRole('button', { name: 'Link to Incident' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to Incident' });
    await dialog.getByLabel('Incident title').fill('Checkout latency');
    await dialog.getByLabel('Type').selectOption('performance');
    await dialog.getByLabel('Severity').selectOption('medium');
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await expectToast(page, 'Evidence linked to incident');
    await expect
      .poll(async () =>
        one<{ severity: string; type: string; evidence_type: string; check_id: string } | undefined>(
          `SELECT i.severity, i.type, e.type AS evidence_type, e.check_id FROM incidents i
           JOIN hypotheses h ON h.incident_id = i.id JOIN evidences e ON e.hypothesis_id = h.id
           WHERE i.title = 'Checkout latency'`,
        ),
      )
      .toEqual({ severity: 'medium', type: 'performance', evidence_type: 'check', check_id: checkId });
  });

  it('adds a team responder through the wizard and deletes it', async () => {
    const page = await app.adminPage();
    await app.db.query(`INSERT INTO teams (name, spec) VALUES ('Platform', $1), ('Quiet team', '{}')`, [
      JSON.stringify({ responder_clients: { email: { defaults: { to: 'oncall@example.com', subject: 'Incident' } } } }),
    ]);
    await page.goto(`/incidents/${incidentId}`);
    await page.getByRole('button', { name: 'Add Responder' }).click();
    let wizard = page.getByRole('dialog', { name: 'Select Responder' });
    const next = wizard.getByRole('button', { name: 'Next' });
    await expect.poll(() => next.isDisabled()).toBe(true);
    await wizard.getByRole('combobox', { name: 'Team' }).selectOption({ label: 'Quiet team' });
    await next.click();
    wizard = page.getByRole('dialog', { name: 'Responder Type' });
    await wizard.getByText('There were no responders configured for this team').waitFor();
    await wizard.getByRole('button', { name: 'Back' }).click();
    wizard = page.getByRole('dialog', { name: 'Select Responder' });
    await wizard.getByRole('combobox', { name: 'Team' }).selectOption({ label: 'Platform' });
    await wizard.getByRole('button', { name: 'Next' }).click();
    wizard = page.getByRole('dialog', { name: 'Responder Type' });
    await expect.poll(() => wizard.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await wizard.getByRole('radio', { name: 'Email' }).check();
    await wizard.getByRole('button', { name: 'Next' }).click();
    wizard = page.getByRole('dialog', { name: 'Save Team Responder' });
    await expect.poll(() => wizard.getByLabel('To').inputValue()).toBe('oncall@example.com');
    await wizard.getByRole('button', { name: 'Save' }).click();
    await wizard.getByText('Please provide valid value').waitFor();
    await wizard.getByLabel('Body').fill('Checkout is failing, please join the bridge.');
    await wizard.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Responder added successfully');
    const item = page.getByTestId('responder').filter({ hasText: 'Platform' });
    await item.getByText('recorded only').waitFor();
    const row = await one<{ id: string; type: string; properties: Record<string, unknown>; delivery_status: string }>(
      `SELECT r.id, r.type, r.properties, r.delivery_status FROM responders r JOIN teams t ON t.id = r.team_id
       WHERE r.incident_id = $1 AND t.name = 'Platform'`,
      [incidentId],
    );
    expect(row).toMatchObject({
      type: 'system',
      delivery_status: 'recorded',
      properties: {
        responderType: 'email',
        to: 'oncall@example.com',
        subject: 'Incident',
        body: 'Checkout is failing, please join the bridge.',
      },
    });

    await item.getByRole('button', { name: 'Delete responder Platform' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Responder ?' });
    await confirm.getByText('Are you sure you want to delete the responder ?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Responder deleted successfully');
    await expect
      .poll(
        async () =>
          (await one<{ deleted_at: string | null }>('SELECT deleted_at FROM responders WHERE id = $1', [row.id]))
            .deleted_at,
      )
      .not.toBeNull();
    await expect.poll(() => page.getByTestId('responder').filter({ hasText: 'Platform' }).count()).toBe(0);
  });

  it('rolls a comment back when the server refuses it, and asks for comment details', async () => {
    const page = await app.adminPage();
    await page.goto(`/incidents/${incidentId}`);
    const box = page.getByLabel('Comment', { exact: true });
    const send = page.getByRole('button', { name: 'Send comment' });
    await expect.poll(() => send.isDisabled()).toBe(true);
    await box.fill('   ');
    await send.click();
    await expectToast(page, 'Please add comment details');

    const before = await page.getByTestId('comment').count();
    await page.route('**/api/db/comments*', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({ code: '23503', message: 'comment refused by the test' }),
          })
        : route.continue(),
    );
    await box.fill('This one will not stick');
    await send.click();
    await expectToast(page, 'comment refused by the test');
    await expect.poll(() => page.getByTestId('comment').count()).toBe(before);
    await page.unroute('**/api/db/comments*');
  });

  it('disproves and deletes a hypothesis with its comments, and manages manual definition-of-done items', async () => {
    const page = await app.adminPage();
    await page.goto(`/incidents/${incidentId}?comments=true`);
    await openActionPlan(page);
    const rootNode = page.locator('[data-testid="hypothesis"][data-hypothesis-type="root"]');
    await rootNode.getByRole('button', { name: 'Add factor' }).last().click();
    await rootNode.getByLabel('New factor title').fill('Network partition');
    await rootNode.getByRole('button', { name: 'Save' }).click();
    const partition = page
      .locator('[data-testid="hypothesis"][data-hypothesis-type="factor"]')
      .filter({ has: page.locator('input[value="Network partition"]') });
    await partition.waitFor();
    await partition.getByRole('button', { name: 'Disprove' }).click();
    const byTitle = (t: string) =>
      app.db.query<{ id: string; status: string }>('SELECT id, status FROM hypotheses WHERE title = $1', [t]);
    await expect.poll(async () => (await byTitle('Network partition')).rows[0]?.status).toBe('Disproven');
    await partition.getByLabel('Comment', { exact: true }).fill('Ruled out by the network team');
    await partition.getByRole('button', { name: 'Send comment' }).click();
    await partition.getByTestId('comment').filter({ hasText: 'Ruled out' }).waitFor();
    await expect
      .poll(
        async () => (await app.db.query('SELECT 1 FROM comments WHERE comment LIKE $1', ['Ruled out%'])).rows.length,
      )
      .toBe(1);

    await partition.getByRole('button', { name: 'Delete hypothesis' }).first().click();
    await page
      .getByRole('alertdialog', { name: 'Delete Hypothesis ?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(async () => (await byTitle('Network partition')).rows.length).toBe(0);
    expect((await app.db.query('SELECT 1 FROM comments WHERE comment LIKE $1', ['Ruled out%'])).rows.length).toBe(0);

    // A manual item: added, marked resolved after confirmation, then removed after confirmation.
    const dod = page.getByTestId('definition-of-done');
    await dod.getByRole('button', { name: 'Add definition of done' }).click();
    const wizard = page.getByRole('dialog', { name: 'Add definition of done' });
    await wizard.getByRole('button', { name: 'Add manually' }).click();
    await expect.poll(() => wizard.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
    await wizard.getByLabel('Definition of done').fill('Error rate below 1% for an hour');
    await wizard.getByRole('button', { name: 'Submit' }).click();
    const manual = dod.getByTestId('dod-item').filter({ hasText: 'Error rate below 1%' });
    await manual.getByRole('button', { name: 'Mark as resolved' }).click();
    await page
      .getByRole('alertdialog', { name: 'Mark as resolved ?' })
      .getByRole('button', { name: 'Mark resolved' })
      .click();
    const manualRow = () =>
      one<{ done: boolean | null; definition_of_done: boolean; type: string }>(
        `SELECT done, definition_of_done, type FROM evidences WHERE description = 'Error rate below 1% for an hour'`,
      );
    await expect.poll(manualRow).toEqual({ done: true, definition_of_done: true, type: 'comment' });
    await manual.getByRole('button', { name: 'Remove from definition of done' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove from definition of done ?' });
    await confirm.getByText('Are you sure you want to remove the evidence from definition of done ?').waitFor();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(async () => (await manualRow()).definition_of_done).toBe(false);
    await expect.poll(() => manual.count()).toBe(0);
  });

  it('hides Link to Incident while the incidents feature is disabled', async () => {
    const page = await app.adminPage();
    await page.goto(`/health?checkId=${checkId}`);
    await page.getByRole('button', { name: 'Link to Incident' }).waitFor();
    const flag = await page.request.post('/api/db/properties', {
      data: { name: 'incidents.disable', value: 'true' },
      headers: { origin: app.url },
    });
    expect(flag.status()).toBe(201);
    try {
      await page.reload();
      await page.getByRole('button', { name: 'Run Now' }).waitFor();
      await expect.poll(() => page.getByRole('button', { name: 'Link to Incident' }).count()).toBe(0);
    } finally {
      const back = await page.request.delete('/api/db/properties?name=eq.incidents.disable', {
        headers: { origin: app.url },
      });
      expect(back.status()).toBe(204);
    }
    await page.reload();
    await page.getByRole('button', { name: 'Link to Incident' }).waitFor();
  });

  it('says so for a missing incident', async () => {
    const page = await app.adminPage();
    await page.goto('/incidents/00000000-0000-0000-0000-000000000001');
    await page.getByText('Incident not found').waitFor();
  });
});
