// The scheduler across a restart: a canary on `@every 5s` against a loopback server, the server stopped
// mid-schedule and started again on the same data directory — statuses are kept, no run is lost,
// none is doubled.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startOpsdeck } from '../src/app.js';
import { createTestUser } from './helpers/auth.js';

const PERIOD_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('health scheduler across a restart', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-restart-'));
  let server: http.Server | undefined;
  afterAll(() => {
    server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps statuses and runs every scheduled slot once', async () => {
    server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

    const first = await startOpsdeck({ dataDir, port: 0, host: '127.0.0.1', demo: false, engines: true });
    const editor = await createTestUser(first.ctx.db, 'editor');
    const res = await fetch(`${first.url}/api/canary`, {
      method: 'POST',
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
      body: `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: restart}
spec:
  schedule: "@every 5s"
  http:
    - name: target
      url: ${target}
`,
    });
    expect(res.status).toBe(201);
    // Run soon instead of after the first run's jitter.
    await first.ctx.db.query(`UPDATE canaries SET next_runtime = now() WHERE name = 'restart'`);
    await sleep(2.6 * PERIOD_MS);
    await first.close(); // mid-schedule: the next run is due within the period
    const stoppedAt = Date.now();

    await sleep(1_000);
    const second = await startOpsdeck({ dataDir, port: 0, host: '127.0.0.1', demo: false, engines: true });
    try {
      await sleep(2.4 * PERIOD_MS);
      const { rows } = await second.ctx.db.query<{ time: string; status: boolean }>(
        `SELECT s.time, s.status FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.name = 'target' ORDER BY s.time`,
      );
      const times = rows.map((r) => new Date(r.time).getTime());
      expect(rows.every((r) => r.status)).toBe(true);
      // Kept: runs from before the restart are still there.
      expect(times.filter((t) => t < stoppedAt).length).toBeGreaterThanOrEqual(2);
      // None doubled: consecutive runs are about a period apart, never twice in one slot.
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(Math.min(...gaps)).toBeGreaterThan(PERIOD_MS / 2);
      // None lost: no gap longer than a period plus the restart (stop, 1 s pause, start).
      expect(Math.max(...gaps)).toBeLessThan(2 * PERIOD_MS + 4_000);
      expect(times.filter((t) => t > stoppedAt).length).toBeGreaterThanOrEqual(2);
    } finally {
      await second.close();
    }
  }, 60_000);
});
