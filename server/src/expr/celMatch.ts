// CEL matching and resource helpers of canary-checker's/mission-control's environment:
// matchQuery (a resource against a search query), matchLabel, aws.fromAWSMap/arnToMap and the
// k8s.* health helpers (a compact reading of Kubernetes status: pods, workloads, conditions).

import { type CelRegistrar, entriesOf, listOf, num } from './celFunctions.js';
import { fromCelValue, toCelValue } from './celValues.js';
import { toDisplayString } from './values.js';

const str = (v: unknown): string => toDisplayString(v);

/** A glob with `*` (any run) matched against the whole text, case-insensitively. */
const globMatch = (glob: string, value: string): boolean =>
  new RegExp(
    `^${glob
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  ).test(value);

/** One comma-separated list of patterns ("a,b*,!c") against a value: any include, no exclude. */
function patternsMatch(patterns: string, value: string | undefined): boolean {
  const list = patterns
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const excludes = list.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  const includes = list.filter((p) => !p.startsWith('!'));
  if (excludes.includes('*')) return value === undefined;
  if (value === undefined) return includes.length === 0 && excludes.length > 0;
  if (excludes.some((p) => globMatch(p, value))) return false;
  return includes.length === 0 || includes.some((p) => globMatch(p, value));
}

/** A dotted path in a resource; labels.x / tags.x also as plain keys (labels hold dots: app.kubernetes.io/name). */
function lookup(resource: Record<string, unknown>, key: string): unknown {
  if (key in resource) return resource[key];
  for (const group of ['labels', 'tags']) {
    const bag = resource[group];
    if (key.startsWith(`${group}.`) && bag && typeof bag === 'object') {
      const rest = key.slice(group.length + 1);
      if (rest in bag) return (bag as Record<string, unknown>)[rest];
    }
  }
  let value: unknown = resource;
  for (const part of key.split('.')) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  if (value !== undefined) return value;
  for (const group of ['labels', 'tags']) {
    const bag = resource[group];
    if (bag && typeof bag === 'object' && key in bag) return (bag as Record<string, unknown>)[key];
  }
  return undefined;
}

/**
 * matchQuery(resource, "type=Kubernetes::Pod tags.cluster=homelab name=api-*"): every
 * whitespace-separated term holds. A term is `key=patterns`, `key!=patterns` (comma-separated
 * globs, "!" excludes) or `key>n` / `key<n` (numbers or times); a bare word matches the name.
 */
export function matchQuery(resource: unknown, query: string): boolean {
  const r = Object.fromEntries(entriesOf(fromCelValue(resource), 'matchQuery(): the resource'));
  return query
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .every((term) => {
      const m = /^([^=!<>]+)(!=|>=|<=|=|>|<)(.*)$/.exec(term);
      if (!m) return patternsMatch(term, r.name === undefined ? undefined : str(r.name));
      const [, key, op, want] = m as unknown as [string, string, string, string];
      const raw = lookup(r, key);
      const value = raw === undefined || raw === null ? undefined : str(raw);
      if (op === '=') return patternsMatch(want, value);
      if (op === '!=') return !patternsMatch(want, value);
      if (value === undefined) return false;
      const asNumber = (s: string) => (/^-?[\d.]+$/.test(s) ? Number(s) : Date.parse(s));
      const [a, b] = [asNumber(value), asNumber(want)];
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return op === '>' ? a > b : op === '<' ? a < b : op === '>=' ? a >= b : a <= b;
    });
}

/** matchLabel(labels, key, "a,b*,!c"): "!*" holds when the label is absent. */
export function matchLabel(labels: unknown, key: string, patterns: string): boolean {
  const map = Object.fromEntries(entriesOf(fromCelValue(labels ?? {}), 'matchLabel(): the labels'));
  const value = map[key];
  return patternsMatch(patterns, value === undefined || value === null ? undefined : str(value));
}

// ----------------------------------------------------------------------------- Kubernetes

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

export interface K8sHealth {
  health: 'healthy' | 'unhealthy' | 'warning' | 'unknown';
  status: string;
  ready: boolean;
  message: string;
}

/** A compact health reading of a Kubernetes object (canary-checker results wrap it in `Object`). */
export function k8sHealth(value: unknown): K8sHealth {
  let o = obj(fromCelValue(value));
  if (o.Object && !o.kind) o = obj(o.Object);
  const kind = str(o.kind);
  const status = obj(o.status);
  const spec = obj(o.spec);
  const conditions = Array.isArray(status.conditions) ? status.conditions.map(obj) : [];
  const condition = (type: string) => conditions.find((c) => c.type === type);
  if (obj(o.metadata).deletionTimestamp)
    return { health: 'unknown', status: 'Terminating', ready: false, message: 'being deleted' };
  if (kind === 'Pod') {
    const phase = str(status.phase) || 'Unknown';
    const containers = (Array.isArray(status.containerStatuses) ? status.containerStatuses : []).map(obj);
    const waiting = containers.map((c) => obj(obj(c.state).waiting)).find((w) => w.reason);
    if (phase === 'Succeeded') return { health: 'healthy', status: 'Completed', ready: true, message: '' };
    if (phase === 'Failed')
      return { health: 'unhealthy', status: 'Failed', ready: false, message: str(status.message) };
    if (waiting && /BackOff|Err|Invalid/.test(str(waiting.reason)))
      return { health: 'unhealthy', status: str(waiting.reason), ready: false, message: str(waiting.message) };
    const ready = phase === 'Running' && condition('Ready')?.status === 'True';
    return {
      health: ready ? 'healthy' : phase === 'Pending' ? 'unknown' : 'warning',
      status: phase,
      ready,
      message: str(condition('Ready')?.message ?? ''),
    };
  }
  if (['Deployment', 'StatefulSet', 'ReplicaSet', 'DaemonSet'].includes(kind)) {
    const want = kind === 'DaemonSet' ? num(status.desiredNumberScheduled ?? 0) : num(spec.replicas ?? 1);
    const have = num((kind === 'DaemonSet' ? status.numberReady : status.readyReplicas) ?? 0);
    const ready = have >= want;
    const message = `${have}/${want} ready`;
    if (ready) return { health: 'healthy', status: 'Running', ready, message };
    return { health: have === 0 && want > 0 ? 'unhealthy' : 'warning', status: 'Progressing', ready, message };
  }
  const main = condition('Ready') ?? condition('Available') ?? condition('Healthy');
  if (main) {
    const ok = main.status === 'True';
    return {
      health: ok ? 'healthy' : 'unhealthy',
      status: ok ? str(main.type) : str(main.reason) || 'NotReady',
      ready: ok,
      message: str(main.message ?? ''),
    };
  }
  if (kind === 'Service' && str(spec.type) === 'LoadBalancer') {
    const ingress = obj(status.loadBalancer).ingress;
    const ok = Array.isArray(ingress) && ingress.length > 0;
    return { health: ok ? 'healthy' : 'unknown', status: ok ? 'Running' : 'Provisioning', ready: ok, message: '' };
  }
  // Objects without a status (ConfigMaps, Services, Namespaces...) are fine as they are.
  return { health: 'healthy', status: str(status.phase) || 'Active', ready: true, message: '' };
}

/** Kubernetes quantities: "500m" CPU, "1.5Gi" memory. */
function quantity(text: string, fn: string): number {
  const m = /^([+-]?[\d.]+(?:e[+-]?\d+)?)([a-zA-Z]*)$/.exec(text.trim());
  const factors: Record<string, number> = {
    '': 1,
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    P: 1e15,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    Pi: 2 ** 50,
  };
  const factor = m ? factors[m[2]!] : undefined;
  if (!m || factor === undefined) throw new RangeError(`${fn}: "${text}" is not a Kubernetes quantity`);
  return Number(m[1]) * factor;
}

export function registerMatchFunctions({ fn, ns }: CelRegistrar): void {
  fn('matchQuery(dyn, string): bool', matchQuery);
  fn('matchLabel(dyn, string, string): bool', matchLabel);

  const fromAWSMap = (list: unknown) =>
    Object.fromEntries(
      listOf(fromCelValue(list), 'fromAWSMap()').map((item) => {
        const e = obj(item);
        return [str(e.Name ?? e.Key ?? e.name ?? e.key), str(e.Value ?? e.value)];
      }),
    );
  const arnToMap = (arn: string) => {
    const parts = arn.split(':');
    if (parts.length < 6 || parts[0] !== 'arn') throw new RangeError(`arnToMap(): "${arn}" is not an ARN`);
    return { service: parts[2], region: parts[3], account: parts[4], resource: parts.slice(5).join(':') };
  };
  fn('fromAWSMap(list): map', fromAWSMap);
  ns('aws', 'fromAWSMap(list): map', fromAWSMap);
  fn('arnToMap(string): map', arnToMap);
  ns('aws', 'arnToMap(string): map', arnToMap);

  ns('k8s', 'getHealth(dyn): map', (o: unknown) => toCelValue(k8sHealth(o)));
  ns('k8s', 'getStatus(dyn): string', (o: unknown) => k8sHealth(o).status);
  ns('k8s', 'isHealthy(dyn): bool', (o: unknown) => k8sHealth(o).health === 'healthy');
  ns('k8s', 'isReady(dyn): bool', (o: unknown) => k8sHealth(o).ready);
  ns('k8s', 'cpuAsMillicores(string): int', (s: string) =>
    BigInt(Math.round(quantity(s, 'k8s.cpuAsMillicores()') * 1000)),
  );
  ns('k8s', 'memoryAsBytes(string): int', (s: string) => BigInt(Math.trunc(quantity(s, 'k8s.memoryAsBytes()') + 1e-6)));
  ns('k8s', 'labels(dyn): map', (o: unknown) => {
    let v = obj(fromCelValue(o));
    if (v.Object && !v.kind) v = obj(v.Object);
    const meta = obj(v.metadata);
    const labels = Object.fromEntries(Object.entries(obj(meta.labels)).filter(([k]) => !k.endsWith('-hash')));
    return meta.namespace ? { namespace: str(meta.namespace), ...labels } : labels;
  });
}
