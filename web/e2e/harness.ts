// The e2e harness: a real Opsdeck server started in-process on a fresh PGlite database (the
// built web console from web/dist, the first admin from options), and headless Chromium.
// useConsole() wires it into a test file; a failing test leaves a screenshot in test-results/e2e/.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startOpsdeck, type Opsdeck, type StartOptions } from '../../server/src/app.js';
import type { Database } from '../../server/src/db/database.js';
import { openTestDatabase, type TestDatabase } from '../../server/test/helpers/databases.js';

const root = path.resolve(import.meta.dirname, '../..');
export const WEB_DIR = process.env.E2E_WEB_DIR ? path.resolve(process.env.E2E_WEB_DIR) : path.join(root, 'web/dist');
export const FAILURE_DIR = path.join(root, 'test-results/e2e');
export const SCREENS_DIR = path.join(root, 'test-results/screens');

export const ADMIN = { email: 'admin@e2e.test', password: 'admin-password-1', name: 'Administrator' };

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface ConsoleUnderTest {
  url: string;
  server: Opsdeck;
  db: Database;
  browser: Browser;
  /** The page of the running test (screenshotted when it fails). */
  page: Page;
  context: BrowserContext;
  /** A fresh browser context (own cookies and storage) with one page, made the current page. */
  newPage(options?: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' }): Promise<Page>;
  /** Signs in through the real /login page and waits for the shell. */
  signIn(page: Page, email?: string, password?: string): Promise<void>;
  /** A page signed in as the admin, shared by the tests of a file (made the current page). */
  adminPage(): Promise<Page>;
}

export interface ConsoleOptions {
  /**
   * Extra server configuration for this file (SMTP, OIDC, a fixed port and public URL), computed in
   * the file's beforeAll, before the server starts: the place to start the services it points at.
   */
  config?: () => Partial<StartOptions> | Promise<Partial<StartOptions>>;
}

export function useConsole(options: ConsoleOptions = {}): ConsoleUnderTest {
  const app = {} as ConsoleUnderTest;
  let database: TestDatabase | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app.server = await startOpsdeck({
      port: 0,
      host: '127.0.0.1',
      database: database.db,
      webDir: WEB_DIR,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      // Every test signs in a few times; the production limit (10 a minute) would refuse it.
      signInRateLimit: 10_000,
      logLevel: 'warn',
      ...(await options.config?.()),
    });
    app.url = app.server.url;
    app.db = database.db;
    app.browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    app.newPage = async (options = {}) => {
      const context = await app.browser.newContext({
        baseURL: app.url,
        viewport: options.viewport ?? { width: 1440, height: 900 },
        colorScheme: options.colorScheme ?? 'light',
        acceptDownloads: true,
      });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
      context.setDefaultTimeout(10_000);
      contexts.push(context);
      app.context = context;
      app.page = await context.newPage();
      if (process.env.E2E_DEBUG) {
        app.page.on('console', (m) => console.log(`[browser ${m.type()}] ${m.text()}`));
        app.page.on('pageerror', (e) => console.log(`[browser error] ${e.message}`));
        app.page.on(
          'response',
          (r) => r.url().includes('/api/') && console.log(`[api] ${r.status()} ${r.request().method()} ${r.url()}`),
        );
      }
      return app.page;
    };
    app.signIn = async (page, email = ADMIN.email, password = ADMIN.password) => {
      if (!page.url().includes('/login')) await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByTestId('sidebar').waitFor();
    };
    let admin: { page: Page; context: BrowserContext } | undefined;
    app.adminPage = async () => {
      if (admin && !admin.page.isClosed()) {
        app.page = admin.page;
        app.context = admin.context;
        return admin.page;
      }
      const page = await app.newPage();
      await app.signIn(page);
      admin = { page, context: app.context };
      return page;
    };
  });

  beforeEach((ctx) => {
    ctx.onTestFailed(async () => {
      if (!app.page || app.page.isClosed()) return;
      fs.mkdirSync(FAILURE_DIR, { recursive: true });
      const name = `${ctx.task.file?.name ? path.basename(ctx.task.file.name, '.e2e.ts') : 'e2e'}--${ctx.task.name}`
        .replace(/[^a-z0-9-]+/gi, '_')
        .slice(0, 120);
      await app.page.screenshot({ path: path.join(FAILURE_DIR, `${name}.png`), fullPage: true }).catch(() => undefined);
    });
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await app.browser?.close().catch(() => undefined);
    await app.server?.close().catch(() => undefined);
    await database?.close().catch(() => undefined);
  });

  return app;
}

/** The current path and query of a page. */
export function pathOf(page: Page): string {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}`;
}

/** Waits until the page's URL satisfies a predicate on its URL object. */
export async function waitForUrl(page: Page, test: (url: URL) => boolean, timeout = 10_000): Promise<URL> {
  await page.waitForURL((u) => test(new URL(u.toString())), { timeout });
  return new URL(page.url());
}

/** A toast with this text is visible (within `timeoutMs`: longer for one that waits on a check's run). */
export async function expectToast(page: Page, text: string | RegExp, timeoutMs = 10_000): Promise<void> {
  await page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor({ timeout: timeoutMs });
}

export { expect };
