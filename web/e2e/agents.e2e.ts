// /agents (spec/1 §2–§4, §8, issue 17): an admin creates an agent, reads the Installation Instructions
// with its one-time token, starts a real `opsdeck agent` process with that token and sees the agent go
// Online with the check it runs pushed here; then deletes it, answering Yes to the cleanup question: what
// it pushed is soft-deleted and its token stops working.
// Also: the drawers open from the query string (?addAgent=true, ?id=), a name is required, and a
// refused create (a duplicate name) shows the server's message as a toast.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, it } from 'vitest';
import { startAgent, type AgentProcess } from './agentProcess.js';
import { expect, expectToast, pathOf, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';

const app = useConsole();

const AGENT = 'edge-berlin';
/** Tokens read from the install dialog, by agent name (the tests of this file run in order). */
const tokens = new Map<string, string>();

const table = (page: Page) => page.getByRole('table', { name: 'Agents' });
const row = (page: Page, name: string) => table(page).getByRole('row').filter({ hasText: name });
const drawer = (page: Page) => page.getByRole('dialog').first();

async function shoot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.waitForTimeout(250); // let transitions settle
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

interface StoredAgent {
  id: string;
  deleted_at: string | null;
  cleanup: boolean;
  last_seen: string | null;
  properties: Record<string, string> | null;
}

async function stored(name: string): Promise<StoredAgent | undefined> {
  const { rows } = await app.db.query<StoredAgent>(
    'SELECT id, deleted_at, cleanup, last_seen, properties FROM agents WHERE name = $1 ORDER BY created_at DESC LIMIT 1',
    [name],
  );
  return rows[0];
}

const agents: AgentProcess[] = [];
afterAll(async () => {
  for (const a of agents) await a.stop();
});

/** The canary the agent runs: an HTTP check of the upstream itself, every 5 s. */
const canary = (upstream: string) => `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: edge-web}
spec:
  schedule: "@every 5s"
  http:
    - name: edge-upstream-about
      url: ${upstream}/api/about
`;

async function agentChecks(agentId: string): Promise<{ id: string; deleted_at: string | null }[]> {
  const { rows } = await app.db.query<{ id: string; deleted_at: string | null }>(
    'SELECT id, deleted_at FROM checks WHERE agent_id = $1',
    [agentId],
  );
  return rows;
}

describe('agents', () => {
  it('creates an agent and shows how to install it with its token, shown once', async () => {
    const page = await app.adminPage();
    await page.goto('/agents');
    await table(page).getByText('No data available').waitFor();

    await page.getByRole('button', { name: 'Add Agent' }).click();
    await waitForUrl(page, (u) => u.searchParams.get('addAgent') === 'true');
    await drawer(page).getByRole('heading', { name: 'Create new agent' }).waitFor();

    // Name is required.
    await drawer(page).getByRole('button', { name: 'Save' }).click();
    await drawer(page).getByText('This field is required').waitFor();

    await drawer(page).getByLabel(/^Name/).fill(AGENT);
    await drawer(page).getByLabel('Property 1 key').fill('site');
    await drawer(page).getByLabel('Property 1 value').fill('berlin');
    await drawer(page)
      .getByRole('switch', { name: /Scrape the cluster/ })
      .click();
    await drawer(page).getByLabel('Interval').selectOption('5m');
    await drawer(page).getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Agent created');

    // The create drawer closes and the install instructions open, the token in every snippet.
    const dialog = page.getByRole('dialog', { name: 'Installation Instructions' });
    await dialog.waitFor();
    expect(new URL(page.url()).searchParams.get('addAgent')).toBeNull();
    await dialog.getByText('The access token is shown only once').waitFor();
    const token = (await dialog.getByRole('region', { name: 'Access token' }).locator('pre').textContent())!.trim();
    expect(token.length).toBeGreaterThan(16);
    await shoot(page, 'agents-install-instructions');

    const command = await dialog.getByRole('region', { name: 'Run the agent' }).locator('pre').textContent();
    expect(command).toContain('opsdeck agent');
    expect(command).toContain(`--upstream ${app.url}`);
    expect(command).toContain(`--token ${token}`);
    await dialog.getByRole('button', { name: 'Copy Run the agent' }).click();
    await expectToast(page, 'Copied to clipboard');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);

    await dialog.getByRole('tab', { name: 'Container' }).click();
    const container = await dialog.getByRole('region', { name: 'Run the agent container' }).textContent();
    expect(container).toContain(`OPSDECK_UPSTREAM_URL=${app.url}`);
    expect(container).toContain(`OPSDECK_AGENT_TOKEN=${token}`);
    await dialog.getByRole('tab', { name: 'Helm CLI' }).click();
    const values = await dialog.getByRole('region', { name: 'values.yaml' }).textContent();
    expect(values).toContain(`url: ${app.url}`);
    expect(values).toContain(`agentName: ${AGENT}`);
    expect(values).toContain(`token: ${token}`);
    expect(values).toContain('interval: 5m');

    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const agent = await stored(AGENT);
    expect(agent?.properties).toMatchObject({ site: 'berlin', 'kubernetes.enabled': 'true' });
    // Never seen: no status yet.
    await row(page, AGENT).waitFor();
    expect(
      await row(page, AGENT)
        .getByText(/Online|Offline/)
        .count(),
    ).toBe(0);
    tokens.set(AGENT, token);
  });

  it('toasts the server message when a create is refused', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/agents?addAgent=true');
    await drawer(page).getByRole('heading', { name: 'Create new agent' }).waitFor();
    await drawer(page).getByLabel(/^Name/).fill(AGENT);
    await drawer(page).getByRole('button', { name: 'Save' }).click();
    await expectToast(page, `An agent named "${AGENT}" already exists.`);
    await drawer(page).getByRole('button', { name: 'Cancel' }).click();
    await waitForUrl(page, (u) => !u.searchParams.has('addAgent'));
  });

  it('shows the agent Online once an agent process runs with its token', { timeout: 150_000 }, async () => {
    const page = await app.adminPage();
    await page.goto('/agents?sortBy=name&sortOrder=asc');
    await row(page, AGENT).waitFor();
    const agent = await startAgent({ upstream: app.url, token: tokens.get(AGENT)!, name: AGENT });
    agents.push(agent);
    expect(await agent.apply('/api/canary', canary(app.url))).toBe(201);
    // The agent pings, runs its check and pushes the check and its statuses, stamped with its id.
    const { id } = (await stored(AGENT))!;
    const deadline = Date.now() + 60_000;
    while (!(await agentChecks(id)).length) {
      if (Date.now() > deadline)
        throw new Error(`no check arrived from the agent in 60 s: ${agent.output().slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect((await stored(AGENT))?.last_seen).not.toBeNull();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row(page, AGENT).getByText('Online').waitFor();
    // Sorted on the server by the query string's column.
    const nameHeader = table(page).getByRole('columnheader', { name: /^Name/ });
    expect(await nameHeader.getAttribute('aria-sort')).toBe('ascending');
    await nameHeader.getByRole('button').click();
    await waitForUrl(
      page,
      (u) => u.searchParams.get('sortOrder') === 'desc' && u.searchParams.get('sortBy') === 'name',
    );
    expect(await row(page, AGENT).getByRole('cell').nth(5).textContent()).not.toBe('');
    await shoot(page, 'agents-list-online');
    await agent.stop();
  });

  it('deletes the agent with cleanup after both questions, and its token stops working', async () => {
    const page = await app.adminPage();
    const { id } = (await stored(AGENT))!;
    await page.goto('/agents');
    await row(page, AGENT).click();
    await waitForUrl(page, (u) => u.searchParams.get('id') === id);
    await drawer(page).getByRole('heading', { name: AGENT }).waitFor();
    expect(await drawer(page).getByLabel(/^Name/).getAttribute('readonly')).not.toBeNull();
    expect(await drawer(page).getByLabel('Property 1 value').inputValue()).toBe('berlin');
    expect(await drawer(page).getByLabel('Interval').inputValue()).toBe('5m');
    await shoot(page, 'agents-drawer');

    // Properties can change; the name cannot.
    await drawer(page).getByLabel('Property 1 value').fill('berlin-2');
    await drawer(page).getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Agent updated');
    await waitForUrl(page, (u) => !u.searchParams.has('id'));
    expect((await stored(AGENT))?.properties).toMatchObject({ site: 'berlin-2', 'kubernetes.interval': '5m' });

    // ?id= opens the drawer, also after a reload.
    await page.goto(`/agents?id=${id}`);
    await page.reload();
    await drawer(page).getByRole('heading', { name: AGENT }).waitFor();
    expect(await drawer(page).getByLabel('Property 1 value').inputValue()).toBe('berlin-2');

    await drawer(page).getByRole('button', { name: 'Delete' }).click();
    const cleanup = page.getByRole('alertdialog', { name: 'Would you like to delete resources created by agent?' });
    await cleanup.waitFor();
    await shoot(page, 'agents-delete-cleanup-question');
    await cleanup.getByRole('button', { name: 'Yes' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to delete agent?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Agent deleted');
    await waitForUrl(page, (u) => !u.searchParams.has('id'));
    await table(page).getByText('No data available').waitFor();
    expect(pathOf(page)).toBe('/agents');

    const deleted = await stored(AGENT);
    expect(deleted?.deleted_at).not.toBeNull();
    expect(deleted?.cleanup).toBe(true);
    // Cleanup soft-deleted what the agent pushed.
    const checks = await agentChecks(id);
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.every((c) => c.deleted_at !== null)).toBe(true);
    const ping = await fetch(`${app.url}/api/upstream/ping`, {
      headers: { authorization: `Basic ${Buffer.from(`token:${tokens.get(AGENT)}`).toString('base64')}` },
    });
    expect(ping.status).toBe(401);
  });
});
