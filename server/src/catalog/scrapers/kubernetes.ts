// The kubernetes scraper: lists objects of the chosen kinds from a cluster with
// @kubernetes/client-node (loaded only when a scrape runs), one item per object: id = uid,
// type = Kubernetes::<Kind>, tags cluster and namespace; ownerReferences become parents. Runs only
// with a kubeconfig (the entry's `kubeconfig`, a path or the YAML itself, else KUBECONFIG).
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { z } from 'zod';
import { loadKubeConfig, loadKubernetesClient as loadClient } from '../../kubeconfig.js';
import { envValueSchema } from '../../connections/envValue.js';
import { baseScraperFields, ScrapeError, type BaseScraperSpec, type RawDocument, type Scraper } from '../scraper.js';

/** Kinds listed when the entry names none, with their API versions. */
export const DEFAULT_KINDS: Record<string, string> = {
  Namespace: 'v1',
  Node: 'v1',
  Pod: 'v1',
  Service: 'v1',
  ConfigMap: 'v1',
  PersistentVolumeClaim: 'v1',
  Deployment: 'apps/v1',
  ReplicaSet: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  Job: 'batch/v1',
  CronJob: 'batch/v1',
  Ingress: 'networking.k8s.io/v1',
};

export const kubernetesSchema = z.looseObject({
  ...baseScraperFields,
  kubeconfig: envValueSchema.optional(),
  clusterName: z.string().optional(),
  namespaces: z.array(z.string()).optional(),
  /** Kinds to list, e.g. [Pod, apps/v1/Deployment]; default: DEFAULT_KINDS. */
  kinds: z.array(z.string()).optional(),
  selector: z.string().optional(),
  fieldSelector: z.string().optional(),
  exclusions: z
    .looseObject({ kinds: z.array(z.string()).optional(), namespaces: z.array(z.string()).optional() })
    .optional(),
});

export type KubernetesSpec = z.infer<typeof kubernetesSchema> & BaseScraperSpec;

export const NO_KUBECONFIG = "no kubeconfig is configured: set the scraper's kubeconfig or KUBECONFIG";

async function scraperKubeConfig(value: string | undefined): Promise<KubeConfig> {
  let kc: KubeConfig | undefined;
  try {
    kc = await loadKubeConfig(value);
  } catch (e) {
    throw new ScrapeError((e as Error).message);
  }
  if (!kc) throw new ScrapeError(NO_KUBECONFIG);
  return kc;
}

function kindsOf(spec: KubernetesSpec): [string, string][] {
  const excluded = new Set(spec.exclusions?.kinds ?? []);
  const list = spec.kinds?.length
    ? spec.kinds.map((k): [string, string] => {
        const i = k.lastIndexOf('/');
        const kind = i < 0 ? k : k.slice(i + 1);
        const apiVersion = i < 0 ? DEFAULT_KINDS[kind] : k.slice(0, i);
        if (!apiVersion) throw new ScrapeError(`kind ${k}: write it with its API version, e.g. apps/v1/${kind}`);
        return [kind, apiVersion];
      })
    : Object.entries(DEFAULT_KINDS);
  return list.filter(([kind]) => !excluded.has(kind));
}

export const kubernetesScraper: Scraper<KubernetesSpec> = {
  type: 'kubernetes',
  schema: kubernetesSchema as z.ZodType<KubernetesSpec>,
  async scrape(spec, ctx): Promise<RawDocument[]> {
    const kc = await scraperKubeConfig(await ctx.resolve(spec.kubeconfig));
    const { KubernetesObjectApi } = await loadClient();
    const api = KubernetesObjectApi.makeApiClient(kc);
    const cluster = spec.clusterName ?? kc.getCurrentCluster()?.name ?? 'kubernetes';
    const skipNamespaces = new Set(spec.exclusions?.namespaces ?? []);
    const namespaces = spec.namespaces?.length ? spec.namespaces : [undefined];
    const docs: RawDocument[] = [];
    for (const [kind, apiVersion] of kindsOf(spec)) {
      for (const ns of namespaces) {
        let items: KubernetesObject[];
        try {
          const list = await api.list(
            apiVersion,
            kind,
            ns,
            undefined,
            undefined,
            undefined,
            spec.fieldSelector,
            spec.selector,
          );
          items = list.items;
        } catch (e) {
          const err = e as { code?: number; message?: string };
          // A namespaced list for a cluster-wide kind, or a kind this cluster does not serve.
          if (err.code === 404) continue;
          throw new ScrapeError(`${apiVersion}/${kind}: ${err.message ?? String(e)}`);
        }
        for (const obj of items) {
          const meta = obj.metadata ?? {};
          if (meta.namespace && skipNamespaces.has(meta.namespace)) continue;
          const data = { apiVersion, kind, ...obj } as Record<string, unknown>;
          if (data.metadata && typeof data.metadata === 'object')
            delete (data.metadata as Record<string, unknown>).managedFields;
          docs.push({
            data,
            source: `kubernetes://${cluster}/${apiVersion}/${kind}/${meta.namespace ? `${meta.namespace}/` : ''}${meta.name}`,
            format: 'yaml',
            defaults: {
              id: meta.uid ?? `${kind}/${meta.namespace ?? ''}/${meta.name}`,
              name: meta.name,
              type: `Kubernetes::${kind}`,
              class: kind,
              tags: { cluster, ...(meta.namespace ? { namespace: meta.namespace } : {}) },
            },
          });
        }
      }
    }
    return docs;
  },
};
