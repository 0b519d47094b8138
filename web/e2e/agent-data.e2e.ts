// Agent data upstream (issue 17): rows pushed by an agent carry its agent_id; health, catalog and
// topology show the agent's name as a badge on them and filter by agent (All / local / each agent),
// the filter kept in the URL. The person behind an agent is not listed among the Users.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, it } from 'vitest';
import { expect, useConsole, waitForUrl } from './harness.js';
import { applyCanary, canaryYaml } from './healthSeed.js';

const app = useConsole({ config: () => ({ engines: false }) });

const AGENT = 'edge-paris';
let agentId = '';
let page: Page;

const agentFilter = (p: Page) => p.getByLabel('Agent', { exact: true });

/** The agent badge inside `scope` shows the agent's name. */
async function hasBadge(scope: Locator) {
  const badge = scope.getByTestId('agent-badge').first();
  await badge.waitFor();
  expect(await badge.textContent()).toBe(AGENT);
}

beforeAll(async () => {
  page = await app.adminPage();
  const res = await page.request.post('/api/agent/generate', { data: { name: AGENT }, headers: { origin: app.url } });
  expect(res.status()).toBe(201);
  agentId = ((await res.json()) as { id: string }).id;
});

describe('agent data', () => {
  it('health: a badge on the agent’s checks and an Agent filter in the URL', async () => {
    const target = 'http://127.0.0.1:9';
    await applyCanary(
      page,
      app.url,
      canaryYaml({ name: 'local-web', http: { 'local-check': '/' }, targetUrl: target }),
    );
    const edge = await applyCanary(
      page,
      app.url,
      canaryYaml({ name: 'edge-web', http: { 'edge-check': '/' }, targetUrl: target }),
    );
    await app.db.query(`UPDATE canaries SET agent_id = $1, updated_at = now() WHERE name = 'edge-web'`, [agentId]);
    await app.db.query('UPDATE checks SET agent_id = $1, updated_at = now() WHERE id = $2', [
      agentId,
      edge['edge-check'],
    ]);

    await page.goto('/health?timeRange=1h');
    const row = (name: string) => page.getByTestId('check-row').filter({ hasText: name });
    await hasBadge(row('edge-check'));
    await row('local-check').waitFor();
    expect(await row('local-check').getByTestId('agent-badge').count()).toBe(0);

    await agentFilter(page).selectOption({ label: AGENT });
    await waitForUrl(page, (u) => u.searchParams.get('agent') === agentId);
    await row('local-check').waitFor({ state: 'detached' });
    await row('edge-check').waitFor();

    await agentFilter(page).selectOption('local');
    await waitForUrl(page, (u) => u.searchParams.get('agent') === 'local');
    await row('edge-check').waitFor({ state: 'detached' });
    await row('local-check').waitFor();
  });

  it('catalog: a badge on the agent’s items (list and item page) and the Agent filter, server-side', async () => {
    const { rows } = await app.db.query<{ id: string; name: string }>(
      `INSERT INTO config_items (external_id, type, config_class, name, health, status, agent_id)
       VALUES ('e2e/local-db', 'E2E::Db', 'Database', 'local-db', 'healthy', 'Running', NULL),
              ('e2e/edge-db', 'E2E::Db', 'Database', 'edge-db', 'healthy', 'Running', $1)
       RETURNING id, name`,
      [agentId],
    );
    const edgeId = rows.find((r) => r.name === 'edge-db')!.id;

    await page.goto('/catalog?configType=E2E::Db');
    const row = (name: string) => page.getByRole('row').filter({ hasText: name });
    await hasBadge(row('edge-db'));
    expect(await row('local-db').getByTestId('agent-badge').count()).toBe(0);

    await agentFilter(page).selectOption({ label: AGENT });
    await waitForUrl(page, (u) => u.searchParams.get('agent') === agentId);
    await row('local-db').waitFor({ state: 'detached' });
    await row('edge-db').waitFor();
    await agentFilter(page).selectOption('local');
    await row('edge-db').waitFor({ state: 'detached' });
    await row('local-db').waitFor();

    // The grouped summary takes the same filter.
    const summary = async (agent: string) => {
      const res = await page.request.post('/api/catalog/summary', {
        data: { groupBy: ['type'], filter: { type: 'E2E::Db' }, agent },
        headers: { origin: app.url },
      });
      expect(res.status()).toBe(200);
      return ((await res.json()) as { groups: Array<{ count: number }> }).groups[0]?.count;
    };
    expect(await summary(agentId)).toBe(1);
    expect(await summary('local')).toBe(1);

    await page.goto(`/catalog/${edgeId}`);
    await hasBadge(page.getByTestId('config-detail'));
  });

  it('topology: a badge on the agent’s component cards and the Agent filter', async () => {
    await app.db.query(
      `INSERT INTO components (name, type, agent_id) VALUES ('local-svc', 'Service', DEFAULT), ('edge-svc', 'Service', $1)`,
      [agentId],
    );
    await page.goto('/topology');
    const card = (name: string) => page.getByTestId('topology-card').filter({ hasText: name });
    await hasBadge(card('edge-svc'));
    expect(await card('local-svc').getByTestId('agent-badge').count()).toBe(0);

    await agentFilter(page).selectOption({ label: AGENT });
    await waitForUrl(page, (u) => u.searchParams.get('agent_id') === agentId);
    await card('local-svc').waitFor({ state: 'detached' });
    await card('edge-svc').waitFor();
  });

  it('users: the agent’s person is not listed', async () => {
    const res = await page.request.get('/api/users?limit=1000');
    const users = ((await res.json()) as { data: Array<{ name: string }> }).data;
    expect(users.map((u) => u.name)).not.toContain(`agent-${AGENT}`);
    await page.goto('/settings/users');
    await page.getByRole('row').filter({ hasText: 'Administrator' }).waitFor();
    await page.getByText(`agent-${AGENT}`).waitFor({ state: 'detached' });
  });
});
