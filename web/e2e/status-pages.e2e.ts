// Status pages against a real server and a real HTTP target on loopback: an admin creates a page in
// Settings → Status Pages (the form), opens it signed out on a phone-sized viewport (390x844), the
// check fails (Run Now while the target answers 500) and the failure shows — by the page's own
// 60-second refresh (the browser clock moved on) and after a reload — and recovers. The scheduler is
// off and pages are computed per request (STATUS_PAGE_CACHE_MS=0).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expect, expectToast, SCREENS_DIR, useConsole } from './harness.js';
import { applyCanary, canaryYaml, startTarget, type HttpTarget } from './healthSeed.js';

const app = useConsole({ config: () => ({ engines: false, statusPageCacheMs: 0 }) });
let target: HttpTarget;
let checkId = '';

beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => {
  await target?.close();
});

const SLOW = { timeout: 20_000 };

async function runCheck(admin: Page) {
  const res = await admin.request.post(`/api/canary/run/check/${checkId}`, { headers: { origin: app.url } });
  expect(res.status()).toBe(200);
}

const entryState = (page: Page, name: string) =>
  page.locator('li', { has: page.locator('.name', { hasText: name }) }).locator('.st');

describe('status pages', () => {
  it('creates a page in settings and shows a failure to a signed-out phone after a refresh', async () => {
    const admin = await app.adminPage();
    const ids = await applyCanary(
      admin,
      app.url,
      canaryYaml({ name: 'e2e-shop', http: { 'e2e-storefront': '/' }, targetUrl: target.url }),
    );
    checkId = ids['e2e-storefront']!;
    target.status = 200;
    await runCheck(admin);

    await admin.goto('/settings/status-pages');
    await admin.getByText('No status pages yet').waitFor();
    await admin.getByRole('button', { name: 'Add Status Page' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Address').fill('Shop Page');
    await dialog.getByLabel('Title', { exact: true }).fill('Shop status');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // The address must be usable in a URL: refused in the form, nothing sent.
    await dialog.getByText('Use 1-63 lower-case letters, digits and "-"').waitFor();
    await dialog.getByLabel('Address').fill('shop');
    await dialog.getByLabel('Description').fill('Our storefront, live');
    await dialog.getByLabel('Section', { exact: true }).fill('Website');
    await dialog.getByLabel('Checks', { exact: true }).fill('e2e-storefront');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(admin, 'shop created successfully');
    const link = admin.getByRole('link', { name: /\/status\/shop/ });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('/status/shop');

    // Signed out, on a phone.
    const phone = await app.newPage({ viewport: { width: 390, height: 844 } });
    await phone.clock.install();
    await phone.goto('/status/shop');
    await phone.getByRole('heading', { name: 'Shop status' }).waitFor();
    await expect.poll(() => phone.locator('#overall').textContent()).toBe('All systems operational');
    expect(await entryState(phone, 'e2e-storefront').textContent()).toBe('Operational');
    expect(await phone.getByText('Our storefront, live').isVisible()).toBe(true);
    // Nothing wider than the phone: no sideways scrolling.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await phone.locator('svg.bars').first().boundingBox()).toMatchObject({ height: 26 });
    fs.mkdirSync(SCREENS_DIR, { recursive: true });
    await phone.screenshot({ path: path.join(SCREENS_DIR, 'status-page-phone.png'), fullPage: true });

    // The check fails: the page's own refresh (every 60 s) picks it up without a reload.
    target.status = 500;
    await runCheck(admin);
    await phone.clock.fastForward('01:05');
    await expect.poll(() => phone.locator('#overall').textContent(), SLOW).toBe('Major outage');
    expect(await entryState(phone, 'e2e-storefront').textContent()).toBe('Down');
    await phone.screenshot({ path: path.join(SCREENS_DIR, 'status-page-phone-down.png'), fullPage: true });

    // And it recovers, seen after a reload.
    target.status = 200;
    await runCheck(admin);
    await phone.reload();
    await expect.poll(() => phone.locator('#overall').textContent(), SLOW).toBe('All systems operational');
    expect(await entryState(phone, 'e2e-storefront').textContent()).toBe('Operational');
  });

  it('keeps a private page for signed-in users', async () => {
    const admin = await app.adminPage();
    await admin.goto('/settings/status-pages');
    await admin.getByRole('cell', { name: 'Shop status' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByRole('switch', { name: /Private/ }).click();
    await dialog.getByRole('button', { name: 'Update' }).click();
    await expectToast(admin, 'shop updated successfully');
    await admin.getByLabel('Status pages').getByText('Private', { exact: true }).waitFor();

    const stranger = await app.newPage({ viewport: { width: 390, height: 844 } });
    await stranger.goto('/status/shop');
    await expect.poll(() => new URL(stranger.url()).pathname).toBe('/login');
    expect(new URL(stranger.url()).searchParams.get('return_to')).toBe('/status/shop');
    // The admin, signed in, reads it.
    await admin.goto('/status/shop');
    await admin.getByRole('heading', { name: 'Shop status' }).waitFor();
  });
});
