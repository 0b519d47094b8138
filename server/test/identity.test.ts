// Sign-in flows over real HTTP: passwords, rate limits, TOTP, invites and password recovery by real
// email (SMTP on loopback), verification, CSRF, tokens, deactivation and feature flags.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp.js';
import { totpCode } from './helpers/totp.js';

const ADMIN_EMAIL = 'root@example.test';
const ADMIN_PASSWORD = 'first admin password';

interface CallOptions {
  method?: string;
  body?: unknown;
  cookie?: string;
  headers?: Record<string, string>;
  origin?: string | null;
}

describe.each(databaseKinds())('identity on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let smtp: SmtpSink;
  let admin: TestUser;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    test = await openTestDatabase(kind);
    app = await startOpsdeck({
      database: test.db,
      port: 0,
      host: '127.0.0.1',
      smtpUrl: smtp.url,
      adminEmail: ADMIN_EMAIL,
      adminPassword: ADMIN_PASSWORD,
      signInRateLimit: 1000,
    });
    admin = await createTestUser(test.db, 'admin', 'Token Admin');
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
    await smtp?.close();
  });

  async function call(path: string, opts: CallOptions = {}) {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.cookie) headers.cookie = opts.cookie;
    // Browsers send Origin on state-changing requests; null leaves it out (a forged request).
    if (opts.origin !== null && (opts.method ?? 'GET') !== 'GET') headers.origin = opts.origin ?? app.url;
    const res = await fetch(`${app.url}${path}`, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      redirect: 'manual',
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .filter((c) => !c.endsWith('='))
      .join('; ');
    return { status: res.status, json: json as Record<string, unknown> & unknown[], cookie, headers: res.headers };
  }

  const signIn = (email: string, password: string) =>
    call('/api/auth/sign-in/email', { method: 'POST', body: { email, password } });

  async function invite(firstName: string, email: string, role = 'viewer') {
    const r = await call('/api/users/invite', {
      method: 'POST',
      headers: admin.headers,
      body: { firstName, lastName: 'Tester', email, role },
    });
    expect(r.status).toBe(201);
    return r.json as unknown as { id: string; link: string; emailed: boolean };
  }

  async function inviteAndAccept(firstName: string, email: string, password: string, role = 'viewer') {
    const inv = await invite(firstName, email, role);
    const token = new URL(inv.link).searchParams.get('invite')!;
    expect((await call('/api/auth/invite/accept', { method: 'POST', body: { token, password } })).status).toBe(200);
    return inv;
  }

  it('creates the first administrator from ADMIN_EMAIL and ADMIN_PASSWORD, once', async () => {
    expect(app.admin).toMatchObject({ created: true, email: ADMIN_EMAIL });
    expect(app.admin.generatedPassword).toBeUndefined();
    const r = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(r.status).toBe(200);
    const who = await call('/api/auth/whoami', { cookie: r.cookie });
    expect(who.json).toMatchObject({ person: { email: ADMIN_EMAIL }, roles: ['admin'] });
    const { bootstrapAdmin } = await import('../src/auth/bootstrap.js');
    expect(await bootstrapAdmin(app.ctx.config, app.ctx.db, () => app.ctx.identity.auth())).toEqual({ created: false });
  });

  it('refuses a wrong password with a message and answers 401 without a session', async () => {
    const r = await signIn(ADMIN_EMAIL, 'not the password');
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
    expect((await call('/api/auth/whoami')).status).toBe(401);
    expect((await call('/api/db/people')).json).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('refuses malformed sign-in input with 4xx, never 500', async () => {
    for (const body of [
      {},
      { email: 'not-an-email', password: 'x' },
      { email: '', password: '' },
      { email: ADMIN_EMAIL },
      'just a string',
    ]) {
      const r = await call('/api/auth/sign-in/email', { method: 'POST', body });
      expect(r.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(r.status, JSON.stringify(body)).toBeLessThan(500);
    }
  });

  it('refuses forged cross-site writes and tampered cookies', async () => {
    const { cookie } = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    const body = { name: 'csrf.test', value: 'x' };
    const forged = await call('/api/db/properties', { method: 'POST', cookie, body, origin: 'https://evil.example' });
    expect(forged).toMatchObject({ status: 403, json: { code: 'CSRF' } });
    expect((await call('/api/db/properties', { method: 'POST', cookie, body, origin: null })).status).toBe(403);
    expect((await call('/api/db/properties?name=eq.csrf.test', { cookie })).json).toEqual([]);
    // A token is not a cookie: no Origin needed.
    expect(
      (await call('/api/db/properties', { method: 'POST', headers: admin.headers, body, origin: null })).status,
    ).toBe(201);
    const tampered = cookie.replace(/=(.)/, (_, c: string) => `=${c === 'a' ? 'b' : 'a'}`);
    expect((await call('/api/auth/whoami', { cookie: tampered })).status).toBe(401);
    expect((await call('/api/auth/whoami', { cookie: 'opsdeck.session_token=garbage' })).status).toBe(401);
  });

  it('signs out', async () => {
    const { cookie } = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await call('/api/auth/whoami', { cookie })).status).toBe(200);
    expect((await call('/api/auth/sign-out', { method: 'POST', cookie, body: {} })).status).toBe(200);
    expect((await call('/api/auth/whoami', { cookie })).status).toBe(401);
  });

  it('invites a user by email, who chooses a password and signs in with the invited role', async () => {
    const inv = await invite('Ivy', 'ivy@example.test', 'editor');
    expect(inv.emailed).toBe(true);
    const mail = await smtp.waitFor('ivy@example.test', /invited/);
    expect(mail.links).toContain(inv.link);
    const token = new URL(inv.link).searchParams.get('invite')!;
    expect((await call(`/api/auth/invite?token=${token}`)).json).toEqual({
      email: 'ivy@example.test',
      name: 'Ivy Tester',
    });
    expect((await call('/api/auth/invite/accept', { method: 'POST', body: { token, password: 'short' } })).status).toBe(
      400,
    );
    expect(
      (await call('/api/auth/invite/accept', { method: 'POST', body: { token, password: 'ivy password 1' } })).status,
    ).toBe(200);
    const reused = await call('/api/auth/invite/accept', {
      method: 'POST',
      body: { token, password: 'ivy password 2' },
    });
    expect(reused).toMatchObject({ status: 400, json: { code: 'INVITE_INVALID' } });
    const r = await signIn('ivy@example.test', 'ivy password 1');
    expect(r.status).toBe(200);
    expect((await call('/api/auth/whoami', { cookie: r.cookie })).json).toMatchObject({ roles: ['editor'] });
  });

  it('refuses expired and forged invites', async () => {
    const inv = await invite('Old', 'old@example.test');
    await test.db.query(`UPDATE auth_verifications SET expires_at = now() - interval '1 minute' WHERE value = $1`, [
      inv.id,
    ]);
    const token = new URL(inv.link).searchParams.get('invite')!;
    expect(
      (await call('/api/auth/invite/accept', { method: 'POST', body: { token, password: 'whatever 123' } })).json,
    ).toMatchObject({ code: 'INVITE_EXPIRED' });
    expect(
      (await call('/api/auth/invite/accept', { method: 'POST', body: { token: 'forged', password: 'whatever 123' } }))
        .json,
    ).toMatchObject({ code: 'INVITE_INVALID' });
    expect((await call('/api/auth/invite')).status).toBe(400);
  });

  it('validates invites with the messages of the form', async () => {
    const post = (body: unknown) => call('/api/users/invite', { method: 'POST', headers: admin.headers, body });
    const base = { firstName: 'A', lastName: 'B', email: 'ab@example.test', role: 'viewer' };
    expect((await post({ ...base, firstName: '' })).json).toEqual({
      error: 'Please provide valid first name',
      message: 'Please provide valid first name',
      code: 'VALIDATION',
      field: 'firstName',
    });
    expect((await post({ ...base, lastName: ' ' })).json).toMatchObject({ error: 'Please provide valid last name' });
    expect((await post({ ...base, email: 'nope' })).json).toMatchObject({
      error: 'Entered value does not match email format',
    });
    expect((await post({ ...base, role: 'root' })).json).toMatchObject({ error: 'Please select any role' });
    expect(
      (
        await call('/api/users/invite', {
          method: 'POST',
          headers: { ...admin.headers, 'content-type': 'application/json' },
          body: undefined,
        })
      ).status,
    ).toBe(400);
    await post(base);
    expect((await post(base)).json).toMatchObject({ code: 'EMAIL_TAKEN' });
  });

  it('recovers a password through an emailed link that works once', async () => {
    await inviteAndAccept('Rita', 'rita@example.test', 'rita password 1');
    const asked = await call('/api/auth/request-password-reset', {
      method: 'POST',
      body: { email: 'rita@example.test', redirectTo: '/recovery' },
    });
    expect(asked.status).toBe(200);
    // Unknown addresses get the same answer (no account enumeration).
    expect(
      (
        await call('/api/auth/request-password-reset', {
          method: 'POST',
          body: { email: 'nobody@example.test', redirectTo: '/recovery' },
        })
      ).status,
    ).toBe(200);
    const mail = await smtp.waitFor('rita@example.test', /Reset/);
    const link = mail.links.find((l) => l.includes('/reset-password/'))!;
    // The emailed link checks the token and sends the browser to /recovery?token=...
    const landing = await call(new URL(link).pathname + new URL(link).search);
    expect(landing.status).toBe(302);
    const token = new URL(landing.headers.get('location')!, app.url).searchParams.get('token')!;
    expect(new URL(landing.headers.get('location')!, app.url).pathname).toBe('/recovery');
    expect(
      (
        await call('/api/auth/reset-password', {
          method: 'POST',
          body: { token: token + 'x', newPassword: 'rita password 2' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await call('/api/auth/reset-password', { method: 'POST', body: { token, newPassword: 'rita password 2' } }))
        .status,
    ).toBe(200);
    expect(
      (await call('/api/auth/reset-password', { method: 'POST', body: { token, newPassword: 'rita password 3' } }))
        .status,
    ).toBe(400);
    expect((await signIn('rita@example.test', 'rita password 1')).status).toBe(401);
    expect((await signIn('rita@example.test', 'rita password 2')).status).toBe(200);
  });

  it('verifies an email address through an emailed link', async () => {
    await test.db.query(`INSERT INTO people (name, email, email_verified) VALUES ('Vera', 'vera@example.test', false)`);
    const sent = await call('/api/auth/send-verification-email', {
      method: 'POST',
      body: { email: 'vera@example.test', callbackURL: '/verification?verified=true' },
    });
    expect(sent.status).toBe(200);
    const mail = await smtp.waitFor('vera@example.test', /Verify/);
    const link = new URL(mail.links.find((l) => l.includes('verify-email'))!);
    const tampered = await call(`${link.pathname}?token=tampered&callbackURL=/verification`);
    expect(tampered.status).toBe(302);
    expect(tampered.headers.get('location')).toContain('error=');
    const ok = await call(link.pathname + link.search);
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/verification?verified=true');
    const { rows } = await test.db.query<{ email_verified: boolean }>(
      `SELECT email_verified FROM people WHERE email = 'vera@example.test'`,
    );
    expect(rows[0]!.email_verified).toBe(true);
  });

  it('asks for a TOTP code after the password once the second factor is on', async () => {
    const password = 'tom password 1';
    await inviteAndAccept('Tom', 'tom@example.test', password);
    const first = await signIn('tom@example.test', password);
    const enabled = await call('/api/auth/two-factor/enable', {
      method: 'POST',
      cookie: first.cookie,
      body: { password },
    });
    expect(enabled.status).toBe(200);
    const uri = (enabled.json as unknown as { totpURI: string }).totpURI;
    expect(uri).toMatch(/^otpauth:\/\/totp\/Opsdeck/);
    const confirm = await call('/api/auth/two-factor/verify-totp', {
      method: 'POST',
      cookie: first.cookie,
      body: { code: totpCode(uri) },
    });
    expect(confirm.status).toBe(200);
    // Turning the second factor on renews the session.
    expect((await call('/api/auth/whoami', { cookie: confirm.cookie || first.cookie })).json).toMatchObject({
      twoFactorEnabled: true,
    });

    const second = await signIn('tom@example.test', password);
    expect(second.json).toMatchObject({ twoFactorRedirect: true });
    // Half signed in: no API answers yet.
    expect((await call('/api/auth/whoami', { cookie: second.cookie })).status).toBe(401);
    expect((await call('/api/db/people', { cookie: second.cookie })).status).toBe(401);
    const wrong = await call('/api/auth/two-factor/verify-totp', {
      method: 'POST',
      cookie: second.cookie,
      body: { code: '000000' },
    });
    expect(wrong.status).toBe(401);
    const right = await call('/api/auth/two-factor/verify-totp', {
      method: 'POST',
      cookie: second.cookie,
      body: { code: totpCode(uri) },
    });
    expect(right.status).toBe(200);
    expect((await call('/api/auth/whoami', { cookie: right.cookie })).json).toMatchObject({
      person: { email: 'tom@example.test' },
    });
  });

  it('accepts access tokens as Bearer and Basic, shows them once, and refuses expired or deleted ones', async () => {
    const created = await call('/api/tokens', { method: 'POST', headers: admin.headers, body: { name: 'ci script' } });
    expect(created.status).toBe(201);
    const { id, token } = created.json as unknown as { id: string; token: string };
    const listed = await call('/api/tokens', { headers: admin.headers });
    expect(JSON.stringify(listed.json)).not.toContain(token);
    expect((listed.json as unknown as { id: string }[]).some((t) => t.id === id)).toBe(true);
    const { rows } = await test.db.query<{ value: string }>('SELECT value FROM access_tokens WHERE id = $1', [id]);
    expect(rows[0]!.value).not.toBe(token);
    expect((await call('/api/auth/whoami', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const basic = `Basic ${Buffer.from(`token:${token}`).toString('base64')}`;
    expect((await call('/api/auth/whoami', { headers: { authorization: basic } })).status).toBe(200);
    const wrongUser = `Basic ${Buffer.from(`admin:${token}`).toString('base64')}`;
    expect((await call('/api/auth/whoami', { headers: { authorization: wrongUser } })).status).toBe(401);
    await test.db.query(`UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect((await call('/api/auth/whoami', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await call(`/api/tokens/${id}`, { method: 'DELETE', headers: admin.headers })).status).toBe(204);
    expect((await call('/api/tokens', { method: 'POST', headers: admin.headers, body: { name: '' } })).status).toBe(
      400,
    );
    expect(
      (
        await call('/api/tokens', {
          method: 'POST',
          headers: admin.headers,
          body: { name: 'x', expiresAt: '2001-01-01' },
        })
      ).status,
    ).toBe(400);
  });

  it('deactivates and deletes users, keeping the last administrator', async () => {
    const inv = await inviteAndAccept('Dora', 'dora@example.test', 'dora password 1');
    const session = await signIn('dora@example.test', 'dora password 1');
    expect(
      (await call(`/api/users/${inv.id}`, { method: 'PATCH', headers: admin.headers, body: { state: 'inactive' } }))
        .status,
    ).toBe(200);
    expect((await call('/api/auth/whoami', { cookie: session.cookie })).status).toBe(401);
    expect((await signIn('dora@example.test', 'dora password 1')).status).toBe(403);
    expect((await call(`/api/users/${inv.id}`, { method: 'DELETE', headers: admin.headers })).status).toBe(204);
    const users = await call('/api/users?limit=1000', { headers: admin.headers });
    expect((users.json as unknown as { data: { email: string }[] }).data.map((u) => u.email)).not.toContain(
      'dora@example.test',
    );
    expect(
      (await call(`/api/users/00000000-0000-4000-8000-000000000000`, { method: 'DELETE', headers: admin.headers }))
        .status,
    ).toBe(404);

    // Only admin left: the bootstrap admin and the token admin; removing both must stop at the last.
    const { rows } = await test.db.query<{ id: string }>(
      `SELECT person_id AS id FROM person_roles WHERE role = 'admin'`,
    );
    const others = rows.filter((r) => r.id !== admin.id);
    for (const r of others)
      await call(`/api/users/${r.id}`, { method: 'PATCH', headers: admin.headers, body: { role: 'viewer' } });
    const last = await call(`/api/users/${admin.id}`, { method: 'DELETE', headers: admin.headers });
    expect(last).toMatchObject({ status: 409, json: { code: 'LAST_ADMIN' } });
    for (const r of others)
      await call(`/api/users/${r.id}`, { method: 'PATCH', headers: admin.headers, body: { role: 'admin' } });
  });

  it('lists users with name, email, roles, state and creation time', async () => {
    const r = await call('/api/users?limit=2&offset=0', { headers: admin.headers });
    expect(r.status).toBe(200);
    const body = r.json as unknown as { data: Record<string, unknown>[]; total: number };
    expect(body.data).toHaveLength(2);
    expect(body.total).toBeGreaterThan(2);
    expect(Object.keys(body.data[0]!).sort()).toEqual([
      'created_at',
      'email',
      'id',
      'name',
      'roles',
      'state',
      'traits',
    ]);
    const byEmail = await call('/api/users?limit=1000&sortBy=email&sortOrder=desc', { headers: admin.headers });
    const emails = (byEmail.json as unknown as { data: { email: string }[] }).data.map((u) => u.email);
    expect(emails).toEqual([...emails].sort().reverse());
    expect((await call('/api/users?sortBy=password', { headers: admin.headers })).status).toBe(400);
  });

  it('turns features off on the server with {feature}.disable properties, parents included', async () => {
    const viewer = await createTestUser(test.db, 'viewer');
    expect((await call('/api/db/agents', { headers: viewer.headers })).status).toBe(200);
    await call('/api/db/properties', {
      method: 'POST',
      headers: admin.headers,
      body: { name: 'agents.disable', value: 'true' },
    });
    const refused = await call('/api/db/agents', { headers: viewer.headers });
    expect(refused).toMatchObject({
      status: 403,
      json: { code: 'FEATURE_DISABLED', message: 'The agents feature is disabled' },
    });
    expect((await call('/api/db/agents', { headers: admin.headers })).status).toBe(403);
    expect((await call('/api/auth/whoami', { headers: viewer.headers })).json).toMatchObject({
      disabledFeatures: ['agents'],
    });
    await call('/api/db/properties', {
      method: 'POST',
      headers: admin.headers,
      body: { name: 'health.disable', value: 'true' },
    });
    const who = await call('/api/auth/whoami', { headers: viewer.headers });
    expect((who.json as unknown as { disabledFeatures: string[] }).disabledFeatures).toEqual([
      'agents',
      'health',
      'settings.health',
      'settings.job_history',
    ]);
    await call('/api/db/properties?name=in.(agents.disable,health.disable)', {
      method: 'DELETE',
      headers: admin.headers,
    });
    expect((await call('/api/db/agents', { headers: viewer.headers })).status).toBe(200);
  });

  it('keeps registration closed unless opened, and gives new accounts the viewer role', async () => {
    const closed = await call('/api/auth/sign-up/email', {
      method: 'POST',
      body: { name: 'Eve', email: 'eve@example.test', password: 'eve password 1' },
    });
    expect(closed.status).toBeGreaterThanOrEqual(400);
    expect(closed.status).toBeLessThan(500);
    expect((await call('/api/auth/config')).json).toEqual({
      registration: false,
      oidc: { enabled: false, name: '' },
      smtp: true,
    });
  });

  it('downloads a kubeconfig that authenticates as the user', async () => {
    const { cookie } = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    const res = await fetch(`${app.url}/api/kubeconfig`, { headers: { cookie } });
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const yaml = await res.text();
    expect(yaml).toContain(`server: ${app.ctx.config.publicUrl}`);
    const token = /token: (\S+)/.exec(yaml)![1]!;
    expect((await call('/api/auth/whoami', { headers: { authorization: `Bearer ${token}` } })).json).toMatchObject({
      person: { email: ADMIN_EMAIL },
    });
  });
});

describe('sign-in rate limit', () => {
  it('answers 429 after too many attempts from one address', async () => {
    const test = await openTestDatabase('pglite');
    const app = await startOpsdeck({
      database: test.db,
      port: 0,
      host: '127.0.0.1',
      signInRateLimit: 3,
      adminEmail: 'a@example.test',
      adminPassword: 'a password 1',
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await fetch(`${app.url}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: app.url },
          body: JSON.stringify({ email: 'a@example.test', password: 'wrong' }),
        });
        statuses.push(r.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await app.close();
      await test.close();
    }
  });
});
