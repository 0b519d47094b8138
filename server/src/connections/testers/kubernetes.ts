// Test of a Kubernetes connection: the kubeconfig it holds (certificate; optionally another context)
// lists one namespace, proving the API server answers and accepts the credentials.
import { loadKubeConfig, loadKubernetesClient } from '../../kubeconfig.js';
import { abortable, liftSocketError } from '../errors.js';
import { prop, required, TestFailure, type ConnectionTester } from './tester.js';

export const kubernetesTester: ConnectionTester = {
  types: ['kubernetes'],
  async test(conn, ctx) {
    const kubeconfig = required(conn.certificate, 'Kubeconfig');
    const context = prop(conn, 'context');
    let kc;
    try {
      kc = await loadKubeConfig(kubeconfig);
      if (kc && context) kc.setCurrentContext(context);
    } catch (e) {
      throw new TestFailure((e as Error).message);
    }
    const cluster = kc?.getCurrentCluster();
    if (!kc || !cluster)
      throw new TestFailure(`the kubeconfig has no cluster${context ? ` for context ${context}` : ''}`);
    if (conn.insecureTls)
      kc.clusters = kc.clusters.map((c) => (c.name === cluster.name ? { ...c, skipTLSVerify: true } : c));
    const { CoreV1Api } = await loadKubernetesClient();
    try {
      const list = await abortable(ctx.signal, kc.makeApiClient(CoreV1Api).listNamespace({ limit: 1 }));
      const first = list.items[0]?.metadata?.name;
      return {
        details: `${cluster.server} listed namespaces${first ? ` (first: ${first})` : ''} for context ${kc.getCurrentContext()}`,
      };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      const err = e as { code?: unknown; body?: unknown; message?: string };
      if (err.code === 401 || err.code === 403)
        throw new TestFailure(`${cluster.server} refused the credentials (HTTP ${String(err.code)})`);
      if (typeof err.code === 'number') throw new TestFailure(`${cluster.server} answered HTTP ${err.code}`);
      const message = err.message ?? String(e);
      throw new TestFailure(liftSocketError(message) ?? message);
    }
  },
};
