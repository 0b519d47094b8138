// One process at a time on an embedded database's directory (db/dataDirLock.ts): a second server on
// the same DATA_DIR refuses to start and names the holder, a second open in one process is refused,
// and a lock left by a process that is gone (killed, another program with its id, another host) is
// taken over. A damaged directory is refused with PostgreSQL's own reason, not PGlite's bare "Aborted()".
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/database.js';
import { LOCK_FILE, lockDataDir } from '../src/db/dataDirLock.js';
import { migratedPgliteSnapshot } from './helpers/databases.js';
import { root, spawnNode, startServerProcess, stopProcess, until } from './helpers/processes.js';

const main = path.join(root, 'server/dist/main.js');
const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-lock-'));
  dirs.push(d);
  return d;
};

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('the embedded database directory lock', () => {
  it('refuses a second open of a directory in one process, and opens it again once closed', async () => {
    const dir = tempDir();
    const db = await openPglite(dir);
    await expect(openPglite(dir)).rejects.toThrow(/already open in this process/);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n${os.hostname()}\n`);
    await db.close();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    const again = await openPglite(dir);
    expect((await again.query<{ x: number }>('SELECT 1 AS x')).rows[0]!.x).toBe(1);
    await again.close();
  });

  it('takes over a lock whose process is gone, is another program, or is on another host', async () => {
    const dir = tempDir();
    const file = path.join(dir, LOCK_FILE);
    const mine = `${process.pid}\n${os.hostname()}\n`;
    // A Node.js process that has exited.
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.once('exit', resolve));
    fs.writeFileSync(file, `${gone.pid}\n${os.hostname()}\n`);
    let release = lockDataDir(dir);
    expect(fs.readFileSync(file, 'utf8')).toBe(mine);
    release();
    // A live process that is not Node.js (the id reused by another program).
    const other = spawn('sleep', ['30']);
    try {
      await until('sleep started', async () => /sleep/.test(fs.readFileSync(`/proc/${other.pid}/cmdline`, 'latin1')));
      fs.writeFileSync(file, `${other.pid}\n${os.hostname()}\n`);
      release = lockDataDir(dir);
      expect(fs.readFileSync(file, 'utf8')).toBe(mine);
      release();
    } finally {
      other.kill('SIGKILL');
    }
    // A live Node.js process on this host: refused, the lock left as it was.
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await until('node started', async () => /node/.test(fs.readFileSync(`/proc/${live.pid}/cmdline`, 'latin1')));
      fs.writeFileSync(file, `${live.pid}\n${os.hostname()}\n`);
      expect(() => lockDataDir(dir)).toThrow(`is in use by process ${live.pid}`);
      expect(fs.readFileSync(file, 'utf8')).toBe(`${live.pid}\n${os.hostname()}\n`);
    } finally {
      live.kill('SIGKILL');
    }
    // Another host: taken over, with a warning.
    fs.writeFileSync(file, `4242\nsome-other-host\n`);
    const warnings: string[] = [];
    release = lockDataDir(dir, (m) => warnings.push(m));
    expect(warnings).toEqual([expect.stringMatching(/locked by process 4242 on host some-other-host: taking it over/)]);
    release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it(
    'refuses a second server on the same DATA_DIR while the first runs, and starts one after the first was killed',
    {
      timeout: 180_000,
    },
    async () => {
      const dataDir = tempDir();
      const tarball = `${dataDir}.tar`;
      fs.writeFileSync(tarball, Buffer.from(await (await migratedPgliteSnapshot()).arrayBuffer()));
      execFileSync('tar', ['xf', tarball, '-C', dataDir]);
      fs.rmSync(tarball);
      const env = { DATA_DIR: dataDir, OPSDECK_DEMO: 'false', HOST: '127.0.0.1', OPSDECK_ENGINES: 'false' };
      const first = await startServerProcess([main], env, { cwd: root, timeoutMs: 120_000 });
      try {
        const second = spawnNode([main], { ...env, PORT: '0' }, root);
        const code = await new Promise<number | null>((resolve) => second.child.once('exit', resolve));
        expect(code).not.toBe(0);
        expect(second.output()).toContain(`is in use by process ${first.child.pid}`);
        // The first server is untouched.
        expect((await fetch(`${first.url}/api/about`)).ok).toBe(true);
      } finally {
        first.child.kill('SIGKILL');
        await new Promise((resolve) => first.child.once('exit', resolve));
      }
      // Its lock is left behind; the next server takes it over and answers.
      expect(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')).toContain(`${first.child.pid}\n`);
      const next = await startServerProcess([main], env, { cwd: root, timeoutMs: 120_000 });
      expect((await fetch(`${next.url}/api/about`)).ok).toBe(true);
      expect(await stopProcess(next.child, 30_000)).toBe(0);
      expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    },
  );

  it(
    "refuses a damaged directory with PostgreSQL's reason and what to do, in process and as a server",
    {
      timeout: 120_000,
    },
    async () => {
      const dir = tempDir();
      const db = await openPglite(dir);
      await db.query('CREATE TABLE t (x int)');
      await db.query('INSERT INTO t VALUES (1)');
      await db.close();
      // Its write-ahead log gone (as a copy taken while the server ran may leave it).
      const wal = fs.readdirSync(path.join(dir, 'pg_wal')).filter((f) => /^[0-9A-F]{24}$/.test(f));
      expect(wal.length).toBeGreaterThan(0);
      for (const f of wal) fs.rmSync(path.join(dir, 'pg_wal', f));
      const reason = /could not be opened: PANIC: could not locate a valid checkpoint record/;
      const open = openPglite(dir);
      await expect(open).rejects.toThrow(reason);
      await expect(open).rejects.toThrow(/restore it from a backup taken with the server stopped/);
      expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
      const server = spawnNode([main], { DATA_DIR: dir, OPSDECK_DEMO: 'false', HOST: '127.0.0.1', PORT: '0' }, root);
      const code = await new Promise<number | null>((resolve) => server.child.once('exit', resolve));
      expect(code).not.toBe(0);
      expect(server.output()).toMatch(reason);
      expect(server.output()).toContain(dir);
    },
  );
});
