// Catalog test data: a temp folder of Kubernetes-like YAML documents (a namespace, a deployment,
// its replica set and four pods) that a file ScrapeConfig reads, and the API calls that apply the
// ScrapeConfig and run it, as the signed-in user of a page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';

export interface ShopFolder {
  dir: string;
  file: string;
  /** Rewrites the folder's file with the deployment's replica count. */
  write(replicas: number): void;
  remove(): void;
}

const obj = (kind: string, name: string, uid: string, owner?: [string, string, string], extra = '') =>
  [
    'apiVersion: v1',
    `kind: ${kind}`,
    'metadata:',
    `  name: ${name}`,
    `  uid: ${uid}`,
    ...(kind === 'Namespace' ? [] : ['  namespace: shop']),
    ...(owner ? ['  ownerReferences:', `    - {kind: ${owner[0]}, name: ${owner[1]}, uid: ${owner[2]}}`] : []),
    extra,
  ]
    .filter(Boolean)
    .join('\n');

export function shopFolder(): ShopFolder {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-catalog-e2e-'));
  const file = path.join(dir, 'shop.yaml');
  const write = (replicas: number) =>
    fs.writeFileSync(
      file,
      `${[
        obj('Namespace', 'shop', 'u-ns'),
        obj('Deployment', 'web', 'u-dep', undefined, `spec:\n  replicas: ${replicas}\n  image: shop/web:1.0`),
        obj('ReplicaSet', 'web-1', 'u-rs', ['Deployment', 'web', 'u-dep']),
        ...['a', 'b', 'c', 'd'].map((p) =>
          obj('Pod', `web-1-${p}`, `u-pod-${p}`, ['ReplicaSet', 'web-1', 'u-rs'], 'status:\n  phase: Running'),
        ),
      ].join('\n---\n')}\n`,
    );
  write(1);
  return { dir, file, write, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export function shopScrapeConfig(folder: ShopFolder): string {
  return `apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: shop-files
  namespace: default
spec:
  schedule: "@every 24h"
  file:
    - type: "Kubernetes::{{.kind}}"
      class: Kubernetes
      id: $.metadata.uid
      name: $.metadata.name
      paths: ["${folder.dir}/*.yaml"]
`;
}

/** Applies ScrapeConfig YAML through POST /api/catalog; returns the scraper id. */
export async function applyScrapeConfig(page: Page, origin: string, yaml: string): Promise<string> {
  const res = await page.request.post('/api/catalog', {
    data: yaml,
    headers: { 'content-type': 'application/yaml', origin },
  });
  if (res.status() !== 201) throw new Error(`apply failed: ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { applied: Array<{ id: string }> };
  return body.applied[0].id;
}

/** Runs a scraper now (POST /api/catalog/run/{id}) and returns what the run did. */
export async function runScraper(page: Page, origin: string, id: string): Promise<Record<string, unknown>> {
  const res = await page.request.post(`/api/catalog/run/${id}`, { headers: { origin } });
  if (res.status() !== 200) throw new Error(`run failed: ${res.status()} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}
