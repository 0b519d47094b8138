// Kubeconfig loading shared by the kubernetes health checks and catalog scrapers. The client
// (large) is imported on first use, not at start-up.
import type { KubeConfig } from '@kubernetes/client-node';

export const loadKubernetesClient = () => import('@kubernetes/client-node');

/**
 * The given kubeconfig (a path — absolute, ~/ or ./ — or the YAML itself), else the KUBECONFIG
 * environment variable; undefined when there is neither. Throws an Error saying what is wrong when
 * the kubeconfig cannot be read or names no current cluster.
 */
export async function loadKubeConfig(value: string | undefined): Promise<KubeConfig | undefined> {
  const { KubeConfig } = await loadKubernetesClient();
  const kc = new KubeConfig();
  try {
    const text = value?.trim();
    if (text) {
      if (/^(\/|~\/|\.\.?\/)/.test(text)) kc.loadFromFile(text.replace(/^~(?=\/)/, process.env.HOME ?? '~'));
      else kc.loadFromString(value!);
    } else if (process.env.KUBECONFIG?.trim()) {
      kc.loadFromDefault();
    } else {
      return undefined;
    }
  } catch (e) {
    throw new Error(`kubeconfig could not be loaded: ${(e as Error).message}`);
  }
  if (!kc.getCurrentCluster()) throw new Error('kubeconfig has no current cluster (set current-context)');
  return kc;
}
