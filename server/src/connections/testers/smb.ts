// Test of an SMB (Windows/Samba) connection: signs in and lists the share root (or `path`) with Samba's
// `smbclient`, since npm has no maintained SMB2/3 client. The credentials go only into a 0600 auth
// file in a private temp dir removed afterwards — never argv, never logs; smbclient's NT_STATUS
// codes become sentences a person can act on.
import { lookup } from 'node:dns/promises';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { baseEnv, findOnPath, runProcess } from '../process.js';
import { prop, required, TestFailure, type ConnectionTester } from './tester.js';

export const SMBCLIENT_MISSING =
  'testing SMB connections needs the smbclient program (Debian package smbclient) on the server';

export interface SmbEntry {
  name: string;
  /** smbclient's attribute letters: D directory, A archive, H hidden, R read-only, N normal... */
  attributes: string;
  size: number;
}

/** The entries of smbclient's `ls` output, without `.` and `..`. */
function parseListing(stdout: string): SmbEntry[] {
  const entries: SmbEntry[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^ {2}(.+?)\s+([A-Z]*)\s+(\d+)\s+\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\s*$/.exec(line);
    if (!m || m[1] === '.' || m[1] === '..') continue;
    entries.push({ name: m[1]!, attributes: m[2]!, size: Number(m[3]) });
  }
  return entries;
}

interface Target {
  host: string;
  port: number;
  share: string;
  dir: string;
  domain: string;
  user: string;
  where: string;
}

/** The NT_STATUS code smbclient reported, and the line it was on. */
function statusOf(output: string): { code?: string; line: string } {
  const lines = output.split('\n').map((l) => l.trim());
  const line = lines.find((l) => /NT_STATUS_\w+/.test(l)) ?? lines.find((l) => l) ?? '';
  return { code: /NT_STATUS_\w+/.exec(line)?.[0], line };
}

/** smbclient's failure as a sentence (the code stays in brackets for whoever searches for it). */
async function explain(output: string, exitCode: number | null, t: Target): Promise<string> {
  const { code, line } = statusOf(output);
  const who = t.domain ? `${t.domain}\\${t.user}` : t.user;
  const folder = `folder "${t.dir}" in share "${t.share}" on ${t.host}`;
  const inCd = /^cd /.test(line);
  switch (code) {
    case 'NT_STATUS_LOGON_FAILURE':
      return `${t.where} refused the sign-in of ${who}: wrong username or password (${code})`;
    case 'NT_STATUS_BAD_NETWORK_NAME':
      return `no share "${t.share}" on ${t.host} (${code})`;
    case 'NT_STATUS_CONNECTION_REFUSED':
      return `connection refused: ${t.where}`;
    case 'NT_STATUS_IO_TIMEOUT':
      return `timed out connecting to ${t.where}`;
    case 'NT_STATUS_HOST_UNREACHABLE':
    case 'NT_STATUS_NETWORK_UNREACHABLE':
      return `host unreachable: ${t.where}`;
    case 'NT_STATUS_UNSUCCESSFUL':
      if (/do_connect|Connection to/.test(line)) {
        const found = await lookup(t.host).then(
          () => true,
          () => false,
        );
        return found ? `cannot connect to ${t.where} (${code})` : `host not found: ${t.host}`;
      }
      break;
    case 'NT_STATUS_CONNECTION_DISCONNECTED':
    case 'NT_STATUS_CONNECTION_RESET':
    case 'NT_STATUS_INVALID_NETWORK_RESPONSE':
      return `${t.where} closed the connection or did not answer like an SMB server (${code})`;
    case 'NT_STATUS_NOT_SUPPORTED':
      if (/negotiat/i.test(line)) return `${t.where} speaks no SMB version smbclient accepts (SMB1 only?) (${code})`;
      break;
    case 'NT_STATUS_ACCOUNT_DISABLED':
      return `the account ${who} is disabled (${code})`;
    case 'NT_STATUS_ACCOUNT_LOCKED_OUT':
      return `the account ${who} is locked out (${code})`;
    case 'NT_STATUS_PASSWORD_EXPIRED':
    case 'NT_STATUS_PASSWORD_MUST_CHANGE':
      return `the password of ${who} has expired and must be changed (${code})`;
    case 'NT_STATUS_ACCOUNT_RESTRICTION':
    case 'NT_STATUS_INVALID_LOGON_HOURS':
    case 'NT_STATUS_INVALID_WORKSTATION':
      return `${t.where} does not let ${who} sign in now or from here (${code})`;
    case 'NT_STATUS_ACCESS_DENIED':
      return inCd
        ? `${who} may not open ${folder} (${code})`
        : `${who} may not use share "${t.share}" on ${t.host} (${code})`;
    case 'NT_STATUS_OBJECT_NAME_NOT_FOUND':
    case 'NT_STATUS_OBJECT_PATH_NOT_FOUND':
    case 'NT_STATUS_NO_SUCH_FILE':
    case 'NT_STATUS_NOT_A_DIRECTORY':
      if (inCd) return `no ${folder} (${code})`;
      break;
  }
  return `smbclient failed on ${t.where}: ${line || `exit code ${exitCode}`}`;
}

/** `DOMAIN\user` or `DOMAIN/user` in the username wins over the domain field. */
function splitUser(username: string, domain: string): { user: string; domain: string } {
  const m = /^([^\\/]+)[\\/](.+)$/.exec(username);
  return m ? { domain: m[1]!, user: m[2]! } : { user: username, domain };
}

const hasControl = (s: string) => [...s].some((c) => c.charCodeAt(0) < 32);

/** Rejects what would change the meaning of smbclient's arguments. */
function checked(value: string, what: string): string {
  if (value.startsWith('-') || /[\s/\\]/.test(value) || hasControl(value))
    throw new TestFailure(`${what} must be a single name without spaces or slashes (got "${value}")`);
  return value;
}

export const smbTester: ConnectionTester = {
  types: ['smb'],
  async test(conn, ctx) {
    const host = checked(required(prop(conn, 'host'), 'Host').trim(), 'Host');
    const port = Number(prop(conn, 'port') || 445);
    // "share/sub/folder" in the share field is the share and a folder in it.
    const [shareName, ...rest] = required(prop(conn, 'share'), 'Share')
      .trim()
      .replace(/^[\\/]+/, '')
      .split(/[\\/]/);
    const share = checked(shareName ?? '', 'Share');
    const dir = [...rest, ...prop(conn, 'path').split(/[\\/]/)].filter(Boolean).join('/');
    const { user, domain } = splitUser(required(conn.username, 'Username'), prop(conn, 'domain').trim());
    const password = required(conn.password, 'Password');
    if (/[\r\n]/.test(password) || /[\r\n]/.test(user) || /[\r\n]/.test(domain))
      throw new TestFailure('the username, password or domain contains a line break, which smbclient cannot be given');
    if (hasControl(dir)) throw new TestFailure(`Path must be a folder name (got "${dir}")`);
    const where = `${host}:${port}`;
    const target: Target = { host, port, share, dir: dir || '/', domain, user, where };

    const smbclient = await findOnPath('smbclient', process.env.PATH);
    if (!smbclient) throw new TestFailure(SMBCLIENT_MISSING);
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-smb-test-'));
    try {
      const authFile = path.join(tmp, 'auth');
      const auth = [`username = ${user}`, `password = ${password}`, ...(domain ? [`domain = ${domain}`] : [])];
      await writeFile(authFile, `${auth.join('\n')}\n`, { mode: 0o600 });
      await chmod(authFile, 0o600);
      const seconds = Math.max(1, Math.ceil(ctx.timeoutMs / 1000));
      const args = [`//${host}/${share}`, '-p', String(port), ...(domain ? ['-W', domain] : [])];
      args.push('-A', authFile, '-t', String(seconds), ...(dir ? ['-D', dir] : []), '-c', 'ls');
      const r = await runProcess(smbclient, args, {
        env: baseEnv(),
        cwd: tmp,
        signal: ctx.signal,
        killGraceMs: 500,
      });
      if (r.spawnError) {
        if (r.spawnError.code === 'ENOENT') throw new TestFailure(SMBCLIENT_MISSING);
        throw new TestFailure(`smbclient could not be run on the server: ${r.spawnError.message}`);
      }
      if (r.aborted) throw new TestFailure(`timed out after ${ctx.timeoutMs} ms waiting for ${where}`);
      const output = `${r.stderr}\n${r.stdout}`;
      if (r.exitCode !== 0) throw new TestFailure(await explain(output, r.exitCode, target));
      const entries = parseListing(r.stdout);
      const names = entries.slice(0, 10).map((e) => (e.attributes.includes('D') ? `${e.name}/` : e.name));
      const more = entries.length > names.length ? `, and ${entries.length - names.length} more` : '';
      const shown = `//${host}/${share}${dir ? `/${dir}` : ''}`;
      const who = domain ? `${domain}\\${user}` : user;
      const count = `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`;
      return {
        details: `signed in to ${where} as ${who} and listed ${shown}: ${count}${names.length ? ` (${names.join(', ')}${more})` : ''}`,
      };
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  },
};
