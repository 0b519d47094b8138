// Shared list behaviour on a seeded list (/settings/jobs): server-side paging with first, previous,
// next, last, 'Page X of Y', go-to-page and page size; sorting in the query string; the skeleton
// and 'No data available'; the tri-state status filter; the time range picker (relative and
// absolute) and the refresh-rate menu with its rules.
import type { Page } from 'playwright-core';
import { beforeAll, describe, it } from 'vitest';
import { expect, expectToast, useConsole, waitForUrl } from './harness.js';
import { seedJobHistory } from './seed.js';

const app = useConsole();
// 120 runs over the last 40 hours; 3 in 5 are not SUCCESS, so the default filter shows 72.
const SEEDED = 120;
const NOT_SUCCESS = 72;

const pageLabel = (page: Page) => page.getByTestId('page-label').textContent();
const bodyRows = (page: Page) => page.getByRole('table', { name: 'Job history' }).locator('tbody tr');
const params = (page: Page) => new URL(page.url()).searchParams;
const rangeText = (page: Page) => page.getByTestId('pagination-range').textContent();

beforeAll(async () => {
  await seedJobHistory(app.db, SEEDED, { hours: 40 });
});

describe('paged list', () => {
  it('pages on the server with first, previous, next, last, go-to-page and page size', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/jobs');
    await expect.poll(() => pageLabel(page)).toBe('Page 1 of 2');
    // The default filters are in the URL: the last 2 days, successful runs excluded.
    expect(params(page).get('range')).toBe('now-2d');
    await page.getByRole('button', { name: /Status: not Success/ }).waitFor();
    await expect.poll(() => rangeText(page)).toBe(`1–50 of ${NOT_SUCCESS}`);

    await page.getByLabel('Page size').selectOption('25');
    await expect.poll(() => pageLabel(page)).toBe('Page 1 of 3');
    expect(params(page).get('pageSize')).toBe('25');
    await expect.poll(() => bodyRows(page).count()).toBe(25);

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => pageLabel(page)).toBe('Page 2 of 3');
    expect(params(page).get('pageIndex')).toBe('1');
    await page.getByRole('button', { name: 'Last page' }).click();
    await expect.poll(() => pageLabel(page)).toBe('Page 3 of 3');
    await expect.poll(() => bodyRows(page).count()).toBe(NOT_SUCCESS - 50);
    await expect.poll(() => page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => pageLabel(page)).toBe('Page 2 of 3');
    await page.getByRole('button', { name: 'First page' }).click();
    await expect.poll(() => pageLabel(page)).toBe('Page 1 of 3');

    const goTo = page.getByLabel('Go to page');
    await expect.poll(() => goTo.getAttribute('min')).toBe('1');
    await goTo.fill('3');
    await goTo.press('Enter');
    await expect.poll(() => pageLabel(page)).toBe('Page 3 of 3');
    await goTo.fill('0');
    await goTo.press('Enter');
    await expect.poll(() => pageLabel(page)).toBe('Page 1 of 3');

    // The page survives a reload (state in the query string).
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => pageLabel(page)).toBe('Page 2 of 3');
    await page.reload();
    await expect.poll(() => pageLabel(page)).toBe('Page 2 of 3');
  });

  it('sorts by a column, kept in the query string', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/jobs?pageSize=25');
    await expect.poll(() => pageLabel(page)).toBe('Page 1 of 3');
    await page.getByRole('columnheader', { name: 'Duration' }).getByRole('button').click();
    await waitForUrl(page, (u) => u.searchParams.get('sortBy') === 'duration_millis');
    expect(params(page).get('sortOrder')).toBe('asc');
    await expect.poll(() => bodyRows(page).first().locator('td').nth(3).textContent()).toBe('474ms');
    await page.getByRole('columnheader', { name: 'Duration' }).getByRole('button').click();
    await waitForUrl(page, (u) => u.searchParams.get('sortOrder') === 'desc');
    await page.reload();
    await expect
      .poll(() => page.getByRole('columnheader', { name: 'Duration' }).getAttribute('aria-sort'))
      .toBe('descending');
  });

  it('shows a skeleton while loading and "No data available" when nothing matches', async () => {
    const page = await app.adminPage();
    await page.route('**/api/db/job_history?*', async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    await page.goto('/settings/jobs?status=RUNNING:1&duration=900000');
    await page.getByTestId('table-skeleton').first().waitFor();
    await page.getByText('No data available').waitFor();
    await page.unroute('**/api/db/job_history?*');
  });

  it('filters by status with include and exclude, kept in the query string', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/jobs?pageSize=100');
    await expect.poll(() => rangeText(page)).toBe(`1–${NOT_SUCCESS} of ${NOT_SUCCESS}`);
    await page.getByRole('button', { name: /^Status:/ }).click();
    await page.getByRole('listitem', { name: /^Failed/ }).click();
    await waitForUrl(page, (u) => u.searchParams.get('status') === 'SUCCESS:-1,FAILED:1');
    await expect.poll(() => rangeText(page)).toBe('1–24 of 24');
    const statuses = await bodyRows(page).locator('td:nth-child(3)').allTextContents();
    expect(new Set(statuses)).toEqual(new Set(['FAILED']));
    // Again: exclude.
    await page.getByRole('listitem', { name: /^Failed/ }).click();
    await waitForUrl(page, (u) => u.searchParams.get('status') === 'SUCCESS:-1,FAILED:-1');
    await expect.poll(() => rangeText(page)).toBe('1–48 of 48');
    await page.keyboard.press('Escape');
  });
});

describe('errors', () => {
  it('toasts network failures with the standard messages and spins the refresh button while loading', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/jobs');
    await expect.poll(() => pageLabel(page)).toBe('Page 1 of 2');

    await page.route('**/api/db/job_history?*', async (route) => {
      await new Promise((r) => setTimeout(r, 500));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.locator('[data-testid="refresh"] svg[data-loading]').waitFor();
    await page.locator('[data-testid="refresh"] svg[data-loading]').waitFor({ state: 'detached' });
    await page.unroute('**/api/db/job_history?*');

    await page.route('**/api/db/job_history?*', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expectToast(page, 'Network Error. Please try again.');
    await page.unroute('**/api/db/job_history?*');

    await app.context.setOffline(true);
    try {
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await expectToast(page, 'No internet connection. Please try again.');
    } finally {
      await app.context.setOffline(false);
    }
  });
});

describe('virtual mode', () => {
  it('renders one scrolling list and doubles the page size when the end is reached', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/jobs?status=');
    await page.getByRole('radio', { name: 'Scroll' }).click();
    await waitForUrl(page, (u) => u.searchParams.get('view') === 'scroll');
    const count = () => page.getByTestId('virtual-count').textContent();
    await expect.poll(count).toBe(`50 of ${SEEDED} loaded`);
    await expect.poll(() => page.getByTestId('pagination').count()).toBe(0);
    // Only the visible rows are in the DOM.
    expect(await bodyRows(page).count()).toBeLessThan(50);
    const scroller = page.getByTestId('virtual-scroll');
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(count).toBe(`100 of ${SEEDED} loaded`);
    expect(params(page).get('pageSize')).toBe('100');
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(count).toBe(`${SEEDED} of ${SEEDED} loaded`);
  });
});

describe('time range and refresh rate', () => {
  it('applies a relative preset and disables refresh rates by range length', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/jobs?pageSize=100');
    await page.getByTestId('time-range-picker').click();
    await page.getByRole('button', { name: 'Last 30 minutes' }).click();
    await waitForUrl(page, (u) => u.searchParams.get('range') === 'now-30m');
    expect(params(page).get('rangeType')).toBe('relative');
    expect(params(page).get('display')).toBe('Last 30 minutes');
    expect(params(page).get('timeRange')).toBe('30m');
    await expect.poll(() => page.getByTestId('time-range-picker').textContent()).toContain('Last 30 minutes');

    // Under 60 minutes every rate is allowed; pick 15s.
    await page.getByTestId('refresh-rate').click();
    await page.getByRole('menuitemradio', { name: '15s', exact: true }).click();
    await expect.poll(() => page.getByTestId('refresh-rate').textContent()).toBe('Every 15s');

    // 6 hours: 15s, 30s, 2m and 3m are disabled and the choice falls back to the next allowed one.
    await page.getByTestId('time-range-picker').click();
    await page.getByRole('button', { name: 'Last 6 hours' }).click();
    await waitForUrl(page, (u) => u.searchParams.get('range') === 'now-6h');
    await expect.poll(() => page.getByTestId('refresh-rate').textContent()).toBe('Every 60s');
    await page.getByTestId('refresh-rate').click();
    for (const rate of ['15s', '30s', '2m', '3m']) {
      await expect(
        page.getByRole('menuitemradio', { name: rate, exact: true }).getAttribute('aria-disabled'),
      ).resolves.toBe('true');
    }
    for (const rate of ['None', '60s', '5m', '10m', '15m']) {
      await expect(
        page.getByRole('menuitemradio', { name: rate, exact: true }).getAttribute('aria-disabled'),
      ).resolves.toBeNull();
    }
    await page.getByRole('menuitemradio', { name: '5m', exact: true }).click();
    await expect.poll(() => page.getByTestId('refresh-rate').textContent()).toBe('Every 5m');
    // Stored locally.
    await page.reload();
    await expect.poll(() => page.getByTestId('refresh-rate').textContent()).toBe('Every 5m');
    // The 6 hours hold the 4 most recent runs (one every 20 minutes, 3 in 5 not successful).
    await expect.poll(() => rangeText(page)).toMatch(/^1–\d+ of \d+$/);
    const shown = Number((await rangeText(page))!.split(' of ')[1]);
    expect(shown).toBeLessThan(NOT_SUCCESS);
    expect(shown).toBeGreaterThan(0);
  });

  it('applies an absolute range with Submit only when both dates are set, remembers it and clears', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/jobs?pageSize=100');
    await page.getByTestId('time-range-picker').click();
    const submit = page.getByRole('button', { name: 'Submit' });
    await expect.poll(() => submit.isDisabled()).toBe(true);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = (d: Date) =>
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:00`;
    const from = new Date(Date.now() - 10 * 3_600_000);
    const to = new Date(Date.now() - 5 * 3_600_000);
    await page.getByLabel('From', { exact: true }).fill(local(from));
    await expect.poll(() => submit.isDisabled()).toBe(true);
    await page.getByLabel('To', { exact: true }).fill(local(to));
    await expect.poll(() => submit.isDisabled()).toBe(false);
    await submit.click();
    await waitForUrl(page, (u) => u.searchParams.get('rangeType') === 'absolute');
    expect(params(page).get('display')).toBe('Custom');
    expect(
      Math.abs(new Date(params(page).get('from')!).getTime() - Math.floor(from.getTime() / 60_000) * 60_000),
    ).toBeLessThan(1000);
    await expect.poll(() => page.getByTestId('time-range-picker').textContent()).toContain(local(from).slice(0, 16));
    await expect.poll(() => rangeText(page)).toMatch(/ of \d+$/);

    // The calendar sets a day; the range shows up in the recent list.
    await page.getByTestId('time-range-picker').click();
    await page.getByTestId('recent-ranges').getByRole('button').first().waitFor();
    await expect.poll(() => page.getByTestId('recent-ranges').getByRole('button').count()).toBe(1);
    await page.getByRole('button', { name: 'From calendar' }).click();
    await page
      .getByRole('group', { name: 'From date' })
      .getByRole('button', { name: new Date().toDateString() })
      .click();
    await expect.poll(() => page.getByLabel('From', { exact: true }).inputValue()).toMatch(/ 00:00:00$/);

    // Clear removes every range parameter.
    await page.getByRole('button', { name: 'Clear' }).click();
    await waitForUrl(page, (u) => !u.searchParams.has('rangeType'));
    for (const key of ['rangeType', 'display', 'from', 'to', 'range', 'timeRange'])
      expect(params(page).has(key)).toBe(false);
    await expect.poll(() => page.getByTestId('time-range-picker').textContent()).toContain('Please select time range');
    await expect.poll(() => rangeText(page)).toBe(`1–${NOT_SUCCESS} of ${NOT_SUCCESS}`);
  });
});
