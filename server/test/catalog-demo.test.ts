// The demo catalog on a fresh embedded database: the labelled demo ScrapeConfig is seeded once, the
// scheduler runs it on its own (no Run Now), the bundled manifests become items with parents
// from ownerReferences, insights from the demo rules, the masked Secret, and the rotator's edit to
// the copied ConfigMap becomes a change on the next run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { DEMO_FOLDER, DEMO_SCRAPER_NAME, rotateDemoFile } from '../src/catalog/demo.js';

describe('demo catalog', () => {
  let dir: string;
  let app: Opsdeck;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-demo-catalog-'));
    app = await startOpsdeck({ dataDir: dir, port: 0, host: '127.0.0.1', demo: true, engines: true });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const q = <T>(sql: string, params: unknown[] = []) => app.ctx.db.query<T>(sql, params).then((r) => r.rows);

  it('is seeded once, labelled as demo data, and scraped by the scheduler', async () => {
    const scrapers = await q<{ id: string; labels: Record<string, string>; source: string }>(
      `SELECT id, labels, source FROM config_scrapers WHERE name = $1`,
      [DEMO_SCRAPER_NAME],
    );
    expect(scrapers).toHaveLength(1);
    expect(scrapers[0]).toMatchObject({ labels: { demo: 'true' }, source: 'demo' });
    await expect
      .poll(
        async () =>
          (await q<{ n: number }>(`SELECT count(*)::int AS n FROM config_items WHERE deleted_at IS NULL`))[0]!.n,
        {
          timeout: 60_000,
          interval: 500,
        },
      )
      .toBe(18);
  }, 90_000);

  it('links deployments, replica sets and pods through their owners', async () => {
    const rows = await q<{ name: string; type: string; parent: string | null; health: string | null }>(
      `SELECT i.name, i.type, p.name AS parent, i.health FROM config_items i LEFT JOIN config_items p ON p.id = i.parent_id
       WHERE i.type IN ('Kubernetes::Deployment', 'Kubernetes::ReplicaSet', 'Kubernetes::Pod') ORDER BY i.type, i.name`,
    );
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName.api).toMatchObject({ parent: 'demo-shop', health: 'warning' });
    expect(byName['api-5c6b7f9d4']).toMatchObject({ parent: 'api', type: 'Kubernetes::ReplicaSet' });
    expect(byName['api-5c6b7f9d4-z8b1d']).toMatchObject({ parent: 'api-5c6b7f9d4', health: 'warning' });
    const rels = await q<{ relation: string; n: number }>(
      `SELECT relation, count(*)::int AS n FROM config_relationships WHERE deleted_at IS NULL GROUP BY relation ORDER BY relation`,
    );
    expect(rels).toContainEqual({ relation: 'DeploymentReplicaSet', n: 3 });
    expect(rels).toContainEqual({ relation: 'ReplicaSetPod', n: 6 });
  });

  it('opens the demo insights and masks the Secret', async () => {
    const insights = await q<{ analyzer: string; name: string }>(
      `SELECT a.analyzer, i.name FROM config_analysis a JOIN config_items i ON i.id = a.config_id WHERE a.status = 'open' ORDER BY 1, 2`,
    );
    expect(insights).toEqual([
      { analyzer: 'pod-not-running', name: 'api-5c6b7f9d4-z8b1d' },
      { analyzer: 'single-replica', name: 'worker' },
    ]);
    const secret = await q<{ config: { data: Record<string, string> } }>(
      `SELECT config FROM config_items WHERE type = 'Kubernetes::Secret'`,
    );
    expect(secret[0]!.config.data.password).toMatch(/^[0-9a-f]{32}$/);
  });

  it('turns a rotation of the demo ConfigMap into a change', async () => {
    rotateDemoFile(path.join(dir, DEMO_FOLDER));
    const [{ id }] = (await q<{ id: string }>(`SELECT id FROM config_scrapers WHERE name = $1`, [
      DEMO_SCRAPER_NAME,
    ])) as [{ id: string }];
    const r = await app.ctx.catalog.runNow(id);
    expect(r).toMatchObject({ status: 'SUCCESS', changes: 1 });
    const changes = await q<{ summary: string; diff: string }>(
      `SELECT c.summary, c.diff FROM config_changes c JOIN config_items i ON i.id = c.config_id WHERE i.name = 'web-config'`,
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]!.summary).toBe('data.LOG_LEVEL, data.ROLLOUT_PERCENT');
    expect(changes[0]!.diff).toContain(
      '-  LOG_LEVEL: info\n-  ROLLOUT_PERCENT: "10"\n+  LOG_LEVEL: debug\n+  ROLLOUT_PERCENT: "20"\n',
    );
  });
});
