import { chromium } from 'playwright-core';
const origin = 'http://127.0.0.1:4101';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await browser.newContext({ baseURL: origin, viewport: { width: 1440, height: 900 } });
await ctx.request.post('/api/auth/sign-in/email', { data: { email: 'bench-admin@opsdeck.local', password: 'opsdeck-bench-password' }, headers: { origin } });
const page = await ctx.newPage();
await page.goto('/health');
await page.waitForSelector('tbody tr');
await page.waitForTimeout(1000);
const rows = page.locator('tbody tr.cursor-pointer');
await rows.nth(3).click();
await page.getByRole('dialog').waitFor();
console.log('root style open:', await page.evaluate(() => [document.querySelectorAll('div.fixed.inset-0').length, document.querySelectorAll('#root').length,document.getElementById('root').style.pointerEvents, document.body.style.pointerEvents]));
// press on the overlay closes
await page.mouse.click(10, 400);
await page.getByRole('dialog').waitFor({ state: 'detached' });
console.log('root style closed:', await page.evaluate(() => [document.getElementById('root').style.pointerEvents, document.body.style.pointerEvents]));
await browser.close();
