// The connection Test of file servers against real ones started here: SMB through smbclient against
// Samba's smbd, SFTP through ssh2 against OpenSSH's sshd (helpers/file-servers.ts). A listing that
// names the file is a success; a wrong password, a missing share or folder, a closed port and a
// missing smbclient are sentences; the SMB password is only ever in a 0600 file removed afterwards.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { runConnectionTest } from '../src/connections/testers/run.js';
import { SMBCLIENT_MISSING, smbTester } from '../src/connections/testers/smb.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { openTestDatabase, type TestDatabase } from './helpers/databases.js';
import {
  cannotRun,
  createSystemUser,
  freePort,
  SMBD,
  SSHD,
  startSamba,
  startSshd,
  type Daemon,
} from './helpers/file-servers.js';
import { captureOutput, leakedSecrets, recordingClient } from './helpers/recording.js';

const S = { smb: 'Smb-S3cret-pass', sftp: 'Sftp-S3cret-pass', wrong: 'Wr0ng-S3cret-value' };
const USER = `opsdeck-files-${process.pid}`;
const smbSkip = cannotRun({ smbclient: 'smbclient', samba: SMBD, 'samba-common-bin': 'smbpasswd' });
const sftpSkip = cannotRun({ 'openssh-server': SSHD, 'openssh-client': 'ssh-keygen' });
if (smbSkip) console.warn(`SMB connection tests skipped: ${smbSkip}`);
if (sftpSkip) console.warn(`SFTP connection tests skipped: ${sftpSkip}`);

describe.skipIf(!!smbSkip && !!sftpSkip)('connection tests of file servers', () => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let output: ReturnType<typeof captureOutput>;
  let account: { remove(): void } | undefined;
  let samba: Daemon | undefined;
  let sshd: Daemon | undefined;
  let clientKey = '';
  const api = recordingClient(
    () => app.url,
    () => admin,
  );
  // Readable by the test user all the way down: smbd and sshd serve it as that user.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-conn-files-'));
  const files = path.join(tmp, 'files');
  const testForm = (row: Record<string, unknown>) =>
    api.call<{ message: string; details?: string; error?: string }>('/api/connection/test', { body: row });

  beforeAll(async () => {
    output = captureOutput();
    fs.chmodSync(tmp, 0o755);
    fs.mkdirSync(path.join(files, 'reports'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(files, 'hello.txt'), 'hello\n', { mode: 0o644 });
    fs.writeFileSync(path.join(files, 'reports', 'q3.csv'), 'a,b\n', { mode: 0o644 });
    // The SMB and SFTP password are the same Unix account's: smbd needs the user to exist, sshd its password.
    account = createSystemUser(USER, S.sftp);
    if (!smbSkip) {
      fs.mkdirSync(path.join(tmp, 'samba'));
      samba = await startSamba(path.join(tmp, 'samba'), {
        user: USER,
        password: S.smb,
        share: 'files',
        folder: files,
        workgroup: 'OPSDECK',
      });
    }
    if (!sftpSkip) {
      fs.mkdirSync(path.join(tmp, 'ssh'));
      execFileSync('ssh-keygen', [
        '-q',
        '-t',
        'ed25519',
        '-N',
        '',
        '-C',
        'opsdeck-test',
        '-f',
        path.join(tmp, 'client_key'),
      ]);
      clientKey = fs.readFileSync(path.join(tmp, 'client_key'), 'utf8');
      sshd = await startSshd(path.join(tmp, 'ssh'), {
        user: USER,
        authorizedKey: fs.readFileSync(path.join(tmp, 'client_key.pub'), 'utf8'),
      });
    }
    test = await openTestDatabase('pglite');
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
  });

  afterAll(async () => {
    output?.restore();
    await app?.close();
    await test?.close();
    await samba?.stop();
    await sshd?.stop();
    account?.remove();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  describe.skipIf(!!smbSkip)('SMB (smbclient against smbd)', () => {
    const smb = (props: Record<string, string>, password = S.smb) => ({
      type: 'smb',
      username: USER,
      password,
      properties: { host: '127.0.0.1', port: String(samba!.port), share: 'files', domain: 'OPSDECK', ...props },
    });

    it('signs in and lists the share root, naming its entries', async () => {
      const res = await testForm(smb({}));
      expect(res, samba!.log()).toMatchObject({
        status: 200,
        body: {
          message: 'ok',
          details: `signed in to 127.0.0.1:${samba!.port} as OPSDECK\\${USER} and listed //127.0.0.1/files: 2 entries (hello.txt, reports/)`,
        },
      });
    });

    it('lists a folder of the share (path, or share/folder), and says when it does not exist', async () => {
      const sub = await testForm(smb({ path: 'reports' }));
      expect(sub.body.details).toMatch(/listed \/\/127\.0\.0\.1\/files\/reports: 1 entry \(q3\.csv\)$/);
      const inShare = await testForm({ ...smb({ share: 'files/reports' }), type: 'windows' });
      expect(inShare.body.details).toMatch(/listed \/\/127\.0\.0\.1\/files\/reports: 1 entry \(q3\.csv\)$/);
      const missing = await testForm(smb({ path: 'nope' }));
      expect(missing).toMatchObject({
        status: 400,
        body: { error: 'no folder "nope" in share "files" on 127.0.0.1 (NT_STATUS_OBJECT_NAME_NOT_FOUND)' },
      });
    });

    it('says wrong username or password, a missing share and a closed port in words', async () => {
      const wrong = await testForm(smb({}, S.wrong));
      expect(wrong).toMatchObject({
        status: 400,
        body: {
          error: `127.0.0.1:${samba!.port} refused the sign-in of OPSDECK\\${USER}: wrong username or password (NT_STATUS_LOGON_FAILURE)`,
        },
      });
      expect((await testForm({ ...smb({}), username: 'nobody-here' })).body.error).toMatch(
        /wrong username or password/,
      );
      expect((await testForm(smb({ share: 'nope' }))).body.error).toBe(
        'no share "nope" on 127.0.0.1 (NT_STATUS_BAD_NETWORK_NAME)',
      );
      const closed = await freePort();
      expect((await testForm(smb({ port: String(closed) }))).body.error).toBe(
        `connection refused: 127.0.0.1:${closed}`,
      );
      expect((await testForm(smb({ host: '-oops' }))).body.error).toBe(
        'Host must be a single name without spaces or slashes (got "-oops")',
      );
    });

    it('stops smbclient at the time limit when the server never answers, and removes the auth file', async () => {
      const silent = net.createServer(() => undefined);
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      const port = (silent.address() as net.AddressInfo).port;
      const before = fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('opsdeck-smb-test-'));
      try {
        const row = smb({ port: String(port) });
        const answer = await runConnectionTest(
          { name: 'slow', url: null, certificate: null, insecureTls: false, ...row },
          smbTester,
          1_500,
        );
        expect(answer).toMatchObject({
          status: 400,
          body: { error: `timed out after 1500 ms waiting for 127.0.0.1:${port}` },
        });
      } finally {
        silent.close();
      }
      await new Promise((r) => setTimeout(r, 1_000)); // the runner answers at the limit; the kill follows
      const after = fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('opsdeck-smb-test-'));
      expect(after.filter((f) => !before.includes(f))).toEqual([]);
    });

    it('gives smbclient the password only in a 0600 file, removed afterwards', async () => {
      const bin = path.join(tmp, 'bin');
      const calls = path.join(tmp, 'smbclient-calls.log');
      fs.mkdirSync(bin);
      const real = execFileSync('sh', ['-c', 'command -v smbclient'], { encoding: 'utf8' }).trim();
      fs.writeFileSync(
        path.join(bin, 'smbclient'),
        [
          '#!/bin/sh',
          `printf 'argv %s\\n' "$*" >> '${calls}'`,
          'prev=""',
          'for a in "$@"; do',
          `  if [ "$prev" = "-A" ]; then printf 'auth %s %s\\n' "$a" "$(stat -c %a "$a")" >> '${calls}'; fi`,
          '  prev="$a"',
          'done',
          `exec '${real}' "$@"`,
          '',
        ].join('\n'),
        { mode: 0o755 },
      );
      const saved = process.env.PATH;
      process.env.PATH = `${bin}${path.delimiter}${saved}`;
      try {
        expect((await testForm(smb({}))).status).toBe(200);
      } finally {
        process.env.PATH = saved;
      }
      const log = fs.readFileSync(calls, 'utf8');
      expect(log).toContain(`argv //127.0.0.1/files -p ${samba!.port} -W OPSDECK -A `);
      expect(log).not.toContain(S.smb);
      const auth = /^auth (\S+) (\d+)$/m.exec(log);
      expect(auth?.[2]).toBe('600');
      expect(fs.existsSync(auth![1]!)).toBe(false);
      expect(fs.existsSync(path.dirname(auth![1]!))).toBe(false);
    });

    it('asks for the smbclient program when it is not installed (a 400, not "not supported")', async () => {
      const empty = path.join(tmp, 'empty-bin');
      fs.mkdirSync(empty);
      const saved = process.env.PATH;
      process.env.PATH = empty;
      try {
        expect(await testForm(smb({}))).toMatchObject({ status: 400, body: { error: SMBCLIENT_MISSING } });
      } finally {
        process.env.PATH = saved;
      }
    });
  });

  describe.skipIf(!!sftpSkip)('SFTP (ssh2 against sshd)', () => {
    const sftp = (fields: Record<string, unknown>, props: Record<string, string> = {}) => ({
      type: 'sftp',
      username: USER,
      ...fields,
      properties: { host: '127.0.0.1', port: String(sshd!.port), path: files, ...props },
    });

    it('signs in with the password and lists the path', async () => {
      const res = await testForm(sftp({ password: S.sftp }));
      expect(res, sshd!.log()).toMatchObject({
        status: 200,
        body: {
          details: `signed in to 127.0.0.1:${sshd!.port} as ${USER} and listed ${files}: 2 entries (${['hello.txt', 'reports'].join(', ')})`,
        },
      });
    });

    it('signs in with a private key', async () => {
      const res = await testForm(sftp({ certificate: clientKey }, { path: path.join(files, 'reports') }));
      expect(res, sshd!.log()).toMatchObject({ status: 200 });
      expect(res.body.details).toMatch(/: 1 entry \(q3\.csv\)$/);
    });

    it('says the password is wrong, and names a path that does not exist', async () => {
      const wrong = await testForm(sftp({ password: S.wrong }));
      expect(wrong).toMatchObject({
        status: 400,
        body: {
          error: `127.0.0.1:${sshd!.port} refused the username, password or key (All configured authentication methods failed)`,
        },
      });
      const missing = await testForm(sftp({ password: S.sftp }, { path: '/nope' }));
      expect(missing.body.error).toBe(`cannot list /nope on 127.0.0.1:${sshd!.port}: No such file`);
    });
  });

  it('never shows a secret in any answer or in the server output', () => {
    const secrets = [...Object.values(S), ...(clientKey ? [clientKey.split('\n')[1]!] : [])];
    expect(leakedSecrets({ answers: api.bodies.join('\n'), output: output.text() }, secrets)).toEqual([]);
  });
});
