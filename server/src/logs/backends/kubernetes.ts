// The Kubernetes log backend: pod logs through the API server when a kubeconfig is configured (the
// entry's, its connection's certificate, else KUBECONFIG). The selector picks pods (`namespace`,
// `pod`, `container` are special; other keys are pod labels); each container's newest lines
// (timestamps on, since the range's start) are merged newest first and paged by time. The pods/log
// API has no end time, only a tail: a container read at TAIL_LINES may have older lines in the
// range that no page can reach; the page that gets there says so (`truncated`).
import { kubernetesEntrySchema, type KubernetesEntry, type LogLine } from '@opsdeck/common';
import type { KubeConfig } from '@kubernetes/client-node';
import { abortable } from '../../connections/index.js';
import { loadKubeConfig, loadKubernetesClient } from '../../kubeconfig.js';
import { decodeCursor, encodeCursor } from './query.js';
import { LogBackendError, LogRequestError, type EntryProblem, type LogBackend } from './types.js';

/** Lines read per container and pods read per request: the memory of a request stays bounded. */
export const TAIL_LINES = 5000;
const MAX_PODS = 20;

interface PodCursor {
  v: 1;
  /** The oldest time (ms) of the previous page and the lines at it already shown. */
  before: number;
  seen: string[];
}

const isPodCursor = (v: unknown): v is PodCursor =>
  typeof v === 'object' &&
  v !== null &&
  (v as PodCursor).v === 1 &&
  Number.isFinite((v as PodCursor).before) &&
  Array.isArray((v as PodCursor).seen);

async function kubeconfigOf(
  entry: KubernetesEntry,
  connection: (ref: string) => Promise<{ certificate: string | null } | undefined>,
): Promise<KubeConfig | undefined> {
  let text = entry.kubeconfig;
  if (!text && entry.connection) {
    const conn = await connection(entry.connection);
    if (!conn) throw new LogRequestError(`connection ${entry.connection} was not found`);
    text = conn.certificate ?? undefined;
  }
  try {
    return await loadKubeConfig(text);
  } catch (e) {
    throw new LogRequestError((e as Error).message);
  }
}

export const kubernetesBackend: LogBackend<KubernetesEntry> = {
  type: 'kubernetes',
  schema: kubernetesEntrySchema,

  async problems(entry, ctx) {
    const out: EntryProblem[] = [];
    if (entry.connection && !(await ctx.connection(entry.connection)))
      out.push({ path: ['connection'], message: `no connection "${entry.connection}"` });
    else if (entry.kubeconfig) {
      try {
        await loadKubeConfig(entry.kubeconfig);
      } catch (e) {
        out.push({ path: ['kubeconfig'], message: (e as Error).message });
      }
    }
    return out;
  },

  async search(entries, query, ctx) {
    const entry = entries[0]!;
    const kc = await kubeconfigOf(entry, ctx.connection);
    if (!kc)
      throw new LogRequestError(
        'no kubeconfig is configured: set kubeconfig or a Kubernetes connection on the backend, or KUBECONFIG on the server',
      );
    const cursor = decodeCursor(query.cursor, isPodCursor);
    const { namespace: ns, pod, container, ...podLabels } = query.selector;
    const namespace = ns ?? entry.namespace ?? 'default';
    const { CoreV1Api } = await loadKubernetesClient();
    const api = kc.makeApiClient(CoreV1Api);
    const call = async <T>(p: Promise<T>): Promise<T> => {
      try {
        return await abortable(ctx.signal, p);
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        const err = e as { code?: unknown; message?: string };
        throw new LogBackendError(
          typeof err.code === 'number' ? `HTTP ${err.code} from the API server` : (err.message ?? String(e)),
        );
      }
    };
    const labelSelector = Object.entries(podLabels)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const pods = pod
      ? [await call(api.readNamespacedPod({ name: pod, namespace }))]
      : (await call(api.listNamespacedPod({ namespace, labelSelector: labelSelector || undefined, limit: MAX_PODS })))
          .items;
    const sinceSeconds = Math.max(1, Math.ceil((Date.now() - query.start.getTime()) / 1000));
    const endMs = Math.min(query.end.getTime(), cursor?.before ?? Infinity);
    const seen = new Set(cursor?.seen ?? []);
    const lines: (LogLine & { ms: number })[] = [];
    /** Containers whose tail was full: the oldest time read (older lines in range are not read). */
    const clipped: { name: string; oldest: number }[] = [];
    for (const p of pods.slice(0, MAX_PODS)) {
      const name = p.metadata?.name ?? '';
      const containers = (p.spec?.containers ?? []).map((c) => c.name).filter((c) => !container || c === container);
      for (const c of containers) {
        const text = await call(
          api.readNamespacedPodLog({
            name,
            namespace,
            container: c,
            timestamps: true,
            tailLines: TAIL_LINES,
            sinceSeconds,
          }),
        );
        const all = String(text).split('\n');
        const read = all.filter((raw) => raw.length > 0);
        if (read.length >= TAIL_LINES) {
          const oldest = Date.parse(read[0]!.slice(0, read[0]!.indexOf(' ')));
          if (Number.isFinite(oldest) && oldest > query.start.getTime()) clipped.push({ name: `${name}/${c}`, oldest });
        }
        // A line's id is its time and its place among lines of the same time: the same in every read
        // (a position in the tail would move as lines arrive and the window's start moves).
        const atTime = new Map<string, number>();
        all.forEach((raw) => {
          const sp = raw.indexOf(' ');
          const ms = Date.parse(raw.slice(0, sp));
          const message = raw.slice(sp + 1);
          if (!raw || sp < 0 || Number.isNaN(ms)) return;
          const stamp = raw.slice(0, sp);
          const nth = (atTime.get(stamp) ?? 0) + 1;
          atTime.set(stamp, nth);
          if (ms > endMs || ms < query.start.getTime()) return;
          if (query.match && !query.match.test(message)) return;
          const id = `${name}/${c}:${stamp}:${nth}`;
          if (ms === cursor?.before && seen.has(id)) return;
          lines.push({
            id,
            ms,
            timestamp: new Date(ms).toISOString(),
            message,
            labels: { ...entry.labels, namespace, pod: name, container: c },
          });
        });
      }
    }
    lines.sort((a, b) => b.ms - a.ms);
    const page = lines.slice(0, query.limit);
    const oldest = page.at(-1);
    const atOldest = oldest ? page.filter((l) => l.ms === oldest.ms).map((l) => l.id) : [];
    const carried = oldest && cursor?.before === oldest.ms ? cursor.seen : [];
    const more = lines.length > query.limit && oldest;
    // The page reaches back to where a full tail stops: older lines of that container are missing.
    const reach = clipped.length ? Math.max(...clipped.map((x) => x.oldest)) : undefined;
    const truncated =
      reach !== undefined && (!more || oldest!.ms <= reach)
        ? {
            before: new Date(reach).toISOString(),
            message:
              `Kubernetes returns only the newest ${TAIL_LINES} lines of a container, so older lines are not shown: ` +
              `${clipped.map((x) => `${x.name} before ${new Date(x.oldest).toISOString()}`).join(', ')}.`,
          }
        : undefined;
    return {
      results: page.map(({ ms: _ms, ...l }) => l),
      nextCursor: more
        ? encodeCursor({ v: 1, before: oldest.ms, seen: [...carried, ...atOldest] } satisfies PodCursor)
        : null,
      ...(truncated && { truncated }),
    };
  },
};
