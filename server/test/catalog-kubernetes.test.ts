// The kubernetes scraper against a loopback HTTP server answering the Kubernetes API paths it uses
// (discovery, namespace, pod and replica set lists) with Kubernetes-shaped JSON: objects become items
// with id = uid, type Kubernetes::<Kind>, cluster and namespace tags and owner references; without a
// kubeconfig it refuses to run.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractItems } from '../src/catalog/extract.js';
import { kubernetesScraper, NO_KUBECONFIG } from '../src/catalog/scrapers/kubernetes.js';
import type { ScrapeContext } from '../src/catalog/scraper.js';
import { testCheckContext } from './helpers/checkContext.js';
import { loopbackServer, sendJson, type LoopbackServer } from './checkers/ports.js';

const kubeconfig = (server: string) => `apiVersion: v1
kind: Config
clusters:
  - name: lab
    cluster: {server: "${server}", insecure-skip-tls-verify: true}
users:
  - name: lab
    user: {token: t}
contexts:
  - name: lab
    context: {cluster: lab, user: lab}
current-context: lab
`;

const list = (kind: string, apiVersion: string, items: unknown[]) => ({
  kind: `${kind}List`,
  apiVersion,
  metadata: {},
  items,
});

let api: LoopbackServer;
const warnings: string[] = [];
const ctx = (): ScrapeContext => ({
  ...testCheckContext(),
  scraper: { id: 'x', name: 'k8s', namespace: 'default' },
  warn: (m) => warnings.push(m),
});

beforeAll(async () => {
  api = await loopbackServer((req, _body, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (req.headers.authorization !== 'Bearer t')
      return sendJson(res, 401, { kind: 'Status', code: 401, message: 'Unauthorized' });
    switch (u.pathname) {
      case '/api/v1':
        return sendJson(res, 200, {
          kind: 'APIResourceList',
          groupVersion: 'v1',
          resources: [
            { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['list'] },
            { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['list'] },
          ],
        });
      case '/apis/apps/v1':
        return sendJson(res, 200, {
          kind: 'APIResourceList',
          groupVersion: 'apps/v1',
          resources: [
            { name: 'replicasets', singularName: 'replicaset', namespaced: true, kind: 'ReplicaSet', verbs: ['list'] },
          ],
        });
      case '/api/v1/namespaces':
        return sendJson(
          res,
          200,
          list('Namespace', 'v1', [{ metadata: { name: 'shop', uid: 'ns-1' }, status: { phase: 'Active' } }]),
        );
      case '/api/v1/pods':
        return sendJson(
          res,
          200,
          list('Pod', 'v1', [
            {
              metadata: {
                name: 'web-1-a',
                namespace: 'shop',
                uid: 'pod-1',
                managedFields: [{ manager: 'kubectl' }],
                ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'rs-1' }],
              },
              status: { phase: 'Running' },
            },
          ]),
        );
      case '/apis/apps/v1/replicasets':
        return sendJson(
          res,
          200,
          list('ReplicaSet', 'apps/v1', [
            {
              metadata: { name: 'web-1', namespace: 'shop', uid: 'rs-1' },
              spec: { replicas: 1 },
              status: { readyReplicas: 1 },
            },
          ]),
        );
      default:
        return sendJson(res, 404, { kind: 'Status', code: 404, message: 'not found', reason: 'NotFound' });
    }
  });
});
afterAll(() => api.close());
beforeEach(() => {
  delete process.env.KUBECONFIG;
  warnings.length = 0;
});

describe('kubernetes scraper', () => {
  it('lists the chosen kinds and turns each object into an item', async () => {
    const spec = kubernetesScraper.schema.parse({
      kubeconfig: kubeconfig(api.url),
      clusterName: 'lab',
      kinds: ['Namespace', 'Pod', 'apps/v1/ReplicaSet'],
    });
    const docs = await kubernetesScraper.scrape(spec, ctx());
    const { items, errors } = await extractItems(spec, docs, 'kubernetes[0]');
    expect(errors).toEqual([]);
    expect(items.map((i) => [i.externalId, i.type, i.configClass, i.name, i.tags, i.health])).toEqual([
      ['ns-1', 'Kubernetes::Namespace', 'Namespace', 'shop', { cluster: 'lab' }, 'healthy'],
      ['pod-1', 'Kubernetes::Pod', 'Pod', 'web-1-a', { cluster: 'lab', namespace: 'shop' }, 'healthy'],
      ['rs-1', 'Kubernetes::ReplicaSet', 'ReplicaSet', 'web-1', { cluster: 'lab', namespace: 'shop' }, 'healthy'],
    ]);
    const pod = items[1]!;
    expect(pod.parent).toMatchObject({ externalId: 'rs-1', type: 'ReplicaSet' });
    expect((pod.config as { metadata: Record<string, unknown> }).metadata.managedFields).toBeUndefined();
    expect(docs[1]!.source).toBe('kubernetes://lab/v1/Pod/shop/web-1-a');
  });

  it('refuses to run without a kubeconfig', async () => {
    await expect(kubernetesScraper.scrape(kubernetesScraper.schema.parse({}), ctx())).rejects.toThrow(NO_KUBECONFIG);
  });

  it('reports a kind it cannot write without an API version', async () => {
    const spec = kubernetesScraper.schema.parse({ kubeconfig: kubeconfig(api.url), kinds: ['Widget'] });
    await expect(kubernetesScraper.scrape(spec, ctx())).rejects.toThrow(
      'kind Widget: write it with its API version, e.g. apps/v1/Widget',
    );
  });
});
