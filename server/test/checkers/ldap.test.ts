// The ldap checker against a real LDAP server started in-process with the `ldapjs` server API (test-only
// dependency): simple bind, subtree search with real LDAP filters, over a loopback socket.
import ldap from 'ldapjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ldapChecker } from '../../src/health/checkers/ldap.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { closedPort } from './ports.js';

const ADMIN = 'cn=admin,dc=example,dc=com';
const PASSWORD = 's3cret';
const USERS = 'ou=users,dc=example,dc=com';
const ENTRIES = [
  {
    dn: `uid=alice,${USERS}`,
    attributes: {
      uid: 'alice',
      cn: 'Alice Doe',
      objectClass: ['top', 'person', 'inetOrgPerson'],
      mail: 'alice@example.com',
    },
  },
  {
    dn: `uid=bob,${USERS}`,
    attributes: { uid: 'bob', cn: 'Bob Roe', objectClass: ['top', 'person', 'inetOrgPerson'] },
  },
  {
    dn: `cn=admins,${USERS}`,
    attributes: { cn: 'admins', objectClass: ['top', 'groupOfNames'], member: `uid=alice,${USERS}` },
  },
];

// The server side of ldapjs is untyped in @types/ldapjs (handlers are `any[]`): the parts used here.
interface BindReq {
  dn: { toString(): string };
  credentials: string;
}
interface SearchReq {
  dn: { toString(): string };
  filter: { matches(attributes: Record<string, unknown>): boolean };
}
interface Res {
  send(entry: unknown): void;
  end(): void;
}
type Next = (err?: ldap.InvalidCredentialsError | ldap.NoSuchObjectError) => void;

let server: ldap.Server;
let url: string;

beforeAll(async () => {
  server = ldap.createServer();
  server.bind('dc=example,dc=com', (req: BindReq, res: Res, next: Next) => {
    if (req.dn.toString() !== ADMIN || req.credentials !== PASSWORD) return next(new ldap.InvalidCredentialsError());
    res.end();
    return next();
  });
  server.search('dc=example,dc=com', (req: SearchReq, res: Res, next: Next) => {
    const base = req.dn.toString();
    if (base !== USERS && base !== 'dc=example,dc=com') return next(new ldap.NoSuchObjectError(base));
    for (const e of ENTRIES) if (req.filter.matches(e.attributes)) res.send(e);
    res.end();
    return next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = server.url.replace('0.0.0.0', '127.0.0.1');
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function spec(fields: Record<string, unknown>) {
  return ldapChecker.schema.parse({ name: 'ldap', ...fields });
}

describe('ldap', () => {
  it('binds and finds users (canary-checker fields: username is the bind DN, bindDN the search base)', async () => {
    const r = await ldapChecker.run(
      spec({
        url,
        username: { value: ADMIN },
        password: { value: PASSWORD },
        bindDN: USERS,
        userSearch: '(&(objectClass=person))',
      }),
      testCheckContext(),
    );
    expect(r).toMatchObject({ pass: true, message: `2 entries under ${USERS} match (&(objectClass=person))` });
    const results = r.results as { count: number; entries: Record<string, unknown>[] };
    expect(results.count).toBe(2);
    expect(results.entries[0]).toMatchObject({ dn: `uid=alice,${USERS}`, uid: 'alice', mail: 'alice@example.com' });
  });

  it('uses objectClass when userSearch is absent, and binds as bindDN when no username is given', async () => {
    const r = await ldapChecker.run(
      spec({ url, bindDN: ADMIN, password: { value: PASSWORD }, objectClass: 'groupOfNames' }),
      testCheckContext(),
    );
    // Bound as the admin, searching under the admin entry: nothing there.
    expect(r).toMatchObject({ pass: false });
    const ctx = testCheckContext({ connections: { dir: { type: 'ldap', url, username: ADMIN, password: PASSWORD } } });
    const viaConnection = await ldapChecker.run(
      spec({ connection: 'connection://ldap/dir', bindDN: USERS, objectClass: 'groupOfNames' }),
      ctx,
    );
    expect(viaConnection).toMatchObject({
      pass: true,
      results: { count: 1, entries: [{ dn: `cn=admins,${USERS}` }] },
    });
  });

  it('fails when no entries match', async () => {
    const r = await ldapChecker.run(
      spec({ url, username: ADMIN, password: PASSWORD, bindDN: USERS, userSearch: '(uid=carol)' }),
      testCheckContext(),
    );
    expect(r).toMatchObject({
      pass: false,
      error: `no entries under ${USERS} match (uid=carol)`,
      results: { count: 0 },
    });
  });

  it('fails naming the bind DN when the password is wrong', async () => {
    const r = await ldapChecker.run(
      spec({ url, username: ADMIN, password: { value: 'wrong' }, bindDN: USERS }),
      testCheckContext(),
    );
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(
      new RegExp(`^bind as ${ADMIN} failed on 127\\.0\\.0\\.1:\\d+: invalid credentials \\(LDAP result 49\\)$`),
    );
  });

  it('fails for a search base that does not exist', async () => {
    const r = await ldapChecker.run(
      spec({ url, username: ADMIN, password: PASSWORD, bindDN: 'ou=nowhere,dc=example,dc=com' }),
      testCheckContext(),
    );
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(
      /^search under ou=nowhere,dc=example,dc=com for \(objectClass=\*\) failed: no such object \(LDAP result 32\)/,
    );
  });

  it('fails clearly when nothing listens; a bad url or missing bindDN is invalid', async () => {
    const port = await closedPort();
    const r = await ldapChecker.run(
      spec({ url: `ldap://127.0.0.1:${port}`, username: ADMIN, password: PASSWORD, bindDN: USERS }),
      testCheckContext(),
    );
    expect(r).toMatchObject({ pass: false, error: `connection refused: 127.0.0.1:${port}` });
    expect(await ldapChecker.run(spec({ url: 'http://dir:389', bindDN: USERS }), testCheckContext())).toMatchObject({
      invalid: true,
      error: 'url must be ldap://host:port or ldaps://host:port (got http://dir:389)',
    });
    expect(await ldapChecker.run(spec({ url }), testCheckContext())).toMatchObject({
      invalid: true,
      error: 'bindDN (the base DN to search under) is required',
    });
  });
});
