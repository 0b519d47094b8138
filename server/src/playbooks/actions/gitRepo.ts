// The git command line for the gitops action: a working copy in a private temporary directory,
// cloned, branched, committed and pushed with `git` (connections/process.ts). Credentials never reach
// argv or logs: a password or token comes through GIT_ASKPASS from the child's environment, an SSH
// key from a file only this process can read; the user's and system's git config are not read.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { baseEnv, runProcess } from '../../connections/process.js';
import { sanitizeUrl } from '../../connections/resolve.js';

const ASKPASS = `#!/bin/sh
case "$1" in
  Username*) printf '%s\\n' "$OPSDECK_GIT_USERNAME" ;;
  *) printf '%s\\n' "$OPSDECK_GIT_PASSWORD" ;;
esac
`;

export interface GitCredentials {
  username?: string;
  password?: string;
  sshKey?: string;
  insecureTls?: boolean;
}

export class GitError extends Error {}

/** A URL's password moved out of it (into the credentials); a username stays unless one is given. */
export function splitUrlCredentials(raw: string, creds: GitCredentials): { url: string; creds: GitCredentials } {
  if (!/^https?:\/\//i.test(raw)) return { url: raw, creds };
  const u = new URL(raw);
  const password = creds.password || (u.password ? decodeURIComponent(u.password) : undefined);
  const username = creds.username || (u.username ? decodeURIComponent(u.username) : undefined);
  u.password = '';
  u.username = '';
  return { url: u.href, creds: { ...creds, username, password } };
}

export class GitWorkspace {
  /** The working copy. */
  readonly dir: string;
  /** What was done, one line per command, for the action's result (no secrets). */
  readonly log: string[] = [];
  private constructor(
    private readonly root: string,
    private readonly env: Record<string, string>,
    private readonly signal: AbortSignal,
    private readonly secrets: string[],
  ) {
    this.dir = path.join(root, 'repo');
  }

  static async create(creds: GitCredentials, signal: AbortSignal): Promise<GitWorkspace> {
    const root = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-gitops-'));
    const env: Record<string, string | undefined> = {
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: path.join(root, 'gitconfig'),
      HOME: root,
    };
    await writeFile(path.join(root, 'gitconfig'), '[init]\n\tdefaultBranch = main\n', { mode: 0o600 });
    if (creds.password) {
      const askpass = path.join(root, 'askpass.sh');
      await writeFile(askpass, ASKPASS, { mode: 0o700 });
      Object.assign(env, {
        GIT_ASKPASS: askpass,
        OPSDECK_GIT_USERNAME: creds.username ?? 'git',
        OPSDECK_GIT_PASSWORD: creds.password,
      });
    }
    if (creds.sshKey) {
      const key = path.join(root, 'id_key');
      await writeFile(key, creds.sshKey.endsWith('\n') ? creds.sshKey : `${creds.sshKey}\n`, { mode: 0o600 });
      const known = path.join(root, 'known_hosts');
      env.GIT_SSH_COMMAND = `ssh -i '${key}' -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile='${known}'`;
    }
    if (creds.insecureTls) env.GIT_SSL_NO_VERIFY = '1';
    const secrets = [creds.password, creds.sshKey].filter((s): s is string => !!s && s.length >= 3);
    return new GitWorkspace(root, baseEnv(env), signal, secrets);
  }

  private redact(text: string): string {
    return this.secrets.reduce((t, s) => t.replaceAll(s, '••••'), text);
  }

  /** Runs git; throws GitError with git's own complaint when it fails. */
  async git(args: string[], opts: { cwd?: string; env?: Record<string, string>; shown?: string } = {}) {
    const shown = opts.shown ?? `git ${args.join(' ')}`;
    const r = await runProcess('git', args, {
      env: { ...this.env, ...opts.env },
      cwd: opts.cwd ?? this.dir,
      signal: this.signal,
      killGraceMs: 500,
    });
    if (r.spawnError) throw new GitError(`git could not be run on the server: ${r.spawnError.message}`);
    if (r.aborted) throw new GitError(`${shown} was stopped`);
    this.log.push(this.redact(shown));
    if (r.exitCode !== 0) {
      const lines = r.stderr.split('\n').filter((l) => l.trim());
      const fatal = lines.find((l) => /^(fatal|error|remote):/.test(l)) ?? lines[lines.length - 1];
      throw new GitError(this.redact(`${shown} failed: ${fatal ?? `exit code ${r.exitCode}`}`));
    }
    return r.stdout.trim();
  }

  /** Clones `base` of `url`; a missing base branch is an error that names it. */
  async clone(url: string, base: string): Promise<void> {
    if (url.startsWith('-')) throw new GitError(`the repository URL must be an address (got "${url}")`);
    await this.git(['clone', '--quiet', '--no-tags', '--single-branch', '--branch', base, '--', url, this.dir], {
      cwd: this.root,
      shown: `git clone --branch ${base} ${sanitizeUrl(url)}`,
    });
  }

  /** Whether `branch` exists on origin. */
  async remoteHasBranch(branch: string): Promise<boolean> {
    const out = await this.git(['ls-remote', '--heads', 'origin', `refs/heads/${branch}`]);
    return out.length > 0;
  }

  /** Checks out `branch`: origin's when it exists there (unless `fresh`), else new from the base. */
  async checkoutBranch(branch: string, existsOnOrigin: boolean, fresh: boolean): Promise<void> {
    if (existsOnOrigin && !fresh) {
      await this.git(['fetch', '--quiet', 'origin', `refs/heads/${branch}:refs/remotes/origin/${branch}`]);
      await this.git(['checkout', '--quiet', '-B', branch, `origin/${branch}`]);
    } else {
      await this.git(['checkout', '--quiet', '-B', branch]);
    }
  }

  /** Stages everything; the paths changed (empty when nothing did). */
  async stageAll(): Promise<string[]> {
    await this.git(['add', '--all']);
    const out = await this.git(['diff', '--cached', '--name-only']);
    return out ? out.split('\n') : [];
  }

  async commit(message: string, author: { name: string; email: string }): Promise<string> {
    const file = path.join(this.root, 'COMMIT_MSG');
    await writeFile(file, message.endsWith('\n') ? message : `${message}\n`);
    const who = {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
    };
    await this.git(['commit', '--quiet', '--no-verify', '--file', file], { env: who, shown: 'git commit' });
    return this.git(['rev-parse', 'HEAD']);
  }

  async push(branch: string, force: boolean): Promise<void> {
    await this.git([
      'push',
      '--quiet',
      ...(force ? ['--force'] : []),
      'origin',
      `refs/heads/${branch}:refs/heads/${branch}`,
    ]);
  }

  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true }).catch(() => undefined);
  }
}
