import { chromium } from 'playwright-core';
const origin = 'http://127.0.0.1:4101';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await browser.newContext({ baseURL: origin, viewport: { width: 1440, height: 900 } });
await ctx.request.post('/api/auth/sign-in/email', { data: { email: 'bench-admin@opsdeck.local', password: 'opsdeck-bench-password' }, headers: { origin } });
const page = await ctx.newPage();
await page.goto(process.argv[2] ?? '/health');
await page.waitForSelector('tbody tr');
await page.waitForTimeout(1000);
console.log(await page.evaluate(() => {
  const all = document.getElementsByTagName('*').length;
  const out = { all, nodes: document.createTreeWalker(document, NodeFilter.SHOW_ALL).nextNode() && (() => { let n = 0; const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL); while (w.nextNode()) n++; return n; })() };
  const regions = { sidebar: document.querySelector('aside, nav'), header: document.querySelector('header'), main: document.querySelector('main'), table: document.querySelector('table'), tbody: document.querySelector('tbody'), head: document.head };
  for (const [k, el] of Object.entries(regions)) out[k] = el ? el.getElementsByTagName('*').length : null;
  const tags = {};
  for (const el of document.body.getElementsByTagName('*')) tags[el.tagName] = (tags[el.tagName] ?? 0) + 1;
  out.tags = Object.entries(tags).sort((a, b) => b[1] - a[1]).slice(0, 14);
  out.rows = document.querySelectorAll('tbody tr').length;
  out.perRow = document.querySelector('tbody tr.cursor-pointer')?.getElementsByTagName('*').length;
  out.rowHTML = document.querySelector('tbody tr.cursor-pointer')?.outerHTML.length;
  // main children sizes
  const m = document.querySelector('main > div');
  out.mainParts = [...(m?.children ?? [])].map((c) => [c.tagName + '.' + (c.className || '').toString().slice(0, 40), c.getElementsByTagName('*').length]);
  return out;
}));
console.log(await page.evaluate(() => document.querySelector('tbody tr.cursor-pointer').outerHTML));
await browser.close();
