// Health-only mode (OPSDECK_MODE=health) in the console: '/' leads to /health, the sidebar has Health
// and the settings health needs (no Dashboard, Incidents, Catalog, Logs, Playbooks, nor their
// settings), and the other areas' addresses show "Page not found".
import { describe, it } from 'vitest';
import { expect, useConsole, waitForUrl } from './harness.js';
import { applyCanary, canaryYaml } from './healthSeed.js';

const app = useConsole({ config: () => ({ mode: 'health' }) });

describe('health-only mode', () => {
  it('shows only health and its settings in the sidebar', async () => {
    const page = await app.adminPage();
    await page.goto('/');
    await waitForUrl(page, (u) => u.pathname === '/health');
    await page.getByText('Filter by Health').waitFor();
    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.getByRole('link').allTextContents()).toEqual(['Health']);
    await sidebar.getByRole('button', { name: 'Settings' }).click();
    const entries = await sidebar.getByRole('group', { name: 'Settings' }).getByRole('link').allTextContents();
    expect(entries).toEqual(
      expect.arrayContaining(['Connections', 'Maintenance', 'Status Pages', 'Users', 'Feature Flags']),
    );
    for (const absent of ['Log Backends', 'Integrations', 'Topologies', 'Catalog Scrapers', 'Incident Rules'])
      expect(entries, absent).not.toContain(absent);
  });

  it('answers the other areas with not found', async () => {
    const page = await app.adminPage();
    for (const path of ['/catalog', '/topology', '/incidents', '/playbooks', '/logs', '/settings/logging_backends']) {
      await page.goto(path);
      await page.getByTestId('not-found').waitFor();
      await expect.poll(() => page.getByText('Page not found').count(), { message: path }).toBeGreaterThan(0);
    }
    await page.goto('/health');
    await page.getByText('Filter by Health').waitFor();
  });

  it('keeps the check drawer to health: no relationships, playbooks nor incidents, and no calls to those areas', async () => {
    const page = await app.adminPage();
    const absentCalls: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404 && new URL(r.url()).pathname.startsWith('/api/')) absentCalls.push(r.url());
    });
    const ids = await applyCanary(
      page,
      app.url,
      canaryYaml({ name: 'mode-drawer', http: { 'mode-home': '/' }, targetUrl: 'http://127.0.0.1:9' }),
    );
    await page.goto(`/health?checkId=${ids['mode-home']}`);
    const drawer = page.getByRole('dialog');
    await expect.poll(() => drawer.getByTestId('check-drawer-title').textContent()).toBe('mode-home');
    await drawer.getByRole('button', { name: 'Run Now' }).waitFor();
    await drawer.getByRole('tab', { name: 'Spec' }).waitFor();
    expect(await drawer.getByRole('tab', { name: /Relationships/ }).count()).toBe(0);
    expect(await drawer.getByRole('button', { name: 'Link to Incident' }).count()).toBe(0);
    expect(await drawer.getByRole('button', { name: /Playbooks/ }).count()).toBe(0);
    expect(absentCalls).toEqual([]);
  });
});
