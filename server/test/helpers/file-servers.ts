// Real file servers for the connection Test of SMB and SFTP: Samba's smbd and OpenSSH's sshd run as
// root in the foreground on free loopback ports, every file (config, keys, passdb, logs, pids) in a
// temp dir, with a throwaway system user that expires tomorrow and is deleted afterwards.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const SMBD = '/usr/sbin/smbd';
export const SSHD = '/usr/sbin/sshd';

/** Why these servers cannot run here (not root, a program missing), or undefined when they can. */
export function cannotRun(programs: Record<string, string>): string | undefined {
  if (process.getuid?.() !== 0) return 'they must run as root (smbd, sshd and useradd need it)';
  const missing = Object.entries(programs).filter(([, p]) => !onPath(p));
  if (missing.length)
    return `missing ${missing.map(([pkg, p]) => `${p} (Debian package ${pkg})`).join(', ')}; .ci/run installs them`;
  return undefined;
}

function onPath(program: string): boolean {
  if (program.startsWith('/')) return fs.existsSync(program);
  return (process.env.PATH ?? '').split(path.delimiter).some((d) => d && fs.existsSync(path.join(d, program)));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A system user for the test, no home and no shell, expiring tomorrow in case it is not deleted. */
export function createSystemUser(name: string, password: string): { remove(): void } {
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  execFileSync('useradd', ['--system', '-M', '-d', '/nonexistent', '-s', '/usr/sbin/nologin', '-e', tomorrow, name]);
  execFileSync('chpasswd', [], { input: `${name}:${password}\n` });
  return {
    remove() {
      try {
        execFileSync('userdel', [name], { stdio: 'ignore' });
      } catch {
        // already gone
      }
    },
  };
}

export interface Daemon {
  port: number;
  /** What it wrote so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

/** Starts `command` in its own process group and waits until 127.0.0.1:port accepts connections. */
async function startDaemon(command: string, args: string[], port: number, logFile?: string): Promise<Daemon> {
  let output = '';
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  const log = () => output + (logFile && fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
  const stop = async () => {
    if (exited || child.pid === undefined) return;
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 3_000);
    await gone;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exited) throw new Error(`${command} exited before listening on ${port}:\n${log()}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (up) return { port, log, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${command} did not listen on ${port} within 20 s:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** smbd serving `[share]` = `folder` (read-only) to `user`, whose password is in a private passdb. */
export async function startSamba(
  dir: string,
  opts: { user: string; password: string; share: string; folder: string; workgroup: string },
): Promise<Daemon> {
  const port = await freePort();
  const at = (p: string) => path.join(dir, p);
  fs.mkdirSync(at('private'), { mode: 0o700 });
  const conf = at('smb.conf');
  const logFile = at('smbd.log');
  fs.writeFileSync(
    conf,
    [
      '[global]',
      `  workgroup = ${opts.workgroup}`,
      '  server role = standalone server',
      `  smb ports = ${port}`,
      '  interfaces = 127.0.0.1',
      '  bind interfaces only = yes',
      '  disable netbios = yes',
      `  private dir = ${at('private')}`,
      `  lock directory = ${at('lock')}`,
      `  state directory = ${at('state')}`,
      `  cache directory = ${at('cache')}`,
      `  pid directory = ${at('pid')}`,
      `  ncalrpc dir = ${at('ncalrpc')}`,
      `  log file = ${logFile}`,
      `  passdb backend = tdbsam:${at('private/passdb.tdb')}`,
      '  map to guest = never',
      '  load printers = no',
      '  printing = bsd',
      '  printcap name = /dev/null',
      '  disable spoolss = yes',
      '  usershare path =',
      `[${opts.share}]`,
      `  path = ${opts.folder}`,
      '  read only = yes',
      `  valid users = ${opts.user}`,
      '',
    ].join('\n'),
  );
  execFileSync('smbpasswd', ['-c', conf, '-a', '-s', opts.user], {
    input: `${opts.password}\n${opts.password}\n`,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  return startDaemon(SMBD, ['--foreground', '--no-process-group', '--debug-stdout', '-s', conf], port, logFile);
}

/** sshd allowing only `user`, by password or by the public key given, with only internal-sftp. */
export async function startSshd(dir: string, opts: { user: string; authorizedKey: string }): Promise<Daemon> {
  const port = await freePort();
  const at = (p: string) => path.join(dir, p);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', at('host_key')]);
  fs.writeFileSync(at('authorized_keys'), opts.authorizedKey, { mode: 0o644 });
  fs.writeFileSync(
    at('sshd_config'),
    [
      'ListenAddress 127.0.0.1',
      `HostKey ${at('host_key')}`,
      `PidFile ${at('sshd.pid')}`,
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      `AuthorizedKeysFile ${at('authorized_keys')}`,
      // The key file lies under the world-writable temp dir, which StrictModes would refuse.
      'StrictModes no',
      'UsePAM no',
      'PermitRootLogin no',
      `AllowUsers ${opts.user}`,
      'Subsystem sftp internal-sftp',
      'ForceCommand internal-sftp',
      'AllowTcpForwarding no',
      'X11Forwarding no',
      '',
    ].join('\n'),
  );
  // Privilege separation directory, which the package's service would have created.
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  return startDaemon(SSHD, ['-D', '-e', '-f', at('sshd_config'), '-p', String(port)], port);
}
