// The Members tab of a team (spec/3 §2 Teams, §8): an admin creates a team, adds two people through
// the Add Members modal (one POST with both), removes one (only this team's membership goes) and
// then the other (the empty text); a server refusal is toasted with the server's message; a viewer
// sees the members without Add/Remove. Light and dark screenshots go to test-results/screens/.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';

const app = useConsole();

const EMPTY = "You haven't added any team members to the team yet.";
const PASSWORD = 'member-password-1';

/** Invites a person through the API as the signed-in admin and accepts the invite; returns the person id. */
async function createUser(admin: Page, first: string, last: string, email: string, role: string): Promise<string> {
  const headers = { origin: app.url };
  const invited = await admin.request.post('/api/users/invite', {
    data: { firstName: first, lastName: last, email, role },
    headers,
  });
  if (!invited.ok()) throw new Error(`invite failed: ${invited.status()} ${await invited.text()}`);
  const { link } = (await invited.json()) as { link: string };
  const token = new URL(link, app.url).searchParams.get('invite');
  const accepted = await admin.request.post('/api/auth/invite/accept', {
    data: { token, password: PASSWORD },
    headers,
  });
  if (!accepted.ok()) throw new Error(`accept failed: ${accepted.status()} ${await accepted.text()}`);
  const { rows } = await app.db.query<{ id: string }>('SELECT id FROM people WHERE email = $1', [email]);
  return rows[0].id;
}

async function memberIds(teamId: string): Promise<string[]> {
  const { rows } = await app.db.query<{ person_id: string }>(
    'SELECT person_id FROM team_members WHERE team_id = $1 ORDER BY person_id',
    [teamId],
  );
  return rows.map((r) => r.person_id);
}

async function shoot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.waitForTimeout(250); // let transitions settle
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

const membersTable = (page: Page) => page.getByRole('table', { name: 'Team members' });
const memberRow = (page: Page, name: string) => membersTable(page).getByRole('row').filter({ hasText: name });

let teamId = '';
const people: Record<string, string> = {};

describe('team members', () => {
  it('adds two members through the modal and removes them one by one', async () => {
    const page = await app.adminPage();
    people.ada = await createUser(page, 'Ada', 'Lovelace', 'ada@example.com', 'editor');
    people.grace = await createUser(page, 'Grace', 'Hopper', 'grace@example.com', 'editor');

    // A team made with the form.
    await page.goto('/settings/teams/new');
    await page.getByLabel('Name').fill('platform');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'platform created successfully');
    const url = await waitForUrl(page, (u) => /^\/settings\/teams\/[0-9a-f-]{36}$/.test(u.pathname));
    teamId = url.pathname.split('/').pop()!;

    // Sub-tabs Spec, Members, Job History; Members starts empty.
    await expect
      .poll(() => page.getByRole('tab').allTextContents())
      .toEqual(['Spec', 'Members', 'Job History', 'Form', 'Code']);
    await page.getByRole('tab', { name: 'Members' }).click();
    await waitForUrl(page, (u) => u.searchParams.get('tab') === 'manageTeam');
    await page.getByText(EMPTY, { exact: true }).waitFor();

    // The modal offers everyone not in the team, searchable; both are picked (by click and by keyboard).
    await page.getByRole('button', { name: 'Add Members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Members' });
    const options = dialog.getByRole('option');
    await expect
      .poll(() => options.allTextContents())
      .toEqual(['Ada Lovelaceada@example.com', 'Administratoradmin@e2e.test', 'Grace Hoppergrace@example.com']);
    const search = dialog.getByRole('combobox', { name: 'Search people' });
    await search.fill('love');
    await expect.poll(() => options.count()).toBe(1);
    await options.first().click();
    await search.fill('GRACE hop');
    await expect.poll(() => options.allTextContents()).toEqual(['Grace Hoppergrace@example.com']);
    await search.press('Enter');
    await expect
      .poll(() => dialog.getByRole('list', { name: 'Selected people' }).textContent())
      .toBe('Ada LovelaceGrace Hopper');
    await search.fill('');
    await expect.poll(() => dialog.getByRole('option', { selected: true }).count()).toBe(2);

    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/api/db/team_members'));
    await dialog.getByRole('button', { name: 'Add 2 members' }).click();
    const body = (await posted).postDataJSON() as unknown;
    expect(body).toEqual([
      { team_id: teamId, person_id: people.ada },
      { team_id: teamId, person_id: people.grace },
    ]);
    await expectToast(page, 'Ada Lovelace, Grace Hopper added to the team successfully');
    await expect.poll(() => dialog.count()).toBe(0);
    await memberRow(page, 'grace@example.com').waitFor();
    await expect.poll(() => memberRow(page, 'Ada Lovelace').textContent()).toContain('ada@example.com');
    await expect(memberIds(teamId)).resolves.toEqual([people.ada, people.grace].sort());
    await page.getByTestId('team-member-count').filter({ hasText: '2 members' }).waitFor();

    // Members are no longer offered.
    await page.getByRole('button', { name: 'Add Members' }).click();
    await expect.poll(() => options.allTextContents()).toEqual(['Administratoradmin@e2e.test']);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    // Ada is in another team too: removing her here leaves that membership alone.
    const other = await app.db.query<{ id: string }>(
      `INSERT INTO teams (name, spec, source) VALUES ('other', '{}', 'UI') RETURNING id`,
    );
    await app.db.query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)', [other.rows[0].id, people.ada]);

    await page.getByRole('button', { name: 'Remove Ada Lovelace' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove Member ?' });
    await confirm.getByText('Ada Lovelace will be removed from platform.').waitFor();
    const deleted = page.waitForRequest((r) => r.method() === 'DELETE' && r.url().includes('/api/db/team_members'));
    await confirm.getByRole('button', { name: 'Remove' }).click();
    const deleteUrl = new URL((await deleted).url());
    expect(deleteUrl.searchParams.get('team_id')).toBe(`eq.${teamId}`);
    expect(deleteUrl.searchParams.get('person_id')).toBe(`eq.${people.ada}`);
    await expectToast(page, 'Ada Lovelace removed from team successfully');
    await expect.poll(() => memberRow(page, 'Ada Lovelace').count()).toBe(0);
    await memberRow(page, 'Grace Hopper').waitFor();
    await expect(memberIds(teamId)).resolves.toEqual([people.grace]);
    await expect(memberIds(other.rows[0].id)).resolves.toEqual([people.ada]);

    // The last one: the empty text.
    await page.getByRole('button', { name: 'Remove Grace Hopper' }).click();
    await page.getByRole('alertdialog', { name: 'Remove Member ?' }).getByRole('button', { name: 'Remove' }).click();
    await expectToast(page, 'Grace Hopper removed from team successfully');
    await page.getByText(EMPTY, { exact: true }).waitFor();
    await expect.poll(() => membersTable(page).count()).toBe(0);
    await expect(memberIds(teamId)).resolves.toEqual([]);

    // Reloading keeps the tab.
    await page.reload();
    await page.getByText(EMPTY, { exact: true }).waitFor();
    await shoot(page, 'light-team-members-empty');
  });

  it("toasts the server's message when adding fails", async () => {
    const page = await app.adminPage();
    await page.goto(`/settings/teams/${teamId}?tab=manageTeam`);
    await page.getByText(EMPTY, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add Members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Members' });
    await dialog.getByRole('option', { name: /Administrator/ }).click();
    // Someone else adds the admin meanwhile: the insert is refused.
    const { rows } = await app.db.query<{ id: string }>('SELECT id FROM people WHERE email = $1', ['admin@e2e.test']);
    await app.db.query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)', [teamId, rows[0].id]);
    const answer = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().includes('/api/db/team_members'),
    );
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    const response = await answer;
    expect(response.status()).toBe(409);
    const { message } = (await response.json()) as { message: string };
    expect(message).toBeTruthy();
    await expectToast(page, message);
    // The modal stays open with the choice, nothing was toasted as added.
    await expect.poll(() => dialog.getByRole('option', { selected: true }).count()).toBe(1);
    await expect
      .poll(() => page.locator('[data-sonner-toast]').filter({ hasText: 'added to the team' }).count())
      .toBe(0);
    await page.keyboard.press('Escape');
    await app.db.query('DELETE FROM team_members WHERE team_id = $1', [teamId]);
  });

  it('shows a viewer the members without Add or Remove', async () => {
    const admin = await app.adminPage();
    await createUser(admin, 'Vera', 'Viewer', 'vera@example.com', 'viewer');
    await app.db.query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2), ($1, $3)', [
      teamId,
      people.ada,
      people.grace,
    ]);

    const page = await app.newPage();
    await page.goto(`/settings/teams/${teamId}?tab=manageTeam`);
    await waitForUrl(page, (u) => u.pathname === '/login');
    await app.signIn(page, 'vera@example.com', PASSWORD);
    await waitForUrl(page, (u) => u.pathname === `/settings/teams/${teamId}`);
    await page.getByRole('tab', { name: 'Members', selected: true }).waitFor();
    await memberRow(page, 'ada@example.com').waitFor();
    await memberRow(page, 'grace@example.com').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Add Members' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await expect.poll(() => membersTable(page).getByRole('columnheader').allTextContents()).toEqual(['Name', 'Email']);
  });

  it('captures the Members tab and the modal in light and dark mode', async () => {
    const page = await app.newPage({ colorScheme: 'dark' });
    await app.signIn(page);
    await page.goto(`/settings/teams/${teamId}?tab=manageTeam`);
    await memberRow(page, 'grace@example.com').waitFor();
    await shoot(page, 'dark-team-members');
    await page.getByRole('button', { name: 'Add Members' }).click();
    await page
      .getByRole('dialog', { name: 'Add Members' })
      .getByRole('option', { name: /Administrator/ })
      .click();
    await shoot(page, 'dark-team-add-members');
    await page.keyboard.press('Escape');

    const light = await app.adminPage();
    await light.goto(`/settings/teams/${teamId}?tab=manageTeam`);
    await memberRow(light, 'grace@example.com').waitFor();
    await shoot(light, 'light-team-members');
    await light.getByRole('button', { name: 'Add Members' }).click();
    await light.getByRole('dialog', { name: 'Add Members' }).getByRole('combobox').fill('ad');
    await light
      .getByRole('dialog', { name: 'Add Members' })
      .getByRole('option', { name: /Administrator/ })
      .click();
    await shoot(light, 'light-team-add-members');
    await light.keyboard.press('Escape');
  });
});
