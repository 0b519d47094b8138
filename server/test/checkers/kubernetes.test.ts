// The kubernetes checker. No Kubernetes cluster exists here: these tests cover the spec, the "no kubeconfig"
// rule, readiness rules, and the client against a loopback HTTP server answering a few Kubernetes API paths
// (discovery, pod and namespace lists) with Kubernetes-shaped JSON.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { kubernetesChecker, NO_KUBECONFIG, resourceHealth } from '../../src/health/checkers/kubernetes.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { closedPort, loopbackServer, sendJson, type LoopbackServer } from './ports.js';

function spec(fields: Record<string, unknown>) {
  return kubernetesChecker.schema.parse({ name: 'k8s', ...fields });
}

/** A kubeconfig for `server`; client-node only speaks plain HTTP with insecure-skip-tls-verify set. */
function kubeconfig(server: string): string {
  return `apiVersion: v1
kind: Config
clusters:
  - name: test
    cluster: {server: "${server}", insecure-skip-tls-verify: true}
users:
  - name: test
    user: {token: test-token}
contexts:
  - name: test
    context: {cluster: test, user: test}
current-context: test
`;
}

function pod(name: string, namespace: string, ready: boolean, labels: Record<string, string> = { app: 'api' }) {
  return {
    metadata: { name, namespace, labels, managedFields: [{ manager: 'kubectl' }] },
    spec: { containers: [{ name: 'api', image: 'api:1' }] },
    status: {
      phase: ready ? 'Running' : 'Pending',
      conditions: [
        { type: 'Ready', status: ready ? 'True' : 'False', reason: ready ? undefined : 'ContainersNotReady' },
      ],
      containerStatuses: [
        { name: 'api', ready, state: ready ? { running: {} } : { waiting: { reason: 'CrashLoopBackOff' } } },
      ],
    },
  };
}

const PODS: Record<string, ReturnType<typeof pod>[]> = {
  prod: [pod('api-1', 'prod', true), pod('api-2', 'prod', false), pod('worker-1', 'prod', true, { app: 'worker' })],
  staging: [pod('api-1', 'staging', true)],
};

let api: LoopbackServer;

beforeAll(async () => {
  api = await loopbackServer((req, _body, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (req.headers.authorization !== 'Bearer test-token')
      return sendJson(res, 401, {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      });
    if (u.pathname === '/api/v1') {
      return sendJson(res, 200, {
        kind: 'APIResourceList',
        groupVersion: 'v1',
        resources: [
          { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list'] },
          {
            name: 'namespaces',
            singularName: 'namespace',
            namespaced: false,
            kind: 'Namespace',
            verbs: ['get', 'list'],
          },
        ],
      });
    }
    if (u.pathname === '/api/v1/namespaces') {
      const items = Object.keys(PODS).map((name) => ({
        metadata: { name, labels: { env: name } },
        status: { phase: 'Active' },
      }));
      const sel = u.searchParams.get('labelSelector');
      return sendJson(res, 200, {
        kind: 'NamespaceList',
        apiVersion: 'v1',
        metadata: {},
        items: items.filter((n) => !sel || `env=${n.metadata.labels.env}` === sel),
      });
    }
    const m = /^\/api\/v1(?:\/namespaces\/([^/]+))?\/pods$/.exec(u.pathname);
    if (m) {
      if (m[1] === 'secret-ns')
        return sendJson(res, 403, {
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message:
            'pods is forbidden: User "test" cannot list resource "pods" in API group "" in the namespace "secret-ns"',
          reason: 'Forbidden',
          code: 403,
        });
      const all = m[1] ? (PODS[m[1]] ?? []) : Object.values(PODS).flat();
      const sel = u.searchParams.get('labelSelector');
      const items = all.filter(
        (p) => !sel || sel.split(',').every((kv) => p.metadata.labels[kv.split('=')[0]!] === kv.split('=')[1]),
      );
      return sendJson(res, 200, { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items });
    }
    if (u.pathname === '/apis') return sendJson(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
    sendJson(res, 404, {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      code: 404,
    });
  });
});
afterAll(() => api.close());
beforeEach(() => {
  delete process.env.KUBECONFIG;
});

describe('kubernetes spec and configuration', () => {
  it('accepts canary-checker fields', () => {
    const s = spec({
      kind: 'Pod',
      namespaceSelector: { name: 'prod' },
      resource: { labelSelector: 'app=api' },
      ready: true,
      ignore: ['api-*'],
      kubeconfig: { valueFrom: { secretKeyRef: { name: 'kc', key: 'config' } } },
      description: 'api pods',
    });
    expect(s.ready).toBe(true);
    expect(kubernetesChecker.endpoint(s)).toBe('Pod/api pods/prod');
    expect(() => kubernetesChecker.schema.parse({ name: 'k' })).toThrow();
  });

  it('is invalid without a kubeconfig', async () => {
    const r = await kubernetesChecker.run(spec({ kind: 'Pod' }), testCheckContext());
    expect(r).toEqual({ pass: false, invalid: true, error: NO_KUBECONFIG, data: {} });
    expect(NO_KUBECONFIG).toBe("no kubeconfig is configured: set KUBECONFIG or the check's kubeconfig");
  });

  it('is invalid when the kubeconfig cannot be loaded or read from a secret', async () => {
    const missing = await kubernetesChecker.run(
      spec({ kind: 'Pod', kubeconfig: '/nonexistent/kubeconfig' }),
      testCheckContext(),
    );
    expect(missing).toMatchObject({ invalid: true });
    expect(missing.error).toMatch(/^kubeconfig could not be loaded: .*ENOENT/);
    const secret = await kubernetesChecker.run(
      spec({ kind: 'Pod', kubeconfig: { valueFrom: { secretKeyRef: { name: 'kc', key: 'config' } } } }),
      testCheckContext(),
    );
    expect(secret).toMatchObject({ invalid: true });
    expect(secret.error).toMatch(/^kubeconfig could not be resolved: /);
  });

  it('judges readiness per kind', () => {
    expect(resourceHealth({ ...pod('a', 'x', true), kind: 'Pod' })).toEqual({ ready: true, message: 'Running' });
    expect(resourceHealth({ ...pod('a', 'x', false), kind: 'Pod' })).toEqual({
      ready: false,
      message: 'Pending, api: CrashLoopBackOff',
    });
    expect(
      resourceHealth({ kind: 'Deployment', spec: { replicas: 3 }, status: { readyReplicas: 2, updatedReplicas: 3 } }),
    ).toEqual({ ready: false, message: '2/3 replicas ready' });
    expect(
      resourceHealth({ kind: 'Deployment', spec: { replicas: 2 }, status: { readyReplicas: 2, updatedReplicas: 2 } })
        .ready,
    ).toBe(true);
    expect(
      resourceHealth({
        kind: 'Node',
        status: { conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady' }] },
      }),
    ).toEqual({ ready: false, message: 'NotReady: KubeletNotReady' });
    expect(
      resourceHealth({ kind: 'Certificate', status: { conditions: [{ type: 'Ready', status: 'True' }] } }).ready,
    ).toBe(true);
  });
});

describe('kubernetes against a loopback API server', () => {
  it('lists pods in a namespace by label, without managedFields', async () => {
    const r = await kubernetesChecker.run(
      spec({
        kind: 'Pod',
        kubeconfig: kubeconfig(api.url),
        namespaceSelector: { name: 'prod' },
        resource: { labelSelector: 'app=api' },
      }),
      testCheckContext(),
    );
    expect(r).toMatchObject({ pass: true, message: '2 Pods', data: { count: 2 } });
    const results = r.results as { metadata: Record<string, unknown>; healthStatus: { ready: boolean } }[];
    expect(results.map((p) => p.metadata.name)).toEqual(['api-1', 'api-2']);
    expect(results[0]!.metadata.managedFields).toBeUndefined();
    expect(api.requests.at(-1)!.url).toBe('/api/v1/namespaces/prod/pods?labelSelector=app%3Dapi');
  });

  it('with ready: true fails naming the pods that are not ready', async () => {
    const r = await kubernetesChecker.run(
      spec({ kind: 'Pod', kubeconfig: kubeconfig(api.url), namespaceSelector: { name: 'prod' }, ready: true }),
      testCheckContext(),
    );
    expect(r).toMatchObject({
      pass: false,
      error: '1 of 3 Pods not ready: prod/api-2 (Pending, api: CrashLoopBackOff)',
    });
    const ok = await kubernetesChecker.run(
      spec({
        kind: 'Pod',
        kubeconfig: kubeconfig(api.url),
        namespaceSelector: { name: 'prod' },
        ready: true,
        ignore: ['api-2'],
      }),
      testCheckContext(),
    );
    expect(ok).toMatchObject({ pass: true, message: '2 Pods, all ready' });
  });

  it('selects namespaces by label, picks a resource by name, and reads KUBECONFIG', async () => {
    const dir = await import('node:fs/promises').then((fs) => fs.mkdtemp('/tmp/opsdeck-kube-'));
    const { writeFile, rm } = await import('node:fs/promises');
    await writeFile(`${dir}/config`, kubeconfig(api.url));
    process.env.KUBECONFIG = `${dir}/config`;
    try {
      const r = await kubernetesChecker.run(
        spec({ kind: 'Pod', namespaceSelector: { labelSelector: 'env=staging' }, resource: { name: 'api-1' } }),
        testCheckContext(),
      );
      expect(r).toMatchObject({
        pass: true,
        data: { count: 1 },
        results: [{ metadata: { name: 'api-1', namespace: 'staging' } }],
      });
      const none = await kubernetesChecker.run(
        spec({ kind: 'Pod', namespaceSelector: { name: 'staging' }, resource: { name: 'nope' } }),
        testCheckContext(),
      );
      expect(none).toMatchObject({ pass: false, error: 'no Pod resources found named nope' });
      const tested = await kubernetesChecker.run(
        spec({
          kind: 'Pod',
          namespaceSelector: { name: 'staging' },
          resource: { name: 'nope' },
          test: { expr: 'count == 0' },
        }),
        testCheckContext(),
      );
      expect(tested.pass).toBe(true);
    } finally {
      delete process.env.KUBECONFIG;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports API errors and unknown kinds', async () => {
    const forbidden = await kubernetesChecker.run(
      spec({ kind: 'Pod', kubeconfig: kubeconfig(api.url), namespaceSelector: { name: 'secret-ns' } }),
      testCheckContext(),
    );
    expect(forbidden).toMatchObject({
      pass: false,
      error: `listing Pod in secret-ns on ${api.url} failed: pods is forbidden: User "test" cannot list resource "pods" in API group "" in the namespace "secret-ns" (HTTP 403)`,
    });
    const unknown = await kubernetesChecker.run(
      spec({ kind: 'Widget', kubeconfig: kubeconfig(api.url) }),
      testCheckContext(),
    );
    expect(unknown).toMatchObject({
      invalid: true,
      error: 'kind Widget is not served by this cluster (add apiVersion if it is a custom resource)',
    });
  });

  it('fails clearly when the API server is not reachable', async () => {
    const port = await closedPort();
    const r = await kubernetesChecker.run(
      spec({ kind: 'Pod', kubeconfig: kubeconfig(`http://127.0.0.1:${port}`) }),
      testCheckContext(),
    );
    expect(r.pass).toBe(false);
    expect(r.invalid).toBeFalsy();
    expect(r.error).toBe(`listing Pod on http://127.0.0.1:${port} failed: connection refused: 127.0.0.1:${port}`);
  });
});
