// Screenshots of the main pages in light and dark mode, written to test-results/screens/ for a
// person to look at (layout, spacing, contrast). Each shot also checks the page rendered.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { SCREENS_DIR, useConsole } from './harness.js';
import { seedJobHistory } from './seed.js';

const app = useConsole();

async function shoot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.waitForTimeout(250); // let transitions settle
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

describe.each(['light', 'dark'] as const)('screens (%s)', (scheme) => {
  it(`captures the main pages in ${scheme} mode`, async () => {
    if (scheme === 'light') {
      await seedJobHistory(app.db, 140, { hours: 40 });
      await app.db.query(
        `INSERT INTO teams (name, icon, spec, source) VALUES ('platform', 'kubernetes', '{"notifications":[{"connection":"connection://slack/platform"}]}', 'UI'), ('payments-oncall', 'pagerduty', '{}', 'UI'), ('sre', null, '{}', 'kubernetes/default')`,
      );
      await app.db.query(
        `INSERT INTO properties (name, value) VALUES ('logs.disable', 'false'), ('incidents.disable', 'false')`,
      );
      await app.db.query(
        `INSERT INTO connections (name, namespace, type, url, username, source) VALUES
           ('orders-db', 'default', 'postgres', 'postgres://$(username):$(password)@db.internal:5432/orders', 'app', 'UI'),
           ('alerts', 'monitoring', 'slack', NULL, NULL, 'UI'),
           ('cluster-prom', 'monitoring', 'prometheus', 'http://prometheus.monitoring:9090', NULL, 'kubernetes/monitoring')`,
      );
    }
    const page = await app.newPage({ colorScheme: scheme });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shoot(page, `${scheme}-login`);
    await app.signIn(page);

    if (scheme === 'light') {
      for (const [first, last, email, role] of [
        ['Grace', 'Hopper', 'grace@example.com', 'editor'],
        ['Linus', 'Torvalds', 'linus@example.com', 'viewer'],
        ['Margaret', 'Hamilton', 'margaret@example.com', 'responder'],
      ]) {
        const r = await page.request.post('/api/users/invite', {
          data: { firstName: first, lastName: last, email, role },
          headers: { origin: app.url },
        });
        if (!r.ok()) throw new Error(`invite failed: ${r.status()} ${await r.text()}`);
      }
    }

    await page.goto('/topology');
    await page.getByText('There are no components matching this criteria').waitFor();
    await shoot(page, `${scheme}-topology`);

    await page.getByTestId('user-menu').click();
    await page.getByTestId('versions').waitFor();
    await shoot(page, `${scheme}-user-menu`);
    await page.getByRole('menuitem', { name: 'Download kubeconfig' }).click();
    await page.getByRole('dialog').waitFor();
    await shoot(page, `${scheme}-kubeconfig`);
    await page.keyboard.press('Escape');

    await page.goto('/settings/users');
    await page.getByRole('cell', { name: 'grace@example.com' }).waitFor();
    await shoot(page, `${scheme}-users`);
    await page.getByRole('button', { name: 'Invite User' }).click();
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText('Please select any role').waitFor();
    await shoot(page, `${scheme}-invite-user`);
    await page.keyboard.press('Escape');

    await page.goto('/settings/feature-flags');
    await page.getByRole('cell', { name: 'logs.disable' }).waitFor();
    await shoot(page, `${scheme}-feature-flags`);

    await page.goto('/settings/connections');
    await page.getByRole('cell', { name: 'orders-db', exact: true }).waitFor();
    await shoot(page, `${scheme}-connections`);
    await page.getByRole('button', { name: 'Add Connection' }).click();
    await page.getByRole('region', { name: 'Databases' }).waitFor();
    await shoot(page, `${scheme}-connection-types`);
    await page.getByRole('button', { name: 'Email (SMTP)' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Host is required').waitFor();
    await shoot(page, `${scheme}-connection-form`);
    await page.keyboard.press('Escape');

    await page.goto('/settings/jobs');
    await page.getByTestId('page-label').waitFor();
    await page.getByRole('cell').first().waitFor();
    await shoot(page, `${scheme}-jobs`);
    await page.getByTestId('time-range-picker').click();
    await page.getByRole('button', { name: 'Previous month' }).waitFor();
    await shoot(page, `${scheme}-time-range`);
    await page.keyboard.press('Escape');

    await page.goto('/settings/teams');
    await page.getByRole('cell', { name: 'platform', exact: true }).click();
    await page.getByRole('tab', { name: 'Form' }).waitFor();
    await page.locator('.cm-content').first().waitFor();
    await shoot(page, `${scheme}-team-form`);
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.locator('.cm-content').first().waitFor();
    await shoot(page, `${scheme}-team-code`);

    await page.goto('/settings/teams/new');
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.locator('.cm-content').first().click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText('name: sre\nspec:\n  notifications:\n    - url: 42\n  escalation: true\n');
    await page.getByTestId('document-problems').waitFor();
    await page.locator('.cm-lint-marker-error').first().waitFor();
    await shoot(page, `${scheme}-team-code-errors`);

    await page.goto('/profile-settings');
    await page.getByText('Two-factor authentication').first().waitFor();
    await shoot(page, `${scheme}-profile`);

    await page.goto('/no/such/page');
    await page.getByText('Page not found').waitFor();
    await shoot(page, `${scheme}-not-found`);
  });
});
