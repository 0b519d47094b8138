// Turns the documents a scraper read into catalog items, with the fields all scraper entries share:
// `items` (JSONPath splitting one document into many), `id`/`name`/`type`/`class` (a literal, a
// JSONPath `$.x` or a Go template `{{.x}}`), `transform` (a script, `exclude`, `mask`,
// `relationship`), parent references (Kubernetes ownerReferences and namespaces) and a health
// derived from Kubernetes-style status fields.
import crypto from 'node:crypto';
import type { LogSelector } from '@opsdeck/common';
import { JSONPath } from 'jsonpath-plus';
import { evaluateCel, evaluateJsonPath, renderTemplate, runJavascript } from '../expr/index.js';
import { normalize } from './changes.js';
import { itemLogSelectors } from './logs.js';
import type { BaseScraperSpec, RawDocument, RelationshipRule, TransformSpec } from './scraper.js';

export type Health = 'healthy' | 'unhealthy' | 'warning' | 'unknown';

/** A reference to another item of the same scrape, resolved to an id when the items are saved. */
export interface ItemRef {
  externalId?: string;
  /** Matches the item type exactly, or its last `::` part (Kind). */
  type?: string;
  name?: string;
  namespace?: string;
}

export interface ItemLink {
  ref: ItemRef;
  /** 'parent' for owner references, `relationship:<n>` for transform.relationship rules. */
  selectorId: string;
  /** The referenced item is the parent (it becomes config_id, this item related_id). */
  parent: boolean;
  relation?: string;
}

export interface ScrapedItem {
  externalId: string;
  type: string;
  configClass: string;
  name: string;
  description: string | null;
  status: string | null;
  health: Health | null;
  ready: boolean | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  config: unknown;
  format: 'json' | 'yaml';
  source: string;
  /** Where its logs are (the entry's `logs`, rendered over the config); null: none said. */
  logs?: LogSelector[] | null;
  /** The first owner reference (or namespace) becomes parent_id. */
  parent?: ItemRef;
  links: ItemLink[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** A field as written: `$...` is JSONPath, `{{...}}` a Go template, anything else a literal. */
export function lookupField(field: string | undefined, data: unknown): string | undefined {
  if (field === undefined || field === '') return undefined;
  if (field.startsWith('$')) {
    const v = evaluateJsonPath(field, data);
    return str(Array.isArray(v) ? v[0] : v);
  }
  if (field.includes('{{')) return renderTemplate(field, data);
  return field;
}

/** Evaluates a transform script on a config: the new config, or a list of configs. */
async function runScript(t: TransformSpec, config: unknown, item: Record<string, unknown>): Promise<unknown> {
  const s = t.script ?? t;
  const vars = { config, item, ...(isObject(config) ? { ...config, config } : {}) };
  if (s.expr) return evaluateCel(s.expr, vars);
  if (s.javascript) return runJavascript(s.javascript, vars);
  const jp = s.jsonpath ?? s.jsonPath;
  if (jp) return evaluateJsonPath(jp, config);
  const tpl = s.gotemplate ?? s.template;
  if (tpl) {
    const out = renderTemplate(tpl, vars).trim();
    try {
      return JSON.parse(out) as unknown;
    } catch {
      throw new Error(`transform gotemplate must render JSON, got ${JSON.stringify(out.slice(0, 100))}`);
    }
  }
  return config;
}

/** Removes every place a JSONPath matches (transform.exclude). */
function removePath(config: unknown, path: string) {
  pointerMatches(path, config).forEach(({ parent, key }) => {
    if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
    else if (isObject(parent)) delete parent[key as string];
  });
}

/** Replaces every place a JSONPath matches (transform.mask): md5sum of the value, or a literal. */
function maskPath(config: unknown, path: string, value: string) {
  for (const { parent, key } of pointerMatches(path, config)) {
    const current = (parent as Record<string | number, unknown>)[key];
    (parent as Record<string | number, unknown>)[key] = value === 'md5sum' ? md5sum(current) : value;
  }
}

/** config-db's md5sum: of text as it is, of anything else as JSON (keys sorted, indented 2, nulls left out). */
export function md5sum(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(sortedWithoutNulls(value), null, 2);
  return crypto
    .createHash('md5')
    .update(text ?? 'null')
    .digest('hex');
}

function sortedWithoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedWithoutNulls);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .filter((k) => v[k] !== null && v[k] !== undefined)
      .map((k) => [k, sortedWithoutNulls(v[k])]),
  );
}

/** A JSONPath as config-db reads it: `$.a`, `.a` and `a` are all the root's field a. */
export function rootedPath(path: string): string {
  if (path.startsWith('$')) return path;
  return path.startsWith('.') || path.startsWith('[') ? `$${path}` : `$.${path}`;
}

/**
 * config-db's type match (collections.MatchItems): `*` wildcards, `!` negations; a value matches
 * when no negation matches and (there are only negations, or a pattern matches).
 */
export function matchesTypes(value: string, patterns: string[]): boolean {
  const glob = (p: string) =>
    new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(value);
  const negative = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  const positive = patterns.filter((p) => !p.startsWith('!'));
  if (negative.some(glob)) return false;
  return positive.length === 0 || positive.some(glob);
}

/** The parent container and key of every match (last index first, so removals keep indexes valid). */
function pointerMatches(path: string, data: unknown): { parent: unknown; key: string | number }[] {
  const results = JSONPath({
    path: rootedPath(path),
    json: data as null,
    resultType: 'all',
    eval: 'safe',
  }) as { parent: unknown; parentProperty: string | number }[];
  return results
    .filter((r) => r.parent !== null && r.parent !== undefined)
    .map((r) => ({ parent: r.parent, key: r.parentProperty }))
    .sort((a, b) => (typeof b.key === 'number' && typeof a.key === 'number' ? b.key - a.key : 0));
}

/** Health from Kubernetes-style fields: pods by phase, workloads by ready replicas; otherwise null. */
export function kubernetesHealth(config: unknown): {
  health: Health | null;
  status: string | null;
  ready: boolean | null;
} {
  if (!isObject(config) || typeof config.kind !== 'string') return { health: null, status: null, ready: null };
  const status = isObject(config.status) ? config.status : {};
  const spec = isObject(config.spec) ? config.spec : {};
  switch (config.kind) {
    case 'Pod': {
      const phase = str(status.phase) ?? 'Unknown';
      const health: Health =
        phase === 'Running' || phase === 'Succeeded'
          ? 'healthy'
          : phase === 'Failed'
            ? 'unhealthy'
            : phase === 'Pending'
              ? 'warning'
              : 'unknown';
      return { health, status: phase, ready: phase === 'Running' || phase === 'Succeeded' };
    }
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet': {
      const want = typeof spec.replicas === 'number' ? spec.replicas : 1;
      const ready = typeof status.readyReplicas === 'number' ? status.readyReplicas : 0;
      const health: Health = ready >= want ? 'healthy' : ready === 0 && want > 0 ? 'unhealthy' : 'warning';
      return { health, status: want === 0 ? 'Scaled to zero' : `${ready}/${want} ready`, ready: ready >= want };
    }
    case 'Namespace': {
      const phase = str(status.phase) ?? 'Active';
      return { health: phase === 'Active' ? 'healthy' : 'warning', status: phase, ready: phase === 'Active' };
    }
    default:
      return { health: 'healthy', status: null, ready: null };
  }
}

/** A relationship rule field: literal, `{value}`, `{expr}` (CEL) or JSONPath `$.x`. */
function ruleValue(field: RelationshipRule['name'], config: unknown): string | undefined {
  if (field === undefined) return undefined;
  if (typeof field === 'string') return lookupField(field, config);
  if (field.value !== undefined) return field.value;
  if (field.expr) return str(evaluateCel(field.expr, { ...(isObject(config) ? config : {}), config }));
  return undefined;
}

export interface ExtractResult {
  items: ScrapedItem[];
  errors: string[];
}

/** Turns the documents of one scraper entry into items; errors name the document they came from. */
export async function extractItems(spec: BaseScraperSpec, docs: RawDocument[], where: string): Promise<ExtractResult> {
  const items: ScrapedItem[] = [];
  const errors: string[] = [];
  for (const doc of docs) {
    let parts: unknown[] = [doc.data];
    if (spec.items) {
      const found = evaluateJsonPath(spec.items, doc.data);
      parts = found === undefined ? [] : Array.isArray(found) ? found : [found];
    }
    for (let i = 0; i < parts.length; i++) {
      const label = parts.length > 1 ? `${doc.source}[${i}]` : doc.source;
      try {
        items.push(...(await toItems(spec, doc, parts[i], label)));
      } catch (e) {
        errors.push(`${where}: ${label}: ${(e as Error).message}`);
      }
    }
  }
  return { items, errors };
}

async function toItems(spec: BaseScraperSpec, doc: RawDocument, part: unknown, label: string): Promise<ScrapedItem[]> {
  let configs: unknown[] = [structuredClone(part)];
  const t = spec.transform;
  const hasScript =
    !!t && !!(t.script ?? t.expr ?? t.javascript ?? t.jsonpath ?? t.jsonPath ?? t.gotemplate ?? t.template);
  if (t && hasScript) {
    const out = await runScript(t, configs[0], { source: label });
    const parsed = typeof out === 'string' ? (JSON.parse(out) as unknown) : out;
    configs = Array.isArray(parsed) ? parsed : [parsed];
  }
  const out: ScrapedItem[] = [];
  configs.forEach((c, n) => {
    // A script may return config-db's result shape {id, name, type, config}.
    const shaped = hasScript && isObject(c) && 'config' in c && ('id' in c || 'type' in c) ? c : undefined;
    const config = shaped ? shaped.config : c;
    const suffix = configs.length > 1 ? `#${n}` : '';
    const externalId = str(shaped?.id) ?? lookupField(spec.id, config) ?? doc.defaults?.id ?? `${label}${suffix}`;
    const type = str(shaped?.type) ?? lookupField(spec.type, config) ?? doc.defaults?.type;
    if (!type)
      throw new Error('type is required: set type (a literal such as "File::Config" or a JSONPath like $.kind)');
    const name = str(shaped?.name) ?? lookupField(spec.name, config) ?? doc.defaults?.name ?? externalId;
    const configClass = lookupField(spec.class, config) ?? doc.defaults?.class ?? type;
    for (const ex of t?.exclude ?? []) {
      const rule = typeof ex === 'string' ? { jsonpath: ex } : ex;
      if ('types' in rule && rule.types?.length && !matchesTypes(type, rule.types)) continue;
      removePath(config, rule.jsonpath);
    }
    // A mask's selector sees config-db's item map (config, id, name, config_type, config_class,
    // labels, tags) and the config's fields; one that fails (a missing field) does not match.
    for (const m of t?.mask ?? []) {
      if (m.selector) {
        const vars = {
          ...(isObject(config) ? config : {}),
          ...{ config, id: externalId, name, config_type: type, config_class: configClass },
          ...{ labels: spec.labels ?? {}, tags: spec.tags ?? {}, format: doc.format ?? 'json', source: label },
        };
        let selected: unknown = false;
        try {
          selected = evaluateCel(m.selector, vars);
        } catch {
          selected = false;
        }
        if (selected !== true) continue;
      }
      maskPath(config, m.jsonpath, m.value);
    }
    const meta = isObject(config) && isObject(config.metadata) ? config.metadata : undefined;
    const namespace = str(meta?.namespace);
    const labels = { ...(spec.labels ?? {}) };
    if (meta && isObject(meta.labels)) for (const [k, v] of Object.entries(meta.labels)) labels[k] = str(v) ?? '';
    const tags = { ...(doc.defaults?.tags ?? {}), ...(spec.tags ?? {}) };
    if (namespace) tags.namespace ??= namespace;
    const k8s = kubernetesHealth(config);
    const item: ScrapedItem = {
      externalId,
      type,
      configClass,
      name,
      description: spec.description ?? null,
      status: k8s.status,
      health: k8s.health,
      ready: k8s.ready,
      labels,
      tags,
      config: normalize(config),
      format: doc.format ?? 'json',
      source: label,
      logs: itemLogSelectors(spec.logs, (f) => lookupField(f, config)),
      links: [],
    };
    // Owner references: the first is the parent; all become relationships.
    const owners = Array.isArray(meta?.ownerReferences) ? meta.ownerReferences.filter(isObject) : [];
    for (const o of owners) {
      const ref: ItemRef = { externalId: str(o.uid), type: str(o.kind), name: str(o.name), namespace };
      item.parent ??= ref;
      item.links.push({ ref, selectorId: 'parent', parent: true });
    }
    if (!item.parent && namespace && isObject(config) && config.kind !== 'Namespace') {
      const ref: ItemRef = { type: 'Namespace', name: namespace };
      item.parent = ref;
      item.links.push({ ref, selectorId: 'parent', parent: true });
    }
    t?.relationship?.forEach((rule, r) => {
      const vars = { ...(isObject(config) ? config : {}), config };
      if (rule.filter && evaluateCel(rule.filter, vars) !== true) return;
      const ref: ItemRef = {
        externalId: ruleValue(rule.id ?? rule.external_id, config),
        type: ruleValue(rule.type, config),
        name: ruleValue(rule.name, config),
        namespace: ruleValue(rule.namespace, config),
      };
      if (!ref.externalId && !ref.name && !ref.type) return;
      item.links.push({ ref, selectorId: `relationship:${r}`, parent: !!rule.parent, relation: rule.relation });
    });
    out.push(item);
  });
  return out;
}
