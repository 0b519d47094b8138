// `npm run bench -- catalog-scrape`: the catalog engine scraping --items file items (one small JSON
// file each) on PostgreSQL and on embedded PGlite, in-process through the engine's Run Now path:
// first scrape (every item new), an unchanged scrape, a scrape where every item has one changed
// field (one diff change each), the change reverted (new changes again) and re-applied (repeats
// counted on the existing rows). Reported per scrape: wall time, items per second, and the rows
// written. Flags: --items 10000, --db postgres|pglite|all, --rounds 1 (unchanged scrapes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type Database } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { CatalogEngine, type ScrapeRunResult } from '../server/src/catalog/engine.js';
import { parseScrapeConfig } from '../server/src/catalog/scrapeConfig.js';
import { scrapers } from '../server/src/catalog/scrapers/index.js';
import { applyScrapeConfig } from '../server/src/catalog/store.js';
import { parseDocuments } from '../server/src/resources/yaml.js';
import { databaseUrl, dropDatabase, numberFlag, parseFlags, printTable, recreateDatabase } from './lib.js';

const flags = parseFlags(process.argv.slice(2));
const itemCount = numberFlag(flags, 'items', 10_000);
const which = String(flags.db ?? 'all');
const BENCH_DB = 'opsdeck_bench_catalog';

function writeItems(dir: string, version: (i: number) => number) {
  for (let i = 0; i < itemCount; i++) {
    const item = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}`, namespace: `ns-${i % 50}`, uid: `uid-${i}`, labels: { app: `app-${i % 200}` } },
      data: { version: String(version(i)), owner: `team-${i % 7}`, region: 'eu-west-1', replicas: String(1 + (i % 5)) },
    };
    fs.writeFileSync(path.join(dir, `item-${i}.json`), JSON.stringify(item));
  }
}

async function scenario(db: Database, label: string): Promise<(string | number)[][]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-catalog-'));
  try {
    writeItems(dir, () => 1);
    const yaml = `apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata: {name: bench, namespace: bench}
spec:
  file:
    - type: "Kubernetes::{{.kind}}"
      id: $.metadata.uid
      name: $.metadata.name
      paths: ["${dir}/*.json"]
`;
    const def = parseScrapeConfig(parseDocuments(yaml)[0]!, scrapers);
    const { id } = await applyScrapeConfig(db, def, { source: 'bench' });
    const engine = new CatalogEngine(db, scrapers);
    const rows: (string | number)[][] = [];
    const measure = async (name: string, prepare: () => void) => {
      prepare();
      const started = performance.now();
      const r = (await engine.runNow(id)) as ScrapeRunResult;
      const ms = performance.now() - started;
      if (typeof r === 'string' || r.status !== 'SUCCESS') throw new Error(`${name}: ${JSON.stringify(r)}`);
      const changeRows = await db.query<{ n: number; c: number }>(
        `SELECT count(*)::int AS n, coalesce(sum(count), 0)::int AS c FROM config_changes`,
      );
      rows.push([
        label,
        name,
        r.items,
        r.created,
        r.updated,
        r.changes,
        changeRows.rows[0]!.n,
        changeRows.rows[0]!.c,
        Math.round(ms),
        Math.round((r.items / ms) * 1000),
      ]);
      console.error(`${label}: ${name} done in ${Math.round(ms)} ms`);
    };
    await measure('first scrape (all new)', () => undefined);
    for (let i = 0; i < numberFlag(flags, 'rounds', 1); i++) await measure('unchanged', () => undefined);
    await measure('one field changed per item', () => writeItems(dir, () => 2));
    await measure('change reverted', () => writeItems(dir, () => 1));
    await measure('same change again (repeat)', () => writeItems(dir, () => 2));
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const results: (string | number)[][] = [];
if (which === 'all' || which === 'postgres') {
  await recreateDatabase(BENCH_DB);
  const db = await openPostgres(databaseUrl(BENCH_DB), 10);
  try {
    await migrate(db);
    results.push(...(await scenario(db, 'postgres')));
  } finally {
    await db.close();
    await dropDatabase(BENCH_DB);
  }
}
if (which === 'all' || which === 'pglite') {
  const db = await openPglite(undefined);
  try {
    await migrate(db);
    results.push(...(await scenario(db, 'pglite')));
  } finally {
    await db.close();
  }
}
console.log(`\ncatalog scrape of ${itemCount} file items (one JSON file each), ${os.cpus().length} CPUs\n`);
printTable(
  ['database', 'scrape', 'items', 'created', 'updated', 'changes', 'change rows', 'sum(count)', 'ms', 'items/s'],
  results,
);
