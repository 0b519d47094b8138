// Demo catalog data: on the first start with the embedded database, the bundled sample manifests
// (server/demo/catalog/) are copied into DATA_DIR/demo-catalog and a labelled file ScrapeConfig
// ("opsdeck-demo-catalog") reads them; a demo rotator edits one ConfigMap there every 5 minutes so
// the real change detection has something to show. Nothing is faked: the engine scrapes real files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import type { Database } from '../db/database.js';
import { parseDocuments } from '../resources/yaml.js';
import { parseScrapeConfig } from './scrapeConfig.js';
import type { Scraper } from './scraper.js';
import { applyScrapeConfig } from './store.js';
import { logger } from '../log.js';

const log = logger('catalog');

export const DEMO_SCRAPER_NAME = 'opsdeck-demo-catalog';
export const DEMO_FOLDER = 'demo-catalog';
export const ROTATED_FILE = 'configmap-web-config.yaml';
export const ROTATE_EVERY_MS = 5 * 60_000;

/** The bundled manifests, from src/ (tsx, tests) and from the bundled dist/main.js alike. */
export function bundledDemoDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, '../../demo/catalog'), path.join(here, '../demo/catalog')];
  const found = candidates.find((c) => fs.existsSync(path.join(c, 'namespace.yaml')));
  if (!found) throw new Error(`demo catalog folder not found (looked in ${candidates.join(', ')})`);
  return found;
}

export function demoScrapeConfigYaml(folder: string): string {
  return `apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: ${DEMO_SCRAPER_NAME}
  namespace: demo
  labels:
    demo: "true"
  annotations:
    description: Demo data - sample Kubernetes manifests bundled with Opsdeck, read from ${folder}
spec:
  schedule: "@every 1m"
  retention:
    staleItemAge: 0s
  file:
    - type: "Kubernetes::{{.kind}}"
      class: $.kind
      id: $.metadata.uid
      name: $.metadata.name
      description: Demo data (sample manifest bundled with Opsdeck)
      labels:
        demo: "true"
      tags:
        cluster: demo
      paths:
        - ${JSON.stringify(path.join(folder, '*.yaml'))}
      transform:
        exclude:
          - $.metadata.managedFields
        mask:
          - selector: "config.kind == 'Secret'"
            jsonpath: $.data.password
            value: md5sum
  analysis:
    rules:
      - name: single-replica
        type: Kubernetes::Deployment
        expr: "config.spec.replicas < 2"
        severity: medium
        analysis_type: availability
        message: "Deployment {{.metadata.name}} runs a single replica (demo rule)"
      - name: pod-not-running
        type: Kubernetes::Pod
        expr: "config.status.phase != 'Running'"
        severity: high
        analysis_type: availability
        message: "Pod {{.metadata.name}} is {{.status.phase}} (demo rule)"
`;
}

/** Copies the manifests and applies the demo scraper, once per database; returns whether it did. */
export async function seedCatalogDemo(db: Database, dataDir: string, scrapers: ReadonlyMap<string, Scraper>) {
  const { rows } = await db.query<{ name: string }>(
    `INSERT INTO server_settings (name, value) VALUES ('demo_catalog_seeded', now()::text) ON CONFLICT (name) DO NOTHING RETURNING name`,
  );
  if (!rows[0]) return false;
  const folder = path.join(dataDir, DEMO_FOLDER);
  fs.mkdirSync(folder, { recursive: true });
  const source = bundledDemoDir();
  for (const f of fs.readdirSync(source))
    if (f.endsWith('.yaml')) fs.copyFileSync(path.join(source, f), path.join(folder, f));
  for (const doc of parseDocuments(demoScrapeConfigYaml(folder)))
    await applyScrapeConfig(db, parseScrapeConfig(doc, scrapers), { source: 'demo' });
  return true;
}

const LEVELS = ['info', 'debug', 'warn'];

/** One rotation: the next log level and rollout percentage in the demo ConfigMap. */
export function rotateDemoFile(folder: string): void {
  const file = path.join(folder, ROTATED_FILE);
  const doc = parse(fs.readFileSync(file, 'utf8')) as { data: Record<string, string> };
  const level = LEVELS[(LEVELS.indexOf(doc.data.LOG_LEVEL ?? '') + 1) % LEVELS.length]!;
  const rollout = (Number(doc.data.ROLLOUT_PERCENT ?? 0) % 100) + 10;
  doc.data = { ...doc.data, LOG_LEVEL: level, ROLLOUT_PERCENT: String(rollout) };
  fs.writeFileSync(file, stringify(doc));
}

/** Starts the rotator when the demo folder exists; returns how to stop it. */
export function startDemoRotator(dataDir: string, everyMs = ROTATE_EVERY_MS): () => void {
  const folder = path.join(dataDir, DEMO_FOLDER);
  if (!fs.existsSync(path.join(folder, ROTATED_FILE))) return () => undefined;
  const timer = setInterval(() => {
    try {
      rotateDemoFile(folder);
    } catch (e) {
      log.error(`demo catalog rotator: ${(e as Error).message}`);
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
