// Identity flows that leave the console and come back, against real services on loopback: password
// recovery and email verification through links read from a real SMTP server (smtp-server), and
// sign-in through a real OpenID Connect provider (oidc-provider: its login form and consent page).
import net, { type AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, describe, it } from 'vitest';
import { createTestUser } from '../../server/test/helpers/auth.js';
import { startOidcProvider, type TestOidcProvider } from '../../server/test/helpers/oidc.js';
import { startSmtpSink, type SmtpSink } from '../../server/test/helpers/smtp.js';
import { expect, expectToast, useConsole, waitForUrl } from './harness.js';

const EXPIRED = 'Your interaction expired, please fill out the form again.';
const SSO_ACCOUNT = { sub: 'sam-sub', email: 'sam.sso@example.test', name: 'Sam Sso' };

let sink: SmtpSink;
let provider: TestOidcProvider;

/** A free loopback port, so the public URL (and the OIDC redirect URI) is known before the server starts. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

const app = useConsole({
  async config() {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    sink = await startSmtpSink();
    provider = await startOidcProvider(`${publicUrl}/api/auth/callback/oidc`, [SSO_ACCOUNT]);
    return {
      port,
      publicUrl,
      smtpUrl: sink.url,
      oidc: {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        name: 'Test SSO',
      },
    };
  },
});

afterAll(async () => {
  await provider?.close();
  await sink?.close();
});

/** A person with a password, made through the invite API (an admin token) and its acceptance. */
async function createPerson(name: { first: string; last: string }, email: string, password: string): Promise<void> {
  const admin = await createTestUser(app.db, 'admin');
  const invited = await fetch(`${app.url}/api/users/invite`, {
    method: 'POST',
    headers: { ...admin.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ firstName: name.first, lastName: name.last, email, role: 'editor' }),
  });
  expect(invited.status, await invited.clone().text()).toBe(201);
  const token = new URL(((await invited.json()) as { link: string }).link).searchParams.get('invite')!;
  const accepted = await fetch(`${app.url}/api/auth/invite/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify({ token, password }),
  });
  expect(accepted.status, await accepted.clone().text()).toBe(200);
}

async function fillCredentials(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('password recovery by email', () => {
  it('sends a link that lets the person choose a new password once', async () => {
    await createPerson({ first: 'Rita', last: 'Reset' }, 'rita@example.test', 'rita-password-1');
    const page = await app.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await waitForUrl(page, (u) => u.pathname === '/recovery');
    await page.getByLabel('Email').fill('rita@example.test');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByTestId('recovery-sent').waitFor();

    const mail = await sink.waitFor('rita@example.test', /Reset your Opsdeck password/);
    const link = mail.links.find((l) => new URL(l).pathname.startsWith('/api/auth/reset-password/'));
    expect(link, mail.raw).toBeDefined();
    expect(new URL(link!).origin).toBe(app.url);

    // The link checks the token on the server and lands on the page with it.
    await page.goto(link!);
    const landed = await waitForUrl(page, (u) => u.pathname === '/recovery' && u.searchParams.has('token'));
    expect(landed.searchParams.get('error')).toBeNull();
    await page.getByText('Choose a new password', { exact: true }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('rita-password-2');
    await page.getByLabel('Confirm password').fill('rita-password-2');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expectToast(page, 'Your password was reset. Sign in with the new password.');
    await waitForUrl(page, (u) => u.pathname === '/login');

    await fillCredentials(page, 'rita@example.test', 'rita-password-1');
    await expect.poll(() => page.getByTestId('login-error').textContent()).toBe('Invalid email or password');
    await app.signIn(page, 'rita@example.test', 'rita-password-2');

    // The same link a second time: the request form again, with the spec's message.
    const again = await app.newPage();
    await again.goto(link!);
    const reused = await waitForUrl(again, (u) => u.pathname === '/recovery' && u.searchParams.has('error'));
    expect(reused.searchParams.get('token')).toBeNull();
    await again.getByText(EXPIRED, { exact: true }).waitFor();
    await again.getByRole('button', { name: 'Send reset link' }).waitFor();
  });
});

describe('email verification', () => {
  it('verifies an address with the emailed link and refuses a tampered one', async () => {
    await app.db.query(
      `INSERT INTO people (name, email, email_verified) VALUES ('Val Verify', 'val@example.test', false)`,
    );
    const page = await app.newPage();
    await page.goto('/verification');
    await page.getByLabel('Email').fill('val@example.test');
    await page.getByRole('button', { name: 'Send a new verification link' }).click();
    await page.getByText('We sent a new verification link. Check your inbox.').waitFor();

    const mail = await sink.waitFor('val@example.test', /Verify your Opsdeck email address/);
    const link = mail.links.find((l) => new URL(l).pathname === '/api/auth/verify-email');
    expect(link, mail.raw).toBeDefined();
    expect(new URL(link!).origin).toBe(app.url);

    // One character of the token's signature changed.
    const tampered = new URL(link!);
    const token = tampered.searchParams.get('token')!;
    const at = token.length - 10;
    tampered.searchParams.set('token', `${token.slice(0, at)}${token[at] === 'a' ? 'b' : 'a'}${token.slice(at + 1)}`);
    await page.goto(tampered.toString());
    // The error is appended to the link's callback URL (?verified=true&error=…): the error wins.
    await waitForUrl(page, (u) => u.pathname === '/verification' && u.searchParams.has('error'));
    await page.getByText('Verification failed', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('verification-result').textContent()).toContain(EXPIRED);
    const before = await app.db.query<{ email_verified: boolean }>(
      `SELECT email_verified FROM people WHERE email = 'val@example.test'`,
    );
    expect(before.rows[0]!.email_verified).toBe(false);

    await page.goto(link!);
    await waitForUrl(page, (u) => u.pathname === '/verification' && u.searchParams.get('verified') === 'true');
    await page.getByText('Email verified', { exact: true }).waitFor();
    await page.getByText('Your email address is verified.', { exact: false }).waitFor();
    const after = await app.db.query<{ email_verified: boolean }>(
      `SELECT email_verified FROM people WHERE email = 'val@example.test'`,
    );
    expect(after.rows[0]!.email_verified).toBe(true);
  });
});

describe('single sign-on', () => {
  it('signs a new person in through the OpenID provider, as a viewer, back where they were going', async () => {
    const page = await app.newPage();
    // The provider's pages import a web font; nothing here may wait on the internet.
    await app.context.route(/fonts\.googleapis\.com/, (route) => route.abort());
    await page.goto('/login?return_to=%2Fhealth');
    await page.getByRole('button', { name: 'Sign in with Test SSO' }).click();

    await waitForUrl(page, (u) => u.origin === provider.issuer);
    await page.locator('input[name="login"]').fill(SSO_ACCOUNT.sub);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await waitForUrl(page, (u) => u.origin === app.url && u.pathname === '/health');
    const sidebar = page.getByTestId('sidebar');
    await sidebar.waitFor();
    await page.getByTestId('user-menu').click();
    await expect.poll(() => page.getByTestId('user-greeting').textContent()).toBe(`Hi ${SSO_ACCOUNT.name}`);
    await page.keyboard.press('Escape');
    await sidebar.getByRole('link', { name: 'Health' }).waitFor();
    await expect.poll(() => sidebar.getByRole('button', { name: 'Settings' }).count()).toBe(0);

    const whoami = await page.request.get('/api/auth/whoami');
    expect(await whoami.json()).toMatchObject({
      person: { email: SSO_ACCOUNT.email, name: SSO_ACCOUNT.name },
      roles: ['viewer'],
    });
  });
});
