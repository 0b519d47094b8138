// Test of a Git connection: `git ls-remote` of its URL, and its ref looked for among the refs listed.
// Credentials never reach argv or logs: the password comes through GIT_ASKPASS from the child's
// environment, an SSH key from a file only this process can read, both in a temp dir removed after.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { baseEnv, runProcess } from '../process.js';
import { sanitizeUrl } from '../resolve.js';
import { prop, required, TestFailure, type ConnectionTester } from './tester.js';

const ASKPASS = `#!/bin/sh
case "$1" in
  Username*) printf '%s\\n' "$OPSDECK_GIT_USERNAME" ;;
  *) printf '%s\\n' "$OPSDECK_GIT_PASSWORD" ;;
esac
`;

/** The URL without a password; the username stays (it is no secret) unless the connection gives one. */
function splitCredentials(raw: string, username: string | null): { url: string; user?: string; password?: string } {
  if (!/^https?:\/\//i.test(raw)) return { url: raw, user: username ?? undefined };
  const u = new URL(raw);
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  const user = username || (u.username ? decodeURIComponent(u.username) : undefined);
  u.password = '';
  u.username = user ? encodeURIComponent(user) : '';
  return { url: u.href, user, password };
}

export const gitTester: ConnectionTester = {
  types: ['git'],
  async test(conn, ctx) {
    const raw = required(conn.url, 'URL').trim();
    if (raw.startsWith('-')) throw new TestFailure(`URL must be a repository address (got "${raw}")`);
    const { url, user, password: urlPassword } = splitCredentials(raw, conn.username);
    const password = conn.password || urlPassword;
    const ref = prop(conn, 'ref');
    const shown = sanitizeUrl(url);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-git-test-'));
    try {
      const env: Record<string, string | undefined> = { GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
      if (password) {
        const askpass = path.join(dir, 'askpass.sh');
        await writeFile(askpass, ASKPASS, { mode: 0o700 });
        Object.assign(env, { GIT_ASKPASS: askpass, OPSDECK_GIT_USERNAME: user ?? '', OPSDECK_GIT_PASSWORD: password });
      }
      if (conn.certificate) {
        const key = path.join(dir, 'id_key');
        await writeFile(key, conn.certificate.endsWith('\n') ? conn.certificate : `${conn.certificate}\n`, {
          mode: 0o600,
        });
        await chmod(key, 0o600);
        const known = path.join(dir, 'known_hosts');
        env.GIT_SSH_COMMAND = `ssh -i '${key}' -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile='${known}'`;
      }
      if (conn.insecureTls) env.GIT_SSL_NO_VERIFY = '1';
      const r = await runProcess('git', ['ls-remote', '--', url], {
        env: baseEnv(env),
        cwd: dir,
        signal: ctx.signal,
        killGraceMs: 500,
      });
      if (r.spawnError) throw new TestFailure(`git could not be run on the server: ${r.spawnError.message}`);
      if (r.aborted) throw new TestFailure(`timed out after ${ctx.timeoutMs} ms waiting for ${shown}`);
      if (r.exitCode !== 0) {
        const fatal =
          r.stderr.split('\n').find((l) => /^(fatal|error|remote):/.test(l)) ?? r.stderr.trim().split('\n')[0];
        throw new TestFailure(
          `git ls-remote ${shown} failed: ${(fatal ?? `exit code ${r.exitCode}`).replace(/^fatal:\s*/, '')}`,
        );
      }
      const refs = r.stdout
        .split('\n')
        .map((l) => l.split('\t'))
        .filter((p): p is [string, string] => p.length === 2);
      if (!ref) return { details: `git ls-remote ${shown} listed ${refs.length} refs` };
      const found = refs.find(
        ([sha, name]) =>
          name === ref ||
          name === `refs/heads/${ref}` ||
          name === `refs/tags/${ref}` ||
          (ref.length >= 7 && sha.startsWith(ref)),
      );
      if (!found) {
        const heads = refs.filter(([, n]) => n.startsWith('refs/heads/')).map(([, n]) => n.slice(11));
        throw new TestFailure(
          `ref ${ref} was not found in ${shown} (branches: ${heads.slice(0, 10).join(', ') || 'none'})`,
        );
      }
      return { details: `git ls-remote ${shown}: ${found[1]} is at ${found[0].slice(0, 12)}` };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
