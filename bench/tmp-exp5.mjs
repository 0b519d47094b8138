import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (let i = 0; i < 4; i++) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto('data:text/html,<p>x</p>');
  console.log(await page.evaluate((i) => {
    const m = (fn) => { const t = performance.now(); fn(); return +(performance.now() - t).toFixed(1); };
    const opts = { month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit' };
    if (i % 2) return { toLocaleDate: m(() => new Date().toLocaleString(undefined, opts)), dtf: m(() => new Intl.DateTimeFormat(undefined, opts)), dtf2: m(() => new Intl.DateTimeFormat(undefined, { hour: 'numeric' })) };
    return { collate: m(() => 'a'.localeCompare('b')), numberFmt: m(() => new Intl.NumberFormat().format(1.5)), dtfEnUS: m(() => new Intl.DateTimeFormat('en-US', opts)), dtf: m(() => new Intl.DateTimeFormat(undefined, opts)), dtf2: m(() => new Intl.DateTimeFormat(undefined, { hour: 'numeric' })) };
  }, i));
  await ctx.close();
}
await browser.close();
