// Health test data: a loopback HTTP target whose answer a test can change, Canary YAML for it,
// and past runs of a check written straight into the database (for uptime, groups and charts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import type { Database } from '../../server/src/db/database.js';

export interface HttpTarget {
  url: string;
  /** The status code the target answers with from now on. */
  status: number;
  close(): Promise<void>;
}

export async function startTarget(): Promise<HttpTarget> {
  const target = { status: 200 } as HttpTarget;
  const server = http.createServer((_req, res) => {
    res.writeHead(target.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: target.status < 400 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  target.close = () => new Promise((resolve) => server.close(() => resolve()));
  return target;
}

export interface CanaryOptions {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  schedule?: string;
  /** http checks: name → path on the target. */
  http: Record<string, string>;
  targetUrl: string;
}

export function canaryYaml(o: CanaryOptions): string {
  const lines = ['apiVersion: canaries.flanksource.com/v1', 'kind: Canary', 'metadata:', `  name: ${o.name}`];
  if (o.namespace) lines.push(`  namespace: ${o.namespace}`);
  if (o.labels) {
    lines.push('  labels:');
    for (const [k, v] of Object.entries(o.labels)) lines.push(`    ${k}: "${v}"`);
  }
  lines.push('spec:', `  schedule: "${o.schedule ?? '@every 1h'}"`, '  http:');
  for (const [name, path] of Object.entries(o.http)) {
    lines.push(`    - name: ${name}`, `      url: ${o.targetUrl}${path}`, '      responseCodes: [200]');
    lines.push('      thresholdMillis: 2000');
  }
  return `${lines.join('\n')}\n`;
}

/** Applies a canary through the API as the signed-in user of `page`; returns check ids by name. */
export async function applyCanary(page: Page, origin: string, yaml: string): Promise<Record<string, string>> {
  const res = await page.request.post('/api/canary', {
    data: yaml,
    headers: { 'content-type': 'application/yaml', origin },
  });
  if (res.status() !== 201) throw new Error(`apply failed: ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { applied: Array<{ checks: Array<{ id: string; name: string }> }> };
  return Object.fromEntries(body.applied[0].checks.map((c) => [c.name, c.id]));
}

/**
 * Past runs of a check, oldest first, one every `everyMinutes` up to a minute ago; the check's
 * status, last run and last transition follow the newest run. `runs` is a pattern of pass (true)
 * and fail (false); durations wander around `durationMs`.
 */
export async function recordRuns(
  db: Database,
  checkId: string,
  runs: boolean[],
  options: { everyMinutes?: number; durationMs?: number } = {},
): Promise<void> {
  const every = options.everyMinutes ?? 5;
  const base = options.durationMs ?? 120;
  const now = Date.now();
  const values: string[] = [];
  const params: unknown[] = [checkId];
  runs.forEach((pass, i) => {
    const at = new Date(now - (runs.length - i) * every * 60_000).toISOString();
    const duration = Math.round(base * (0.6 + ((i * 37) % 100) / 100) + (pass ? 0 : base * 2));
    params.push(at, pass, duration, pass ? 'HTTP 200 in time' : null, pass ? null : 'expected one of [200], got 500');
    const p = params.length;
    values.push(`($1, $${p - 4}::timestamptz, $${p - 3}, $${p - 2}, $${p - 1}, $${p})`);
  });
  await db.query(
    `INSERT INTO check_statuses (check_id, time, status, duration, message, error) VALUES ${values.join(', ')}`,
    params,
  );
  const last = runs[runs.length - 1];
  let flip = runs.length - 1;
  while (flip > 0 && runs[flip - 1] === last) flip--;
  const at = (i: number) => new Date(now - (runs.length - i) * every * 60_000).toISOString();
  await db.query(
    `UPDATE checks SET status = $2, last_runtime = $3, last_transition_time = $4, next_runtime = $5 WHERE id = $1`,
    [checkId, last ? 'healthy' : 'unhealthy', at(runs.length - 1), at(flip), new Date(now + 4 * 60_000).toISOString()],
  );
}
