// The Topology resource (canaries.flanksource.com/v1, kind Topology): validated as users write it,
// with line and column for every problem, unknown fields kept. Lookups and inline checks are
// validated with the health engine's own check schemas, so a topology that applies will run.
import { logSelectorSchema, type LogSelectorSpec } from '@opsdeck/common';
import { z } from 'zod';
import { CANARY_API_VERSION, parseCanary } from '../health/canary.js';
import type { Checker } from '../health/checker.js';
import { parseSchedule } from '../jobs/schedule.js';
import { labelsSchema, resourceHeader, storedResource, type StoredResource } from '../resources/metadata.js';
import {
  formatPath,
  ResourceError,
  ResourceErrors,
  validate,
  type Path,
  type ResourceDocument,
} from '../resources/yaml.js';
import { parseLabelSelector } from './selectors.js';

export const TOPOLOGY_API_VERSION = CANARY_API_VERSION;
export const DEFAULT_TOPOLOGY_SCHEDULE = '@every 5m';

/** A check spec fragment: check type → entries, e.g. `{http: [{url, display: {javascript}}]}`. */
export type LookupSpec = Record<string, Record<string, unknown>[]>;

export interface PropertySpec {
  name?: string;
  label?: string;
  tooltip?: string;
  icon?: string;
  type?: string;
  color?: string;
  headline?: boolean;
  text?: string;
  value?: number | string;
  unit?: string;
  max?: number | string;
  min?: number | string;
  status?: string;
  links?: unknown[];
  order?: number;
  /** A check whose display returns the property (text, a number, an object) or a list of them. */
  lookup?: LookupSpec;
  [key: string]: unknown;
}

/** Selects existing checks or components. */
export interface ResourceSelectorSpec {
  id?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  type?: string;
  types?: string[] | string;
  [key: string]: unknown;
}

export interface ComponentCheckSpec {
  selector?: ResourceSelectorSpec;
  /** A Canary spec run by the health engine as a canary of its own. */
  inline?: Record<string, unknown>;
}

/** A catalog selector (id, name, namespace, type/types, labelSelector, tagSelector...), kept as written. */
export type ConfigSelectorSpec = Record<string, unknown>;

export interface ParentLookupSpec {
  name?: string;
  type?: string;
  namespace?: string;
  externalID?: string;
}

export interface ForEachSpec {
  components?: ComponentSpec[];
  properties?: PropertySpec[];
  checks?: ComponentCheckSpec[];
  configs?: ConfigSelectorSpec[];
  selectors?: ResourceSelectorSpec[];
}

export interface ComponentSpec {
  name?: string;
  type?: string;
  icon?: string;
  text?: string;
  tooltip?: string;
  label?: string;
  labels?: Record<string, string>;
  owner?: string;
  hidden?: boolean;
  externalID?: string;
  externalId?: string;
  external_id?: string;
  status?: string;
  statusReason?: string;
  status_reason?: string;
  health?: string;
  properties?: PropertySpec[];
  lookup?: LookupSpec;
  forEach?: ForEachSpec;
  checks?: ComponentCheckSpec[];
  configs?: ConfigSelectorSpec[];
  components?: ComponentSpec[];
  selectors?: ResourceSelectorSpec[];
  parentLookup?: ParentLookupSpec;
  teams?: string[];
  /** Where the component's logs are (canary-checker's LogSelector; `labels` read as `selector`). */
  logs?: LogSelectorSpec[];
  [key: string]: unknown;
}

export interface TopologyDefinition extends StoredResource {
  /** The topology's own component: the spec, named after the resource. */
  root: ComponentSpec;
}

const text = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const lookupSchema = z.record(
  z.string(),
  z.array(z.looseObject({}), { error: 'a lookup lists checks per type, e.g. http: [{url: ..., display: ...}]' }),
);
const stringOrList = z.union([z.string(), z.array(z.string())]);

const propertySchema = z.looseObject({
  name: text.optional(),
  label: z.string().optional(),
  tooltip: z.string().optional(),
  icon: z.string().optional(),
  type: z.string().optional(),
  color: z.string().optional(),
  headline: z.boolean().optional(),
  text: text.optional(),
  value: z.union([z.number(), z.string()]).optional(),
  unit: z.string().optional(),
  max: z.union([z.number(), z.string()]).optional(),
  min: z.union([z.number(), z.string()]).optional(),
  status: z.string().optional(),
  links: z.array(z.unknown()).optional(),
  order: z.number().optional(),
  lookup: lookupSchema.optional(),
});

const selectorSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  labelSelector: z.string().optional(),
  type: z.string().optional(),
  types: stringOrList.optional(),
});

const componentCheckSchema = z.looseObject({
  selector: selectorSchema.optional(),
  inline: z.looseObject({}).optional(),
});

const configSelectorSchema = z.looseObject({});

const parentLookupSchema = z.looseObject({
  name: z.string().optional(),
  type: z.string().optional(),
  namespace: z.string().optional(),
  externalID: z.string().optional(),
});

const healthSchema = z.string().optional();

// Recursive through components and forEach.components.
const componentSchema: z.ZodType<unknown> = z.lazy(() =>
  z.looseObject({
    name: text.optional(),
    type: z.string().optional(),
    icon: z.string().optional(),
    text: text.optional(),
    tooltip: z.string().optional(),
    label: z.string().optional(),
    labels: labelsSchema.optional(),
    owner: z.string().optional(),
    hidden: z.boolean().optional(),
    externalID: text.optional(),
    externalId: text.optional(),
    external_id: text.optional(),
    status: z.string().optional(),
    statusReason: z.string().optional(),
    status_reason: z.string().optional(),
    health: healthSchema,
    properties: z.array(propertySchema).optional(),
    lookup: lookupSchema.optional(),
    forEach: z
      .looseObject({
        components: z.array(componentSchema).optional(),
        properties: z.array(propertySchema).optional(),
        checks: z.array(componentCheckSchema).optional(),
        configs: z.array(configSelectorSchema).optional(),
        selectors: z.array(selectorSchema).optional(),
      })
      .optional(),
    checks: z.array(componentCheckSchema).optional(),
    configs: z.array(configSelectorSchema).optional(),
    components: z.array(componentSchema).optional(),
    selectors: z.array(selectorSchema).optional(),
    parentLookup: parentLookupSchema.optional(),
    teams: z.array(z.string()).optional(),
    logs: z.array(logSelectorSchema).optional(),
  }),
);

const resourceSchema = z.looseObject({
  ...resourceHeader(TOPOLOGY_API_VERSION, 'Topology'),
  spec: z.looseObject({
    schedule: z.string().optional(),
    interval: z.number().optional(),
  }),
});

const SELECTOR_FIELDS = ['id', 'name', 'namespace', 'labelSelector', 'type', 'types'];
const HEALTH_WORDS = ['healthy', 'unhealthy', 'warning', 'unknown'];

/** Validates what zod cannot: check types, lookups, inline canaries, selectors, names. */
class SpecChecker {
  readonly errors: ResourceError[] = [];

  constructor(
    private readonly doc: ResourceDocument,
    private readonly checkers: ReadonlyMap<string, Checker>,
  ) {}

  private error(path: Path, message: string) {
    const where = formatPath(path);
    this.errors.push(new ResourceError(`${where}: ${message}`, this.doc.locate(path), where));
  }

  lookup(lookup: LookupSpec, path: Path, fallbackName: string) {
    const supported = [...this.checkers.keys()].sort().join(', ');
    let count = 0;
    for (const [type, entries] of Object.entries(lookup)) {
      count += entries.length;
      const checker = this.checkers.get(type);
      if (!checker) {
        this.error([...path, type], `check type "${type}" is not supported (supported: ${supported})`);
        continue;
      }
      entries.forEach((entry, i) => {
        const at = [...path, type, i];
        try {
          validate(
            { data: { name: fallbackName, ...entry }, locate: (p) => this.doc.locate([...at, ...p]) },
            checker.schema,
            at,
          );
        } catch (e) {
          if (e instanceof ResourceErrors) this.errors.push(...e.errors);
          else throw e;
        }
        if (!entry.display || typeof entry.display !== 'object')
          this.error(
            at,
            'a lookup needs a display (javascript, expr or template) that returns the result as JSON, e.g. a list of components',
          );
      });
    }
    if (count === 0) this.error(path, `a lookup needs at least one check (supported types: ${supported})`);
  }

  selector(selector: ResourceSelectorSpec, path: Path) {
    if (!SELECTOR_FIELDS.some((f) => selector[f] !== undefined && selector[f] !== '')) {
      this.error(
        path,
        `a selector needs at least one of ${SELECTOR_FIELDS.join(', ')}; an empty one would match everything`,
      );
    }
    if (typeof selector.labelSelector === 'string') {
      try {
        parseLabelSelector(selector.labelSelector);
      } catch (e) {
        this.error([...path, 'labelSelector'], (e as Error).message);
      }
    }
  }

  inline(spec: Record<string, unknown>, path: Path) {
    const prefix = formatPath(path);
    try {
      parseCanary(
        {
          data: { apiVersion: CANARY_API_VERSION, kind: 'Canary', metadata: { name: 'inline' }, spec },
          locate: (p) => this.doc.locate(p[0] === 'spec' ? [...path, ...p.slice(1)] : path),
          locateIn: (p, inner) => (p[0] === 'spec' ? this.doc.locateIn?.([...path, ...p.slice(1)], inner) : undefined),
        },
        this.checkers,
      );
    } catch (e) {
      if (!(e instanceof ResourceErrors)) throw e;
      // The canary's errors name `spec...`: say where in the topology they are.
      for (const err of e.errors) {
        const suffix = err.position ? ` (line ${err.position.line}, column ${err.position.column})` : '';
        const message = err.message.endsWith(suffix) ? err.message.slice(0, err.message.length - suffix.length) : '';
        this.errors.push(
          new ResourceError(
            message.replace(/^spec(?=[.[:])/, prefix),
            err.position,
            err.path?.replace(/^spec(?=[.[]|$)/, prefix),
            err.scriptPosition,
          ),
        );
      }
    }
  }

  checks(checks: ComponentCheckSpec[], path: Path) {
    checks.forEach((check, i) => {
      const at = [...path, i];
      if (!!check.selector === !!check.inline) {
        this.error(at, 'a check needs exactly one of selector (existing checks) or inline (a canary spec)');
        return;
      }
      if (check.selector) this.selector(check.selector, [...at, 'selector']);
      if (check.inline) this.inline(check.inline, [...at, 'inline']);
    });
  }

  properties(properties: PropertySpec[], path: Path, owner: string) {
    properties.forEach((p, i) => {
      const at = [...path, i];
      if (p.lookup) this.lookup(p.lookup, [...at, 'lookup'], p.name ?? owner);
      else if (p.name === undefined || p.name === '') this.error([...at, 'name'], 'a property needs a name');
    });
  }

  configs(configs: ConfigSelectorSpec[], path: Path) {
    configs.forEach((c, i) => {
      if (Object.keys(c).length === 0) this.error([...path, i], 'a config selector needs at least one field');
    });
  }

  component(spec: ComponentSpec, path: Path, isRoot = false) {
    const name = spec.name ?? 'lookup';
    if (isRoot && spec.lookup)
      this.error([...path, 'lookup'], 'the topology itself cannot have a lookup: put it on one of its components');
    else if (!spec.lookup && (spec.name === undefined || spec.name === ''))
      this.error([...path, 'name'], 'a component needs a name (or a lookup that returns the components)');
    if (spec.health !== undefined && !HEALTH_WORDS.includes(spec.health.toLowerCase()))
      this.error([...path, 'health'], `health must be one of ${HEALTH_WORDS.join(', ')}`);
    if (spec.lookup && !isRoot) this.lookup(spec.lookup, [...path, 'lookup'], name);
    if (spec.properties) this.properties(spec.properties, [...path, 'properties'], name);
    if (spec.checks) this.checks(spec.checks, [...path, 'checks']);
    if (spec.configs) this.configs(spec.configs, [...path, 'configs']);
    spec.selectors?.forEach((s, i) => this.selector(s, [...path, 'selectors', i]));
    spec.components?.forEach((c, i) => this.component(c, [...path, 'components', i]));
    const each = spec.forEach;
    if (each) {
      const at = [...path, 'forEach'];
      if (each.properties) this.properties(each.properties, [...at, 'properties'], name);
      if (each.checks) this.checks(each.checks, [...at, 'checks']);
      if (each.configs) this.configs(each.configs, [...at, 'configs']);
      each.selectors?.forEach((s, i) => this.selector(s, [...at, 'selectors', i]));
      each.components?.forEach((c, i) => this.component(c, [...at, 'components', i]));
    }
  }
}

export function parseTopology(doc: ResourceDocument, checkers: ReadonlyMap<string, Checker>): TopologyDefinition {
  const resource = validate(doc, resourceSchema);
  const spec = validate({ data: resource.spec, locate: (p) => doc.locate(['spec', ...p]) }, componentSchema, [
    'spec',
  ]) as ComponentSpec;
  const errors: ResourceError[] = [];
  let schedule = '';
  try {
    schedule = parseSchedule(
      resource.spec.schedule ?? (resource.spec.interval === undefined ? DEFAULT_TOPOLOGY_SCHEDULE : undefined),
      resource.spec.interval,
    ).text;
  } catch (e) {
    errors.push(
      new ResourceError(`spec.schedule: ${(e as Error).message}`, doc.locate(['spec', 'schedule']), 'spec.schedule'),
    );
  }
  const root: ComponentSpec = { ...spec, name: resource.metadata.name };
  delete root.schedule;
  delete root.interval;
  root.labels = { ...(resource.metadata.labels ?? {}), ...(spec.labels ?? {}) };
  if (root.text === undefined && typeof spec.label === 'string') root.text = spec.label;
  const checker = new SpecChecker(doc, checkers);
  checker.component(root, ['spec'], true);
  errors.push(...checker.errors);
  if (errors.length) throw new ResourceErrors(errors.slice(0, 50));
  return {
    ...storedResource(doc, resource.metadata, schedule),
    root,
  };
}

/** Parses a stored resource (no positions: it was valid when applied). */
export function parseStoredTopology(
  resource: Record<string, unknown>,
  checkers: ReadonlyMap<string, Checker>,
): TopologyDefinition {
  return parseTopology({ data: resource, locate: () => undefined }, checkers);
}
