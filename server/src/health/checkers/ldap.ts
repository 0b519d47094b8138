// The `ldap` check (canary-checker): connects to `url` (ldap:// or ldaps://, or a connection) with
// `ldapts`, binds as `username` (falling back to `bindDN` when no username is given) with `password`,
// then searches the subtree under `bindDN` (canary-checker uses it as the search base) for `userSearch`
// (default `(objectClass=<objectClass or *>)`). Fails when nothing is found.
// Data: `results` {count (up to 1000), entries: [{dn, ...attributes}] (the first 100)}.
import { Client, type Entry } from 'ldapts';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { abortable, connectFailure } from '../../connections/errors.js';
import { commonFields, fail, guarded, invalid, plural } from './common.js';
import { connectionEndpoint, connectionFields, resolveTarget, sanitizeUrl } from '../../connections/resolve.js';

const schema = z.looseObject({
  ...commonFields,
  ...connectionFields,
  bindDN: z.string().optional(),
  userSearch: z.string().optional(),
  objectClass: z.string().optional(),
  skipTLSVerify: z.boolean().optional(),
});
export type LdapSpec = z.infer<typeof schema>;

const MAX_ENTRIES = 100;
/** Asked of the server so a broad search stays cheap; with a limit set, ldapts returns what came back. */
const SIZE_LIMIT = 1000;

/** An entry as plain JSON: single values unwrapped, binary values base64. */
function entryJson(e: Entry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    const values = (Array.isArray(v) ? v : [v]).map((x) => (Buffer.isBuffer(x) ? x.toString('base64') : x));
    out[k] = values.length === 1 ? values[0] : values;
  }
  return out;
}

/**
 * ldapts result-code errors are classes (InvalidCredentialsError, NoSuchObjectError, ...) whose message
 * is the server's diagnostic plus " Code: 0x31": render "invalid credentials (LDAP result 49): <diagnostic>".
 */
export function ldapMessage(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: number | string }).code;
  if (typeof code !== 'number') return e.message;
  const kind = e.constructor.name
    .replace(/Error$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const diagnostic = e.message.replace(/\s*Code: 0x[0-9a-f]+\s*$/i, '').trim();
  return `${kind || 'error'} (LDAP result ${code})${diagnostic ? `: ${diagnostic}` : ''}`;
}

async function run(spec: LdapSpec, ctx: CheckContext): Promise<CheckResult> {
  let where = connectionEndpoint(spec);
  return guarded(
    ctx,
    () => where,
    async () => {
      const target = await resolveTarget(spec, ctx);
      if (!target.url) return invalid('ldap check needs a url (ldap://host:389) or a connection');
      if (!/^ldaps?:\/\/[^/]/i.test(target.url))
        return invalid(`url must be ldap://host:port or ldaps://host:port (got ${sanitizeUrl(target.url)})`);
      if (!spec.bindDN) return invalid('bindDN (the base DN to search under) is required');
      const u = new URL(target.url);
      where = `${u.hostname}:${u.port || (u.protocol === 'ldaps:' ? 636 : 389)}`;
      const client = new Client({
        url: `${u.protocol}//${u.host}`,
        timeout: ctx.timeoutMs,
        connectTimeout: ctx.timeoutMs,
        // ldapts speaks TLS whenever tlsOptions is given, so only for ldaps://.
        ...(u.protocol === 'ldaps:'
          ? { tlsOptions: { rejectUnauthorized: !(spec.skipTLSVerify || target.insecureTls) } }
          : {}),
      });
      const bindAs = target.username || spec.bindDN;
      try {
        if (target.password !== undefined || target.username) {
          try {
            await abortable(ctx.signal, client.bind(bindAs, target.password ?? ''));
          } catch (e) {
            if (ctx.signal.aborted) throw e;
            const net = (e as { code?: unknown }).code;
            if (typeof net === 'string') return fail(connectFailure(e, where));
            return fail(`bind as ${bindAs} failed on ${where}: ${ldapMessage(e)}`);
          }
        }
        const filter = spec.userSearch?.trim() || `(objectClass=${spec.objectClass || '*'})`;
        let entries: Entry[];
        try {
          ({ searchEntries: entries } = await abortable(
            ctx.signal,
            client.search(spec.bindDN, { scope: 'sub', filter, sizeLimit: SIZE_LIMIT }),
          ));
        } catch (e) {
          if (ctx.signal.aborted) throw e;
          if (typeof (e as { code?: unknown }).code === 'string') return fail(connectFailure(e, where));
          return fail(`search under ${spec.bindDN} for ${filter} failed: ${ldapMessage(e)}`);
        }
        const data = {};
        const results = { count: entries.length, entries: entries.slice(0, MAX_ENTRIES).map(entryJson) };
        if (!entries.length) return fail(`no entries under ${spec.bindDN} match ${filter}`, data, { results });
        return {
          pass: true,
          message: `${plural(entries.length, 'entry', 'entries')} under ${spec.bindDN} match ${filter}`,
          data,
          results,
        };
      } finally {
        await client.unbind().catch(() => undefined);
      }
    },
  );
}

export const ldapChecker: Checker<LdapSpec> = {
  type: 'ldap',
  schema,
  endpoint: (spec) => connectionEndpoint(spec) || spec.name,
  run,
};

export default ldapChecker;
