// Sign-in through an external OpenID Connect provider: a real oidc-provider on loopback, the full
// redirect flow (Opsdeck → provider login and consent → Opsdeck callback), people created on first
// sign-in with the viewer role.
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { CookieJar, startOidcProvider, type TestOidcProvider } from './helpers/oidc.js';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The hidden inputs and action of the first form on a page. */
function parseForm(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`no form on the page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]+)"/.exec(input[0])?.[1];
    if (name) fields[name] = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
  }
  return { action: form[1]!.replace(/&amp;/g, '&'), fields };
}

describe.each(databaseKinds())('OIDC sign-in on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let provider: TestOidcProvider;

  beforeAll(async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider(`${publicUrl}/api/auth/callback/oidc`, [
      { sub: 'alice-sub', email: 'alice.sso@example.test', name: 'Alice Sso' },
    ]);
    test = await openTestDatabase(kind);
    app = await startOpsdeck({
      database: test.db,
      port,
      host: '127.0.0.1',
      publicUrl,
      oidc: {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        name: 'Test SSO',
      },
    });
  });

  afterAll(async () => {
    await app?.close();
    await provider?.close();
    await test?.close();
  });

  /** Walks the redirects and fills the provider's login form; returns where the browser lands. */
  async function signInThroughProvider(jar: CookieJar, login: string): Promise<string> {
    const start = await fetch(`${app.url}/api/auth/sign-in/social`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ provider: 'oidc', callbackURL: '/topology' }),
    });
    expect(start.status).toBe(200);
    jar.store(app.url, start);
    let next: string = ((await start.json()) as { url: string }).url;
    expect(next.startsWith(provider.issuer)).toBe(true);
    let body: URLSearchParams | undefined;
    for (let step = 0; step < 20; step++) {
      const res = await fetch(next, {
        method: body ? 'POST' : 'GET',
        headers: { cookie: jar.header(next), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        body,
        redirect: 'manual',
      });
      jar.store(next, res);
      body = undefined;
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        next = new URL(location, next).toString();
        if (next.startsWith(app.url) && !next.includes('/api/auth/')) return next;
        continue;
      }
      expect(res.status, await res.clone().text()).toBe(200);
      const { action, fields } = parseForm(await res.text());
      if ('login' in fields || fields.prompt === 'login') Object.assign(fields, { login, password: 'any password' });
      body = new URLSearchParams(fields);
      next = new URL(action, next).toString();
    }
    throw new Error('the sign-in flow did not come back to Opsdeck');
  }

  it('advertises the provider on the sign-in page', async () => {
    expect(await (await fetch(`${app.url}/api/auth/config`)).json()).toMatchObject({
      oidc: { enabled: true, name: 'Test SSO' },
    });
  });

  it('signs a new person in through the provider, as a viewer, and the same person again later', async () => {
    const jar = new CookieJar();
    const landed = await signInThroughProvider(jar, 'alice-sub');
    expect(new URL(landed).pathname).toBe('/topology');
    const who = await fetch(`${app.url}/api/auth/whoami`, { headers: { cookie: jar.header(app.url) } });
    expect(who.status).toBe(200);
    expect(await who.json()).toMatchObject({
      person: { email: 'alice.sso@example.test', name: 'Alice Sso' },
      roles: ['viewer'],
    });

    const again = new CookieJar();
    await signInThroughProvider(again, 'alice-sub');
    const { rows } = await test.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM people WHERE email = 'alice.sso@example.test'`,
    );
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it('refuses a callback that did not start here (forged state)', async () => {
    const res = await fetch(`${app.url}/api/auth/callback/oidc?code=forged&state=forged`, { redirect: 'manual' });
    expect(res.status).toBeLessThan(500);
    expect(
      (await fetch(`${app.url}/api/auth/whoami`, { headers: { cookie: res.headers.getSetCookie().join('; ') } }))
        .status,
    ).toBe(401);
  });
});
