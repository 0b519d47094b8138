// The console shell against the real server: sign-in routing, every sidebar item, the collapsed
// sidebar kept across reloads, the user menu and the kubeconfig download, not-found and error pages,
// sign-out returning to the same path, and dark mode.
import fs from 'node:fs';
import { describe, it } from 'vitest';
import { ADMIN, expect, pathOf, useConsole, waitForUrl } from './harness.js';

const app = useConsole();

describe('console shell', () => {
  it('sends a signed-out visitor to /login with return_to, and back there after signing in', async () => {
    const page = await app.newPage();
    await page.goto('/settings/feature-flags?pageSize=25');
    const url = await waitForUrl(page, (u) => u.pathname === '/login');
    expect(url.searchParams.get('return_to')).toBe('/settings/feature-flags?pageSize=25');
    await app.signIn(page);
    await waitForUrl(page, (u) => u.pathname === '/settings/feature-flags');
    expect(pathOf(page)).toBe('/settings/feature-flags?pageSize=25');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Feature Flags');
  });

  it("asks for the session once, while a page's code loads rather than after it", async () => {
    const page = await app.newPage();
    await app.signIn(page);
    const events: string[] = [];
    page.on('request', (r) => r.url().includes('/api/auth/whoami') && events.push('whoami'));
    page.on('request', (r) => /\/assets\/HealthPage[-.]/.test(r.url()) && events.push('page code'));
    await page.goto('/health');
    await page.getByText('Filter by Health').waitFor();
    expect(events.filter((e) => e === 'whoami')).toHaveLength(1);
    expect(events).toContain('page code');
    expect(events.indexOf('whoami')).toBeLessThan(events.indexOf('page code'));
  });

  it('redirects / to /topology and navigates through every sidebar item', async () => {
    const page = await app.adminPage();
    await page.goto('/');
    await waitForUrl(page, (u) => u.pathname === '/topology');
    const sidebar = page.getByTestId('sidebar');
    const main = [
      ['Dashboard', '/topology', 'There are no components matching this criteria'],
      ['Health', '/health', 'Filter by Health'],
      ['Incidents', '/incidents', 'There are no incidents matching this criteria'],
      ['Catalog', '/catalog', 'Preferences'],
      ['Logs', '/logs', 'Please select a component to view the logs'],
      ['Playbooks', '/playbooks', 'There are no playbooks yet'],
    ] as const;
    for (const [label, path, text] of main) {
      await sidebar.getByRole('link', { name: label, exact: true }).click();
      await waitForUrl(page, (u) => u.pathname === path);
      await page.getByText(text).waitFor();
      await expect.poll(() => page.getByTestId('page-title').textContent()).toBe(label);
    }
    // The Settings group, its entries sorted by name.
    await sidebar.getByRole('button', { name: 'Settings' }).click();
    const entries = await sidebar.getByRole('group', { name: 'Settings' }).getByRole('link').allTextContents();
    expect(entries).toEqual([...entries].sort((a, b) => a.localeCompare(b)));
    expect(entries).toEqual(
      expect.arrayContaining([
        'Agents',
        'Connections',
        'Event Queue',
        'Feature Flags',
        'Integrations',
        'Jobs History',
        'Log Backends',
        'Teams',
        'Users',
      ]),
    );
    for (const [label, path] of [
      ['Users', '/settings/users'],
      ['Feature Flags', '/settings/feature-flags'],
      ['Jobs History', '/settings/jobs'],
      ['Teams', '/settings/teams'],
      ['Connections', '/settings/connections'],
    ] as const) {
      await sidebar.getByRole('link', { name: label, exact: true }).click();
      await waitForUrl(page, (u) => u.pathname === path);
      await page
        .getByTestId('page-title')
        .filter({ hasText: label === 'Jobs History' ? 'Job History' : label })
        .waitFor();
    }
  });

  it('keeps the sidebar collapsed across a reload and collapses it by itself under 1024 px', async () => {
    const page = await app.adminPage();
    await page.goto('/health');
    const sidebar = page.getByTestId('sidebar');
    await expect.poll(() => sidebar.getAttribute('data-collapsed')).toBe('false');
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect.poll(() => sidebar.getAttribute('data-collapsed')).toBe('true');
    await page.reload();
    await page.getByTestId('sidebar').waitFor();
    await expect.poll(() => page.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('true');
    // Collapsed, items are icons with their names for assistive technology.
    await page.getByTestId('sidebar').getByRole('link', { name: 'Incidents' }).click();
    await waitForUrl(page, (u) => u.pathname === '/incidents');
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect.poll(() => page.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('false');

    await page.setViewportSize({ width: 900, height: 800 });
    await expect.poll(() => page.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('true');
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(() => page.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('false');
  });

  it('shows the user menu with the versions and downloads a kubeconfig for this server', async () => {
    const page = await app.adminPage();
    await page.goto('/topology');
    await page.getByTestId('user-menu').click();
    await expect.poll(() => page.getByTestId('user-greeting').textContent()).toBe(`Hi ${ADMIN.name}`);
    const versions = await page.getByTestId('versions').textContent();
    expect(versions).toMatch(/Frontend\s*\d+\.\d+\.\d+/);
    expect(versions).toMatch(new RegExp(`Backend\\s*${app.server.ctx.version.replace(/\./g, '\\.')}`));
    await page.getByRole('menuitem', { name: 'Download kubeconfig' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download kubeconfig' });
    await dialog.waitFor();
    await dialog.getByText('kubectl --kubeconfig').waitFor();
    await dialog.getByRole('link', { name: /kubectl guide/ }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('opsdeck-kubeconfig.yaml');
    const file = fs.readFileSync((await download.path())!, 'utf8');
    expect(file).toContain('kind: Config');
    expect(file).toContain(`server: ${app.server.ctx.config.publicUrl}`);
    expect(file).toMatch(/token: \S+/);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
  });

  it('shows the not-found page and the error pages with their exact texts', async () => {
    const page = await app.adminPage();
    await page.goto('/no/such/page');
    await page.getByTestId('not-found').getByText('Page not found').waitFor();
    await page.getByRole('link', { name: 'Go back' }).click();
    await waitForUrl(page, (u) => u.pathname === '/topology');

    await page.goto('/bad-session?error_code=BAD_SESSION');
    await page
      .getByText(
        'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.',
        { exact: true },
      )
      .waitFor();
    await page.getByRole('link', { name: 'Go back' }).waitFor();
    await page.goto('/bad-session?error_code=SOMETHING');
    await page.getByText('Unknown error', { exact: true }).waitFor();

    await page.goto('/error?error=access_denied&error_description=The+user+refused');
    await page.getByText('An error occurred', { exact: true }).waitFor();
    await page.getByText('"error_description": "The user refused"').waitFor();

    // A page that fails to load shows the fallback inside the shell.
    await page.route(/FeatureFlagsPage-.*\.js$/, (route) => route.abort());
    await page.goto('/settings/feature-flags');
    await page.getByText('Sorry.. there was an error', { exact: true }).waitFor();
    await page.getByTestId('sidebar').waitFor();
    await page.unroute(/FeatureFlagsPage-.*\.js$/);
  });

  it('signs out to /login?return_to=<path> and returns there after signing in again', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/jobs?pageSize=25');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    const url = await waitForUrl(page, (u) => u.pathname === '/login');
    expect(url.searchParams.get('return_to')).toMatch(/^\/settings\/jobs\?pageSize=25/);
    // The session is gone on the server too.
    const whoami = await page.request.get('/api/auth/whoami');
    expect(whoami.status()).toBe(401);
    await app.signIn(page);
    await waitForUrl(page, (u) => u.pathname === '/settings/jobs');
    expect(new URL(page.url()).searchParams.get('pageSize')).toBe('25');
  });

  it('sends the browser to sign in when a call answers 401', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/users');
    await page.getByRole('table', { name: 'Users' }).waitFor();
    await app.context.clearCookies();
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const url = await waitForUrl(page, (u) => u.pathname === '/login');
    expect(url.searchParams.get('return_to')).toBe('/settings/users');
    await app.signIn(page);
    await waitForUrl(page, (u) => u.pathname === '/settings/users');
  });

  it('follows the system colour scheme and switches with the toggle', async () => {
    const page = await app.newPage({ colorScheme: 'dark' });
    await app.signIn(page);
    await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(true);
    await page.getByTestId('theme-toggle').click();
    await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(false);
    await page.reload();
    await page.getByTestId('sidebar').waitFor();
    await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(false);
  });
});
