// A real OpenID Connect provider (oidc-provider) on loopback, with one client and a few accounts,
// using its built-in login and consent pages.
import Provider from 'oidc-provider';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OidcAccount {
  sub: string;
  email: string;
  name: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startOidcProvider(redirectUri: string, accounts: OidcAccount[]): Promise<TestOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'opsdeck-test';
  const clientSecret = 'opsdeck-test-secret';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The dev login form accepts any password for a known login; the account is looked up by login.
    async findAccount(_ctx, id) {
      const account = accounts.find((a) => a.sub === id || a.email === id);
      if (!account) return undefined;
      return {
        accountId: account.sub,
        claims: async () => ({ sub: account.sub, email: account.email, email_verified: true, name: account.name }),
      };
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => false },
    cookies: { keys: ['test-cookie-key'] },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A cookie jar per origin, enough to walk a redirect flow with fetch. */
export class CookieJar {
  private jars = new Map<string, Map<string, string>>();

  header(url: string): string {
    const jar = this.jars.get(new URL(url).host);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  store(url: string, res: Response) {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(c) || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    this.jars.set(host, jar);
  }
}
