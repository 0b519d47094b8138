// The `kubernetes` check (canary-checker): lists resources of `kind` (optionally `apiVersion`) in the
// namespaces chosen by `namespaceSelector` {name, labelSelector, fieldSelector}, narrowed by `resource`
// {name, labelSelector, fieldSelector} and `ignore` (name globs), with `@kubernetes/client-node`. With
// `ready: true` every resource must be ready/healthy. Fails when nothing is found and there is no test.
// Runs only with a kubeconfig: the check's `kubeconfig` (a path or the YAML itself) or env KUBECONFIG.
// Data: `count`; `results` (the resources, each with `healthStatus` {ready, message}).
import type { KubeConfig, KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';

/** The Kubernetes client is large: it loads on the first kubernetes check, not when the server starts. */
import { z } from 'zod';
import { loadKubeConfig, loadKubernetesClient as loadClient } from '../../kubeconfig.js';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { abortable, describeKubeError, SpecError } from '../../connections/errors.js';
import { commonFields, fail, guarded, invalid, plural } from './common.js';
import { envValueSchema } from '../../connections/envValue.js';
import { resolveField } from '../../connections/resolve.js';

const selectorSchema = z.looseObject({
  name: z.string().optional(),
  labelSelector: z.string().optional(),
  fieldSelector: z.string().optional(),
});

const schema = z.looseObject({
  ...commonFields,
  kind: z.string().min(1, 'kind is required'),
  apiVersion: z.string().optional(),
  namespaceSelector: selectorSchema.optional(),
  resource: selectorSchema.optional(),
  kubeconfig: envValueSchema.optional(),
  ignore: z.array(z.string()).optional(),
  ready: z.boolean().optional(),
});
export type KubernetesSpec = z.infer<typeof schema>;

export const NO_KUBECONFIG = "no kubeconfig is configured: set KUBECONFIG or the check's kubeconfig";

/** apiVersion of the kinds people check most; others are found through API discovery. */
const BUILTIN: Record<string, string> = {
  pod: 'v1',
  service: 'v1',
  node: 'v1',
  namespace: 'v1',
  configmap: 'v1',
  secret: 'v1',
  endpoints: 'v1',
  event: 'v1',
  persistentvolume: 'v1',
  persistentvolumeclaim: 'v1',
  serviceaccount: 'v1',
  replicationcontroller: 'v1',
  deployment: 'apps/v1',
  statefulset: 'apps/v1',
  daemonset: 'apps/v1',
  replicaset: 'apps/v1',
  job: 'batch/v1',
  cronjob: 'batch/v1',
  ingress: 'networking.k8s.io/v1',
  networkpolicy: 'networking.k8s.io/v1',
  horizontalpodautoscaler: 'autoscaling/v2',
  poddisruptionbudget: 'policy/v1',
  storageclass: 'storage.k8s.io/v1',
  customresourcedefinition: 'apiextensions.k8s.io/v1',
};

type K8sObject = KubernetesObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

function conditions(o: K8sObject): Condition[] {
  const c = o.status?.conditions;
  return Array.isArray(c) ? (c as Condition[]) : [];
}

function num(v: unknown, fallback = 0): number {
  return typeof v === 'number' ? v : fallback;
}

/** Whether a resource is ready, by its kind's own status fields (a small take on flanksource/is-healthy). */
export function resourceHealth(o: K8sObject): { ready: boolean; message: string } {
  const kind = (o.kind ?? '').toLowerCase();
  const s = o.status ?? {};
  const cond = (type: string) => conditions(o).find((c) => c.type === type);
  const condText = (c: Condition | undefined) => [c?.reason, c?.message].filter(Boolean).join(': ');
  switch (kind) {
    case 'pod': {
      if (s.phase === 'Succeeded') return { ready: true, message: 'Succeeded' };
      const ready = cond('Ready');
      if (s.phase === 'Running' && ready?.status === 'True') return { ready: true, message: 'Running' };
      const waiting = (
        Array.isArray(s.containerStatuses)
          ? (s.containerStatuses as { name: string; state?: { waiting?: { reason?: string } } }[])
          : []
      )
        .filter((c) => c.state?.waiting)
        .map((c) => `${c.name}: ${c.state!.waiting!.reason ?? 'waiting'}`);
      return {
        ready: false,
        message: [String(s.phase ?? 'Unknown'), waiting.join(', ') || condText(ready)].filter(Boolean).join(', '),
      };
    }
    case 'deployment':
    case 'statefulset':
    case 'replicaset':
    case 'replicationcontroller': {
      const want = num(o.spec?.replicas, 1);
      const have = num(s.readyReplicas);
      const updated = kind === 'deployment' || kind === 'statefulset' ? num(s.updatedReplicas, have) : have;
      const ok = have >= want && updated >= want;
      return {
        ready: ok,
        message: `${have}/${want} replicas ready${ok ? '' : updated < want ? `, ${updated} updated` : ''}`,
      };
    }
    case 'daemonset': {
      const want = num(s.desiredNumberScheduled);
      const have = num(s.numberReady);
      return { ready: have >= want, message: `${have}/${want} pods ready` };
    }
    case 'job': {
      if (cond('Failed')?.status === 'True') return { ready: false, message: `Failed: ${condText(cond('Failed'))}` };
      if (cond('Complete')?.status === 'True') return { ready: true, message: 'Complete' };
      return { ready: num(s.active) > 0, message: num(s.active) > 0 ? 'Running' : 'not started' };
    }
    case 'node': {
      const r = cond('Ready');
      return {
        ready: r?.status === 'True',
        message: r?.status === 'True' ? 'Ready' : `NotReady${condText(r) ? `: ${condText(r)}` : ''}`,
      };
    }
    case 'persistentvolumeclaim':
    case 'persistentvolume':
      return { ready: s.phase === 'Bound', message: String(s.phase ?? 'Unknown') };
    case 'namespace':
      return { ready: s.phase === 'Active', message: String(s.phase ?? 'Unknown') };
    default: {
      // Anything else: a Ready or Available condition when it has one, healthy otherwise.
      const c = cond('Ready') ?? cond('Available');
      if (!c) return { ready: true, message: 'no readiness conditions' };
      return {
        ready: c.status === 'True',
        message: c.status === 'True' ? `${c.type}` : `not ${c.type}${condText(c) ? `: ${condText(c)}` : ''}`,
      };
    }
  }
}

function globToRegExp(glob: string): RegExp {
  const re = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`);
}

/** Loads the check's kubeconfig (a path, or the YAML itself), else KUBECONFIG; undefined when neither. */
async function checkKubeConfig(spec: KubernetesSpec, ctx: CheckContext): Promise<KubeConfig | undefined> {
  const value = spec.kubeconfig === undefined ? undefined : await resolveField(ctx, 'kubeconfig', spec.kubeconfig);
  try {
    return await loadKubeConfig(value);
  } catch (e) {
    throw new SpecError((e as Error).message);
  }
}

async function listKind(
  api: KubernetesObjectApi,
  kc: KubeConfig,
  spec: KubernetesSpec,
  namespace: string | undefined,
  signal: AbortSignal,
): Promise<K8sObject[]> {
  const sel = spec.resource ?? {};
  const list = (apiVersion: string) =>
    abortable(
      signal,
      api.list<K8sObject>(
        apiVersion,
        spec.kind,
        namespace,
        undefined,
        undefined,
        undefined,
        sel.fieldSelector,
        sel.labelSelector,
      ),
    );
  const apiVersion = spec.apiVersion ?? BUILTIN[spec.kind.toLowerCase()];
  if (apiVersion) return (await list(apiVersion)).items;
  // Not a built-in kind: try each API group's preferred version until one serves it.
  const { ApisApi } = await loadClient();
  const groups = await abortable(signal, kc.makeApiClient(ApisApi).getAPIVersions());
  for (const g of groups.groups) {
    const gv = g.preferredVersion?.groupVersion ?? g.versions[0]?.groupVersion;
    if (!gv) continue;
    try {
      return (await list(gv)).items;
    } catch (e) {
      if (/Unrecognized API version and kind/i.test((e as Error).message)) continue;
      throw e;
    }
  }
  throw new SpecError(`kind ${spec.kind} is not served by this cluster (add apiVersion if it is a custom resource)`);
}

async function run(spec: KubernetesSpec, ctx: CheckContext): Promise<CheckResult> {
  let where = '';
  return guarded(
    ctx,
    () => where,
    async () => {
      const kc = await checkKubeConfig(spec, ctx);
      if (!kc) return invalid(NO_KUBECONFIG);
      where = kc.getCurrentCluster()?.server ?? '';
      const { KubernetesObjectApi } = await loadClient();
      const api = KubernetesObjectApi.makeApiClient(kc);
      const nsSel = spec.namespaceSelector ?? {};
      let namespaces: (string | undefined)[];
      try {
        if (nsSel.name) namespaces = [nsSel.name];
        else if (nsSel.labelSelector || nsSel.fieldSelector) {
          const list = await abortable(
            ctx.signal,
            api.list<K8sObject>(
              'v1',
              'Namespace',
              undefined,
              undefined,
              undefined,
              undefined,
              nsSel.fieldSelector,
              nsSel.labelSelector,
            ),
          );
          namespaces = list.items.map((n) => n.metadata?.name).filter((n): n is string => !!n);
        } else namespaces = [undefined];
      } catch (e) {
        if (ctx.signal.aborted || e instanceof SpecError) throw e;
        return fail(`listing namespaces on ${where} failed: ${describeKubeError(e)}`);
      }

      const ignore = (spec.ignore ?? []).map(globToRegExp);
      const found: K8sObject[] = [];
      for (const ns of namespaces) {
        let items: K8sObject[];
        try {
          items = await listKind(api, kc, spec, ns, ctx.signal);
        } catch (e) {
          if (ctx.signal.aborted || e instanceof SpecError) throw e;
          return fail(`listing ${spec.kind}${ns ? ` in ${ns}` : ''} on ${where} failed: ${describeKubeError(e)}`);
        }
        for (const item of items) {
          const name = item.metadata?.name ?? '';
          if (spec.resource?.name && name !== spec.resource.name) continue;
          if (ignore.some((re) => re.test(name))) continue;
          found.push(item);
        }
      }

      const results = found.map((o) => {
        const { managedFields: _managed, ...metadata } = o.metadata ?? {};
        return {
          ...o,
          kind: o.kind ?? spec.kind,
          metadata,
          healthStatus: resourceHealth({ ...o, kind: o.kind ?? spec.kind }),
        };
      });
      const data = { count: results.length };
      if (!results.length && !spec.test?.expr && !spec.test?.template && !spec.test?.javascript) {
        return fail(
          `no ${spec.kind} resources found${spec.resource?.name ? ` named ${spec.resource.name}` : ''}`,
          data,
          { results },
        );
      }
      if (spec.ready) {
        const notReady = results.filter((r) => !r.healthStatus.ready);
        if (notReady.length) {
          const shown = notReady
            .slice(0, 10)
            .map(
              (r) =>
                `${r.metadata.namespace ? `${r.metadata.namespace}/` : ''}${r.metadata.name} (${r.healthStatus.message})`,
            );
          const more = notReady.length > shown.length ? `, and ${notReady.length - shown.length} more` : '';
          return fail(
            `${notReady.length} of ${plural(results.length, spec.kind)} not ready: ${shown.join(', ')}${more}`,
            data,
            { results },
          );
        }
      }
      return {
        pass: true,
        message: `${plural(results.length, spec.kind)}${spec.ready ? ', all ready' : ''}`,
        data,
        results,
      };
    },
  );
}

export const kubernetesChecker: Checker<KubernetesSpec> = {
  type: 'kubernetes',
  schema,
  endpoint: (spec) => [spec.kind, spec.description, spec.namespaceSelector?.name].filter(Boolean).join('/'),
  run,
};

export default kubernetesChecker;
