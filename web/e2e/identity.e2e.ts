// Identity pages and access rules against the real server: sign-in errors and return_to, an invite
// accepted on /registration, a viewer kept out of guarded pages and the Settings menu, user edit and
// delete, feature flags turning a sidebar item off, TOTP on and the second sign-in step, recovery
// and verification outcomes.
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { totpCode } from '../../server/test/helpers/totp.js';
import { expect, expectToast, useConsole, waitForUrl } from './harness.js';

const app = useConsole();

/** Invites a user through the Users page and returns the invite link shown in the dialog. */
async function inviteThroughUi(
  page: Page,
  user: { first: string; last: string; email: string; role: string },
): Promise<string> {
  await page.goto('/settings/users');
  await page.getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite User' });
  await dialog.getByLabel('First name').fill(user.first);
  await dialog.getByLabel('Last name').fill(user.last);
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Role').selectOption(user.role);
  await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
  const linkBox = page.getByTestId('invite-link');
  await linkBox.waitFor();
  await linkBox.getByRole('button', { name: 'Copy link' }).click();
  await expectToast(page, 'Link copied to clipboard');
  const link = (await linkBox.locator('pre').textContent())!.trim();
  await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(link);
  await page.getByRole('button', { name: 'Done' }).click();
  return link;
}

describe('sign-in', () => {
  it("shows the server's message for a wrong password", async () => {
    const page = await app.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill('admin@e2e.test');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toBe('Invalid email or password');
    expect(new URL(page.url()).pathname).toBe('/login');
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe('admin@e2e.test');
    expect((await page.request.get('/api/auth/whoami')).status()).toBe(401);
  });

  it('refuses a return_to on another origin and goes to / after signing in', async () => {
    const page = await app.newPage();
    await page.goto('/login?return_to=https%3A%2F%2Fevil.example%2Fsteal');
    await page.getByText('The return_to address is not allowed.').waitFor();
    await app.signIn(page);
    await waitForUrl(page, (u) => u.pathname === '/topology');
  });

  it('validates the invite form with the exact messages', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/users');
    await page.getByRole('button', { name: 'Invite User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite User' });
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    for (const text of [
      'Please provide valid first name',
      'Please provide valid last name',
      'Please provide valid email',
      'Please select any role',
    ]) {
      await dialog.getByText(text, { exact: true }).waitFor();
    }
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await dialog.getByText('Entered value does not match email format', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
  });
});

describe('a viewer', () => {
  it('accepts an invite, signs in, sees no Settings menu and is refused a guarded page', async () => {
    const admin = await app.adminPage();
    const link = await inviteThroughUi(admin, {
      first: 'Vera',
      last: 'Viewer',
      email: 'vera@example.com',
      role: 'viewer',
    });
    expect(link).toMatch(/\/registration\?invite=/);

    const page = await app.newPage();
    await page.goto(link);
    await expect.poll(() => page.getByTestId('invite-email').inputValue()).toBe('vera@example.com');
    await page.getByLabel('Password', { exact: true }).fill('viewer-password-1');
    await page.getByLabel('Confirm password').fill('viewer-password-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    const url = await waitForUrl(page, (u) => u.pathname === '/login');
    expect(url.searchParams.get('username')).toBe('vera@example.com');
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe('vera@example.com');
    await page.getByLabel('Password', { exact: true }).fill('viewer-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('sidebar').waitFor();

    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByRole('link', { name: 'Health' }).waitFor();
    await expect.poll(() => sidebar.getByRole('button', { name: 'Settings' }).count()).toBe(0);

    await page.goto('/settings/users');
    await page.getByText('Unauthorized', { exact: true }).waitFor();
    await page.getByText('You do not have permission to access this page', { exact: true }).waitFor();

    // Readable without write: no add button.
    await page.goto('/settings/feature-flags');
    await page.getByRole('table', { name: 'Feature flags' }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Add feature flag' }).count()).toBe(0);
  });
});

describe('users and feature flags', () => {
  it('edits and deletes a user with confirmation', async () => {
    const page = await app.adminPage();
    await inviteThroughUi(page, { first: 'Ed', last: 'Itor', email: 'ed@example.com', role: 'editor' });
    const row = page.getByRole('row').filter({ hasText: 'ed@example.com' });
    await row.getByRole('button', { name: /Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Edit User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await expect.poll(() => dialog.getByLabel('Role').inputValue()).toBe('editor');
    await dialog.getByLabel('Last name').fill('Itorial');
    await dialog.getByLabel('Role').selectOption('viewer');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Ed Itorial updated successfully');
    await row.getByText('viewer').waitFor();

    await row.getByRole('button', { name: /Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete User ?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'user deleted successfully');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'ed@example.com' }).count()).toBe(0);
  });

  it('adds, updates and removes a feature flag, turning a sidebar item off and on', async () => {
    const page = await app.adminPage();
    await page.goto('/settings/feature-flags');
    await page.getByRole('button', { name: 'Add feature flag' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add feature flag' });
    await dialog.getByLabel('Name').fill('logs.disable');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('please provide all details', { exact: true }).waitFor();
    await dialog.getByLabel('Value').fill('true');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Feature flag added successfully');
    const sidebar = page.getByTestId('sidebar');
    await expect.poll(() => sidebar.getByRole('link', { name: 'Logs', exact: true }).count()).toBe(0);
    await page.goto('/logs');
    await page.getByText('The logs feature is disabled').waitFor();

    await page.goto('/settings/feature-flags');
    await page.getByRole('cell', { name: 'logs.disable' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit feature flag' });
    await expect.poll(() => edit.getByLabel('Name').isDisabled()).toBe(true);
    await edit.getByLabel('Value').fill('false');
    await edit.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'Feature flag updated successfully');
    await expect.poll(() => sidebar.getByRole('link', { name: 'Logs', exact: true }).count()).toBe(1);

    await page.getByRole('cell', { name: 'logs.disable' }).click();
    await page.getByRole('dialog', { name: 'Edit feature flag' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Feature flag removed successfully');
    await expect.poll(() => page.getByRole('cell', { name: 'logs.disable' }).count()).toBe(0);
  });
});

describe('two-factor authentication', () => {
  it('turns TOTP on from the profile and asks for the code at the next sign-in', async () => {
    const admin = await app.adminPage();
    const link = await inviteThroughUi(admin, { first: 'Tom', last: 'Totp', email: 'tom@example.com', role: 'editor' });
    const token = new URL(link).searchParams.get('invite')!;
    const accepted = await admin.request.post('/api/auth/invite/accept', {
      data: { token, password: 'tom-password-1' },
      headers: { origin: app.url },
    });
    expect(accepted.status()).toBe(200);

    const page = await app.newPage();
    await app.signIn(page, 'tom@example.com', 'tom-password-1');
    await page.goto('/profile-settings');
    await page.getByRole('button', { name: 'Enable two-factor authentication' }).click();
    await page.getByLabel('Confirm with your password').fill('tom-password-1');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('totp-qr').waitFor();
    const secret = (await page.locator('pre').first().textContent())!.trim();
    const uri = `otpauth://totp/Opsdeck:tom@example.com?secret=${secret}`;
    await page.getByLabel('3. Enter the code the app shows').fill(totpCode(uri));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('Two-factor authentication is on.').waitFor();
    await page.getByText('Enabled', { exact: true }).waitFor();

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await waitForUrl(page, (u) => u.pathname === '/login');
    await page.getByLabel('Email').fill('tom@example.com');
    await page.getByLabel('Password', { exact: true }).fill('tom-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Two-factor authentication', { exact: true }).waitFor();
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByTestId('login-error').waitFor();
    await page.getByLabel('Authentication code').fill(totpCode(uri));
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitForUrl(page, (u) => u.pathname === '/profile-settings');
    await page.getByText('Enabled', { exact: true }).waitFor();
  });
});

describe('recovery and verification', () => {
  it('requests a reset link and says so for an expired link', async () => {
    const page = await app.newPage();
    await page.goto('/recovery');
    await page.getByLabel('Email').fill('admin@e2e.test');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByTestId('recovery-sent').waitFor();

    await page.goto('/recovery?token=not-a-real-token');
    await page.getByLabel('Password', { exact: true }).fill('new-password-1');
    await page.getByLabel('Confirm password').fill('new-password-1');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Your interaction expired, please fill out the form again.').waitFor();
    await page.getByRole('button', { name: 'Send reset link' }).waitFor();
  });

  it('shows the outcome of an email verification link', async () => {
    const page = await app.newPage();
    await page.goto('/verification?verified=true');
    await page.getByText('Your email address is verified.', { exact: false }).waitFor();
    await page.goto('/verification?error=INVALID_TOKEN');
    await page.getByText('Your interaction expired, please fill out the form again.').waitFor();
  });
});
