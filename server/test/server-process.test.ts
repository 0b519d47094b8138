// The built server as a real child process, the way `npm start` runs it: data survives a restart on
// the embedded database, the same build runs on PostgreSQL through DATABASE_URL, bad configuration
// fails fast with a clear message.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from './helpers/databases.js';
import { root, spawnNode, startServerProcess, stopProcess, type RunningServer } from './helpers/processes.js';

const main = path.join(root, 'server/dist/main.js');

const startServer = (env: Record<string, string>): Promise<RunningServer> =>
  startServerProcess([main], { OPSDECK_DEMO: 'false', HOST: '127.0.0.1', ...ADMIN, ...env });

const stopServer = (s: RunningServer) => stopProcess(s.child);

const person = { id: '00000000-0000-4000-8000-00000000abcd', name: 'Persisted Person' };

const ADMIN = { ADMIN_EMAIL: 'admin@example.test', ADMIN_PASSWORD: 'process test password' };

/** Signs in through the real sign-in endpoint; returns the session cookie. */
async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function writeAndRead(url: string) {
  const res = await fetch(`${url}/api/db/people`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: await signIn(url), origin: url },
    body: JSON.stringify(person),
  });
  expect(res.status).toBe(201);
}

async function readBack(url: string) {
  const res = await fetch(`${url}/api/db/people?id=eq.${person.id}&select=id,name`, {
    headers: { cookie: await signIn(url) },
  });
  return res.json();
}

describe('the server process', () => {
  const dirs: string[] = [];
  beforeAll(() => {
    // npm start builds what is stale first; do the same so the test runs the real bundle.
    execFileSync(process.execPath, [path.join(root, 'scripts/ensure-built.mjs')], { stdio: 'inherit' });
  }, 180_000);
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('keeps the embedded database across a restart and stops cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-data-'));
    dirs.push(dataDir);
    const first = await startServer({ DATA_DIR: dataDir });
    expect(first.output()).toContain('database: embedded PGlite');
    expect(first.output()).toContain('Created the first administrator: admin@example.test');
    expect(await (await fetch(`${first.url}/api/about`)).json()).toMatchObject({ database: 'pglite' });
    await writeAndRead(first.url);
    expect(await stopServer(first)).toBe(0);

    const second = await startServer({ DATA_DIR: dataDir });
    try {
      expect(await readBack(second.url)).toEqual([person]);
      // The web console (or the "not built" page) answers outside /api.
      expect((await fetch(`${second.url}/topology`)).status).toBeLessThan(500);
    } finally {
      await stopServer(second);
    }
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)('runs the same build on PostgreSQL through DATABASE_URL', async () => {
    const pgdb = await createPostgresDatabase();
    try {
      const first = await startServer({ DATABASE_URL: pgdb.url });
      expect(await (await fetch(`${first.url}/api/about`)).json()).toMatchObject({ database: 'postgres' });
      await writeAndRead(first.url);
      expect(await stopServer(first)).toBe(0);
      const second = await startServer({ DATABASE_URL: pgdb.url });
      try {
        expect(await readBack(second.url)).toEqual([person]);
      } finally {
        await stopServer(second);
      }
    } finally {
      await pgdb.drop();
    }
  });

  it('fails fast with a clear message on bad configuration', async () => {
    const bad = spawnNode([main], { PORT: 'eighty', OPSDECK_DEMO: 'false' });
    expect(await new Promise((resolve) => bad.child.once('exit', resolve))).toBe(1);
    // Log lines are JSON (server/src/log.ts): the quotes of the message come escaped.
    expect(bad.output()).toContain('PORT must be a non-negative integer, got \\"eighty\\"');

    const unreachable = spawnNode([main], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      OPSDECK_DEMO: 'false',
      PORT: '0',
    });
    expect(await new Promise((resolve) => unreachable.child.once('exit', resolve))).toBe(1);
    expect(unreachable.output()).toContain(
      'Opsdeck failed to start: cannot connect to PostgreSQL at 127.0.0.1:1/none (DATABASE_URL)',
    );
  });
});
