// The topology builder: a Topology spec → the tree of components one run produces. Pure apart from
// lookups, which are injected (the engine runs them with the health engine's checkers). Ids, the
// database and check links come later (identity.ts, treeStore.ts, componentLinks.ts).
//
// Per component spec: its components (one, or one per lookup result) get the spec's properties,
// checks, configs, selectors and teams; then its children; then forEach (templated with each
// component); then property lookups, whose results may also be merged into the subtree's
// components by name. Siblings with the same name and type are merged into one component.
import crypto from 'node:crypto';
import {
  emptyComponent,
  isObject,
  labelsOf,
  logSelectorsOf,
  normalizeProperty,
  str,
  type BuiltComponent,
  type Property,
} from './builtComponent.js';
import { addUnique, mergeProperties, mergeSiblings } from './componentMerge.js';
import { normalizeHealth } from './rollup.js';
import { selectorId } from './selectors.js';
import { templateValue } from './template.js';
import type {
  ComponentCheckSpec,
  ComponentSpec,
  ConfigSelectorSpec,
  LookupSpec,
  ParentLookupSpec,
  PropertySpec,
  ResourceSelectorSpec,
  TopologyDefinition,
} from './topology.js';

export interface BuildContext {
  topology: { id: string; name: string; namespace: string; labels: Record<string, string> };
  /** Runs a lookup's checks and returns each one's display result (JSON-parsed when it is JSON). */
  lookup(spec: LookupSpec, name: string): Promise<unknown[]>;
  maxComponents?: number;
  maxDepth?: number;
}

export interface BuildResult {
  root: BuiltComponent;
  errors: string[];
  /** A lookup failed or a limit was hit: what is missing must not be taken as removed. */
  incomplete: boolean;
  count: number;
}

/** Components one topology may produce (a cluster-wide lookup of pods can reach tens of thousands). */
export const MAX_COMPONENTS = 50_000;
export const MAX_DEPTH = 30;

/** The variables forEach templates see. */
function templateVars(c: BuiltComponent, topology: BuildContext['topology']): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const p of c.properties) properties[p.name] = p.value ?? p.text ?? null;
  return {
    component: {
      name: c.name,
      type: c.type,
      icon: c.icon,
      text: c.text,
      tooltip: c.tooltip,
      labels: c.labels,
      owner: c.owner,
      external_id: c.externalId,
      status: c.status,
      health: c.ownHealth,
      properties: c.properties,
    },
    properties,
    topology,
  };
}

class Builder {
  readonly errors: string[] = [];
  incomplete = false;
  count = 0;
  private readonly maxComponents: number;
  private readonly maxDepth: number;
  private limitReported = false;

  constructor(private readonly ctx: BuildContext) {
    this.maxComponents = ctx.maxComponents ?? MAX_COMPONENTS;
    this.maxDepth = ctx.maxDepth ?? MAX_DEPTH;
  }

  /** Counts a new component; false (once reported) past the limits. */
  private admit(where: string, depth: number): boolean {
    if (depth > this.maxDepth) {
      this.errors.push(`${where}: components nest deeper than ${this.maxDepth} levels; the rest is left out`);
      this.incomplete = true;
      return false;
    }
    if (this.count >= this.maxComponents) {
      if (!this.limitReported)
        this.errors.push(
          `${where}: a topology may have at most ${this.maxComponents} components; the rest is left out`,
        );
      this.limitReported = true;
      this.incomplete = true;
      return false;
    }
    this.count++;
    return true;
  }

  private async runLookup(lookup: LookupSpec, name: string, where: string): Promise<unknown[] | null> {
    try {
      const values = await this.ctx.lookup(lookup, name);
      return values.flatMap((v) => (Array.isArray(v) ? v : [v]));
    } catch (e) {
      this.errors.push(`${where}: ${(e as Error).message}`);
      this.incomplete = true;
      return null;
    }
  }

  /** A component from the spec's own fields. */
  private fromSpec(spec: ComponentSpec): BuiltComponent {
    const c = emptyComponent(spec.name!);
    c.type = str(spec.type);
    c.icon = str(spec.icon);
    c.text = str(spec.text) ?? str(spec.label);
    c.tooltip = str(spec.tooltip);
    c.labels = labelsOf(spec.labels);
    c.owner = str(spec.owner);
    c.hidden = spec.hidden === true;
    c.externalId = str(spec.external_id) ?? str(spec.externalID) ?? str(spec.externalId);
    c.status = str(spec.status);
    c.statusReason = str(spec.statusReason) ?? str(spec.status_reason);
    c.ownHealth = normalizeHealth(spec.health) ?? normalizeHealth(spec.status);
    c.logs = logSelectorsOf(spec.logs);
    return c;
  }

  /** A component a lookup returned, with the spec's type, icon, owner and labels as defaults. */
  private fromJson(raw: unknown, defaults: ComponentSpec | null, where: string, depth: number): BuiltComponent | null {
    if (typeof raw === 'string' && raw !== '') raw = { name: raw };
    if (!isObject(raw) || str(raw.name) === null) {
      this.errors.push(`${where}: a component from a lookup needs a name, got ${JSON.stringify(raw)?.slice(0, 100)}`);
      return null;
    }
    if (!this.admit(where, depth)) return null;
    const c = emptyComponent(str(raw.name)!);
    c.type = str(raw.type) ?? str(defaults?.type);
    c.icon = str(raw.icon) ?? str(defaults?.icon);
    c.text = str(raw.text);
    c.tooltip = str(raw.tooltip);
    c.labels = { ...labelsOf(defaults?.labels), ...labelsOf(raw.labels) };
    c.owner = str(raw.owner) ?? str(defaults?.owner);
    c.hidden = raw.hidden === true || (raw.hidden === undefined && defaults?.hidden === true);
    c.externalId = str(raw.external_id) ?? str(raw.externalID) ?? str(raw.externalId);
    c.status = str(raw.status);
    c.statusReason = str(raw.status_reason) ?? str(raw.statusReason);
    c.ownHealth = normalizeHealth(raw.health) ?? normalizeHealth(raw.status);
    c.logs = logSelectorsOf(raw.logs ?? defaults?.logs);
    if (Array.isArray(raw.properties)) {
      raw.properties.forEach((p, i) => {
        const prop = isObject(p) ? normalizeProperty(p) : null;
        if (prop) c.properties = mergeProperties(c.properties, [prop]);
        else this.errors.push(`${where}.properties[${i}]: a property needs a name`);
      });
    }
    if (Array.isArray(raw.configs)) {
      addUnique(
        c.configs,
        raw.configs.filter(isObject).map((s) => ({ id: selectorId('config', s), selector: s })),
      );
    }
    if (Array.isArray(raw.components)) {
      raw.components.forEach((child, i) => {
        const built = this.fromJson(child, null, `${where}.components[${i}]`, depth + 1);
        if (built) c.children.push(built);
      });
    }
    return c;
  }

  private attachChecks(c: BuiltComponent, checks: readonly ComponentCheckSpec[] | undefined) {
    for (const check of checks ?? []) {
      if (check.selector)
        addUnique(c.checkSelectors, [{ id: selectorId('check', check.selector), selector: check.selector }]);
      if (check.inline) c.inlineChecks.push({ canaryName: '', selectorId: '', spec: check.inline });
    }
  }

  private attach(
    c: BuiltComponent,
    from: {
      checks?: ComponentCheckSpec[];
      configs?: ConfigSelectorSpec[];
      selectors?: ResourceSelectorSpec[];
      parentLookup?: ParentLookupSpec;
      teams?: string[];
    },
  ) {
    this.attachChecks(c, from.checks);
    addUnique(
      c.configs,
      (from.configs ?? []).map((s) => ({ id: selectorId('config', s), selector: s })),
    );
    addUnique(
      c.selectors,
      (from.selectors ?? []).map((s) => ({ id: selectorId('component', s), selector: s })),
    );
    if (from.parentLookup) c.parentLookup = from.parentLookup;
    if (from.teams) c.teams = [...new Set([...c.teams, ...from.teams])];
  }

  private staticProperties(c: BuiltComponent, properties: readonly PropertySpec[] | undefined, where: string) {
    (properties ?? []).forEach((p, i) => {
      if (p.lookup) return;
      const prop = normalizeProperty(p);
      if (prop) c.properties = mergeProperties(c.properties, [prop]);
      else this.errors.push(`${where}[${i}]: a property needs a name`);
    });
  }

  /** Runs a property's lookup and applies what it returns to the component (or its subtree). */
  private async lookupProperty(c: BuiltComponent, p: PropertySpec, where: string) {
    const values = await this.runLookup(p.lookup!, p.name ?? c.name, `${where}.lookup`);
    if (!values) return;
    const own: Record<string, unknown> = { ...p };
    delete own.lookup;
    let scalar = false;
    for (const v of values) {
      if (isObject(v) && Array.isArray(v.properties) && str(v.name) !== null) {
        this.mergeByName(c, v, where);
      } else if (isObject(v) && str(v.name) !== null) {
        const prop = normalizeProperty(v);
        if (prop) c.properties = mergeProperties(c.properties, [prop]);
      } else if (isObject(v)) {
        Object.assign(own, v);
        scalar = true;
      } else if (typeof v === 'number') {
        own.value = v;
        scalar = true;
      } else if (v !== null && v !== undefined) {
        own.text = String(v);
        scalar = true;
      }
    }
    if (scalar) {
      const prop = normalizeProperty(own);
      if (prop) c.properties = mergeProperties(c.properties, [prop]);
      else this.errors.push(`${where}: a property lookup returning a value needs the property's name`);
    }
  }

  /** `{name, properties}` from a property lookup → merged into every component of that name in the subtree. */
  private mergeByName(owner: BuiltComponent, item: Record<string, unknown>, where: string) {
    const name = str(item.name)!;
    const props = (item.properties as unknown[])
      .filter(isObject)
      .map((p) => normalizeProperty(p))
      .filter((p): p is Property => p !== null);
    let found = 0;
    const walk = (c: BuiltComponent) => {
      if (c.name === name) {
        c.properties = mergeProperties(c.properties, props);
        found++;
      }
      c.children.forEach(walk);
    };
    walk(owner);
    if (!found) this.errors.push(`${where}.lookup: no component named "${name}" to merge properties into`);
  }

  /** All the components one spec produces (one, or one per lookup result), each fully built. */
  async build(spec: ComponentSpec, where: string, depth: number): Promise<BuiltComponent[]> {
    let produced: BuiltComponent[];
    if (spec.lookup) {
      const values = await this.runLookup(spec.lookup, spec.name ?? 'lookup', `${where}.lookup`);
      if (!values) return [];
      produced = [];
      values.forEach((v, i) => {
        const c = this.fromJson(v, spec, `${where}.lookup[${i}]`, depth);
        if (c) produced.push(c);
      });
    } else {
      if (!spec.name) {
        this.errors.push(`${where}: a component needs a name`);
        return [];
      }
      if (!this.admit(where, depth)) return [];
      produced = [this.fromSpec(spec)];
    }

    for (const c of produced) {
      this.staticProperties(c, spec.properties, `${where}.properties`);
      this.attach(c, spec);
      for (const [i, child] of (spec.components ?? []).entries()) {
        c.children.push(...(await this.build(child, `${where}.components[${i}]`, depth + 1)));
      }
      const propertyLookups: [PropertySpec, string][] = (spec.properties ?? []).flatMap((p, i) =>
        p.lookup ? [[p, `${where}.properties[${i}]`] as [PropertySpec, string]] : [],
      );
      if (spec.forEach) {
        const at = `${where}.forEach`;
        const each = templateValue(spec.forEach, templateVars(c, this.ctx.topology), (path, message) =>
          this.errors.push(`${at}.${path} (${c.name}): ${message}`),
        );
        this.staticProperties(c, each.properties, `${at}.properties`);
        this.attach(c, each);
        for (const [i, child] of (each.components ?? []).entries()) {
          c.children.push(...(await this.build(child, `${at}.components[${i}]`, depth + 1)));
        }
        (each.properties ?? []).forEach((p, i) => {
          if (p.lookup) propertyLookups.push([p, `${at}.properties[${i}]`]);
        });
      }
      for (const [p, at] of propertyLookups) await this.lookupProperty(c, p, at);
      c.children = mergeSiblings(c.children);
    }
    return produced;
  }
}

/** `my-topology` + `Web API` → `my-topology-web-api`: a valid canary name. */
export function canaryNameFor(topology: string, component: string, index: number): string {
  const base = `${topology}-${component}${index > 0 ? `-${index + 1}` : ''}`
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .slice(0, 200)
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return base || 'topology-check';
}

/** Names every inline check's canary: readable, unique within the run, stable across runs. */
function nameInlineChecks(root: BuiltComponent, topology: string) {
  const used = new Set<string>();
  const walk = (c: BuiltComponent, trail: string) => {
    const here = `${trail}/${c.name}\u0000${c.type ?? ''}`;
    c.inlineChecks.forEach((check, i) => {
      let name = canaryNameFor(topology, c.name, i);
      if (used.has(name)) {
        const hash = crypto.createHash('sha256').update(`${here}#${i}`).digest('hex').slice(0, 8);
        name = `${name.slice(0, 190)}-${hash}`;
      }
      used.add(name);
      check.canaryName = name;
      check.selectorId = `inline:${name}`;
    });
    c.children.forEach((child) => walk(child, here));
  };
  walk(root, '');
}

export async function buildTopology(def: TopologyDefinition, ctx: BuildContext): Promise<BuildResult> {
  const builder = new Builder(ctx);
  const [root] = await builder.build(def.root, 'spec', 0);
  const tree = root ?? emptyComponent(def.name);
  nameInlineChecks(tree, def.name);
  return { root: tree, errors: builder.errors, incomplete: builder.incomplete, count: builder.count };
}
