// Crash safety of the embedded database: the built server on PGlite (DATA_DIR in a temporary
// folder) takes writes through the API from several clients at once, and is SIGKILLed in the middle
// of them, 20 times in a row. A ledger keeps every write the API acknowledged (2xx); after each
// restart the server must start, every acknowledged row must be there, and it must take writes again.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedPgliteSnapshot } from './helpers/databases.js';
import { root, sleep, startServerProcess, stopProcess, type RunningServer } from './helpers/processes.js';

const ITERATIONS = 20;
const WRITERS = 4;
const ADMIN = { ADMIN_EMAIL: 'admin@example.test', ADMIN_PASSWORD: 'crash test password' };
const main = path.join(root, 'server/dist/main.js');

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

describe('the embedded database under SIGKILL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-crash-'));
  let server: RunningServer | undefined;
  afterAll(async () => {
    if (server) await stopProcess(server.child, 10_000);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged write through ${ITERATIONS} kills in a row`, { timeout: 900_000 }, async () => {
    const start = () =>
      startServerProcess(
        [main],
        { DATA_DIR: dataDir, OPSDECK_DEMO: 'false', HOST: '127.0.0.1', SIGN_IN_RATE_LIMIT: '10000', ...ADMIN },
        { cwd: root, timeoutMs: 120_000, pollMs: 100 },
      );
    // A migrated data folder to begin with (initdb and the migrations are not what is tested here).
    const tarball = path.join(dataDir, '..', `${path.basename(dataDir)}.tar`);
    fs.writeFileSync(tarball, Buffer.from(await (await migratedPgliteSnapshot()).arrayBuffer()));
    execFileSync('tar', ['xf', tarball, '-C', dataDir]);
    fs.rmSync(tarball);
    /** Ids the API answered 201 for. */
    const ledger = new Set<string>();
    const figures: { iteration: number; acknowledged: number; lost: number; startMs: number }[] = [];
    /** Answers other than 201 while the server was up. */
    const refused: string[] = [];
    let failedStart: string | undefined;

    for (let iteration = 0; iteration <= ITERATIONS; iteration++) {
      const t0 = Date.now();
      try {
        server = await start();
      } catch (e) {
        failedStart = `restart after kill ${iteration}: ${(e as Error).message.slice(0, 2000)}`;
        break;
      }
      const startMs = Date.now() - t0;
      const url = server.url;
      const cookie = await signIn(url);

      // Everything acknowledged so far is there (read in pages of ids).
      const present = new Set<string>();
      for (let offset = 0; ; offset += 1000) {
        const res = await fetch(
          `${url}/api/db/people?select=id&name=like.crash*&order=id&limit=1000&offset=${offset}`,
          {
            headers: { cookie },
          },
        );
        expect(res.status).toBe(200);
        const page = (await res.json()) as { id: string }[];
        for (const p of page) present.add(p.id);
        if (page.length < 1000) break;
      }
      const lost = [...ledger].filter((id) => !present.has(id));
      process.stderr.write(
        `crash-pglite: start ${iteration} in ${startMs} ms, ${ledger.size} acknowledged, ${ledger.size - [...ledger].filter((id) => !present.has(id)).length} present\n`,
      );
      if (iteration > 0) figures.push({ iteration, acknowledged: ledger.size, lost: lost.length, startMs });
      expect(
        lost,
        `lost after kill ${iteration}: ${lost.length} of ${ledger.size}\n${server.output().slice(-2000)}`,
      ).toEqual([]);
      if (iteration === ITERATIONS) break;

      // Heavy writes from several clients; the kill lands at a random moment among them.
      let stop = false;
      const writer = async () => {
        while (!stop) {
          const id = crypto.randomUUID();
          try {
            const res = await fetch(`${url}/api/db/people`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', cookie, origin: url, prefer: 'return=minimal' },
              body: JSON.stringify({ id, name: `crash ${iteration} ${id.slice(0, 8)}` }),
            });
            if (res.status === 201) ledger.add(id);
            else refused.push(`${res.status} ${await res.text()}`);
          } catch (e) {
            // The connection dies with the process: that write was never acknowledged.
            if (!stop) refused.push((e as Error).message);
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, writer);
      await sleep(1000 + Math.random() * 2000);
      // No new writes from here; the ones under way meet the kill.
      stop = true;
      const exited = new Promise((resolve) => server!.child.once('exit', resolve));
      server.child.kill('SIGKILL');
      await exited;
      await Promise.allSettled(writers);
      server = undefined;
    }

    const losses = figures.filter((f) => f.lost > 0).length;
    console.log(
      `crash-pglite: ${figures.length} kills survived of ${ITERATIONS}, ${ledger.size} acknowledged writes, ` +
        `${losses} iterations with losses; restart ${Math.min(...figures.map((f) => f.startMs))}–${Math.max(...figures.map((f) => f.startMs))} ms` +
        (failedStart ? `\n${failedStart}` : ''),
    );
    expect(failedStart).toBeUndefined();
    expect(refused).toEqual([]);
    expect(figures.length).toBe(ITERATIONS);
    expect(ledger.size).toBeGreaterThan(ITERATIONS * 10);
  });
});
