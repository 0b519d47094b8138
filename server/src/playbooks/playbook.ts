// The Playbook resource (mission-control.flanksource.com/v1, kind Playbook): validated as users
// write it, with line and column for every problem. `approval` and `on` are checked in
// triggerSpec.ts, `filters` in filters.ts, `retry` in retry.ts; what Opsdeck cannot run yet
// (templatesOn, action-level runsOn, action types such as pod or ai) is refused by name, never
// ignored. `spec.runsOn` names the agent that executes the runs (references.ts checks it exists).
import { z } from 'zod';
import { ExpressionError } from '../expr/index.js';
import { isDuration } from '../connections/duration.js';
import { resourceHeader, storedResource, type StoredResource } from '../resources/metadata.js';
import {
  formatPath,
  ResourceError,
  ResourceErrors,
  validate,
  type Path,
  type ResourceDocument,
} from '../resources/yaml.js';
import { resourceSelectorSchema, selectorProblems, type ResourceSelector } from '../selectors/resourceSelector.js';
import { actionTypes, UNSUPPORTED_ACTION_TYPES, unsupportedActionMessage } from './actions/index.js';
import { checkCondition, checkDelay } from './conditions.js';
import { checkFilters } from './filters.js';
import { parameterSchema, type PlaybookParameter } from './parameters.js';
import { retrySchema, type RetrySpec } from './retry.js';
import type { PlaybookSelectors } from './selectors.js';
import {
  approvalSchema,
  checkApproval,
  checkTriggers,
  triggersSchema,
  type PlaybookApproval,
  type PlaybookTriggers,
} from './triggerSpec.js';

export const PLAYBOOK_API_VERSION = 'mission-control.flanksource.com/v1';
export const DEFAULT_ACTION_TIMEOUT = '5m';

export interface ActionSpec {
  name: string;
  /** CEL; `filter` is accepted as its older name. */
  if?: string;
  delay?: string;
  timeout?: string;
  retry?: RetrySpec;
  /** The action type's key and its body, e.g. exec: {script}. */
  type: string;
  body: Record<string, unknown>;
}

export interface PlaybookSpec extends PlaybookSelectors {
  title?: string;
  description?: string;
  category?: string;
  icon?: string;
  timeout?: string;
  parameters: PlaybookParameter[];
  actions: ActionSpec[];
  /** CEL over the target resource and the caller: all true for the playbook to apply (filters.ts). */
  filters?: string[];
  approval?: PlaybookApproval;
  on?: PlaybookTriggers;
  /** Agent names (or `local`): the first one executes the runs (runsOn.ts). */
  runsOn?: string[];
}

export interface PlaybookDefinition extends StoredResource {
  spec: PlaybookSpec;
  title: string;
  icon: string | null;
  description: string | null;
  category: string | null;
}

const unsupported = (message: string) => z.never({ error: message }).optional();
const duration = z
  .union([
    z.string(),
    z
      .number()
      .nonnegative()
      .transform((n) => `${n}s`),
  ])
  .refine((s) => isDuration(s), { message: 'not a duration (examples: 30s, 5m, 1h)' });

/** Action keys besides the type. */
const ACTION_FIELDS = new Set(['name', 'if', 'filter', 'delay', 'timeout', 'retry']);

const actionSchema = z.looseObject({
  name: z.string({ error: 'name is required' }).min(1, 'name is required'),
  if: z.string().optional(),
  filter: z.string().optional(),
  delay: z.string().optional(),
  timeout: duration.optional(),
  retry: retrySchema.optional(),
  runsOn: unsupported('runsOn is set on the playbook (spec.runsOn), not on one action'),
  templatesOn: unsupported('templatesOn is not supported yet'),
});

const specSchema = z.looseObject({
  title: z.string().optional(),
  description: z.string().optional(),
  category: z.string().optional(),
  icon: z.string().optional(),
  timeout: duration.optional(),
  configs: z.array(resourceSelectorSchema).optional(),
  components: z.array(resourceSelectorSchema).optional(),
  checks: z.array(resourceSelectorSchema).optional(),
  parameters: z.array(parameterSchema).optional(),
  actions: z.array(actionSchema, { error: 'actions is required: a list of at least one action' }).min(1, {
    message: 'a playbook needs at least one action',
  }),
  filters: z.array(z.string({ error: 'a filter is a CEL expression' })).optional(),
  approval: approvalSchema.optional(),
  on: triggersSchema.optional(),
  runsOn: z
    .array(z.string({ error: 'runsOn lists agent names (or local)' }).trim().min(1, 'an agent name is required'))
    .optional(),
  templatesOn: unsupported('templatesOn is not supported yet'),
  env: unsupported('playbook-level env is not supported yet: set env on each exec action'),
});

const resourceSchema = z.looseObject({
  ...resourceHeader(PLAYBOOK_API_VERSION, 'Playbook'),
  spec: z.looseObject({}, { error: 'spec is required' }),
});

type RawSpec = z.infer<typeof specSchema>;

interface CheckedSpec {
  errors: ResourceError[];
  actions: ActionSpec[];
  approval?: PlaybookApproval;
  on?: PlaybookTriggers;
}

function checkSpec(doc: ResourceDocument, spec: RawSpec): CheckedSpec {
  const errors: ResourceError[] = [];
  const error = (path: Path, message: string) => {
    const where = formatPath(path);
    errors.push(new ResourceError(`${where}: ${message}`, doc.locate(path), where));
  };
  const approval = spec.approval && checkApproval(spec.approval, error);
  const on = spec.on && checkTriggers(spec.on, error);
  checkFilters(spec.filters, error);
  for (const field of ['configs', 'components', 'checks'] as const) {
    spec[field]?.forEach((s, i) => {
      for (const p of selectorProblems(s)) error(['spec', field, i, ...p.path], p.message);
    });
  }
  const names = new Set<string>();
  spec.parameters?.forEach((p, i) => {
    if (names.has(p.name)) error(['spec', 'parameters', i, 'name'], `the parameter "${p.name}" is declared twice`);
    names.add(p.name);
    if (p.type === 'list' && !p.properties?.options?.length)
      error(['spec', 'parameters', i, 'properties', 'options'], 'a list parameter needs options [{label, value}]');
  });
  const actionNames = new Set<string>();
  const actions: ActionSpec[] = [];
  spec.actions.forEach((a, i) => {
    const at: Path = ['spec', 'actions', i];
    if (actionNames.has(a.name))
      error([...at, 'name'], `the action name "${a.name}" is used twice: names must be unique`);
    actionNames.add(a.name);
    const supported = [...actionTypes.keys()].join(', ');
    const typeKeys = Object.keys(a).filter((k) => !ACTION_FIELDS.has(k) && a[k] !== undefined);
    for (const k of typeKeys) {
      if (UNSUPPORTED_ACTION_TYPES.includes(k)) error([...at, k], unsupportedActionMessage(k, supported));
      else if (!actionTypes.has(k))
        error([...at, k], `unknown field: an action has name, if, delay, timeout, retry and one of ${supported}`);
    }
    const types = typeKeys.filter((k) => actionTypes.has(k));
    if (types.length === 0 && typeKeys.length === 0) error(at, `an action needs one of ${supported}`);
    if (types.length > 1) error([...at, types[1]!], `an action has exactly one type, found ${types.join(' and ')}`);
    if (a.if !== undefined && a.filter !== undefined)
      error([...at, 'filter'], 'set if or its older name filter, not both');
    const condition = a.if ?? a.filter;
    if (condition !== undefined) {
      try {
        checkCondition(condition);
      } catch (e) {
        error([...at, a.if !== undefined ? 'if' : 'filter'], errorText(e));
      }
    }
    if (a.delay !== undefined) {
      try {
        checkDelay(a.delay);
      } catch (e) {
        error([...at, 'delay'], `not a duration (such as 30s) nor a valid CEL expression: ${errorText(e)}`);
      }
    }
    const type = types[0];
    if (!type) return;
    const action = actionTypes.get(type)!;
    try {
      validate({ data: a[type], locate: doc.locate }, action.schema, [...at, type]);
    } catch (e) {
      if (e instanceof ResourceErrors) errors.push(...e.errors);
      else throw e;
    }
    actions.push({
      name: a.name,
      if: condition,
      delay: a.delay,
      timeout: a.timeout ?? DEFAULT_ACTION_TIMEOUT,
      ...(a.retry ? { retry: a.retry } : {}),
      type,
      body: a[type] as Record<string, unknown>,
    });
  });
  return { errors, actions, approval, on };
}

const errorText = (e: unknown) => (e instanceof ExpressionError || e instanceof Error ? e.message : String(e));

export function parsePlaybook(doc: ResourceDocument): PlaybookDefinition {
  const resource = validate(doc, resourceSchema);
  const spec = validate({ data: resource.spec, locate: doc.locate }, specSchema, ['spec']);
  const { errors, actions, approval, on } = checkSpec(doc, spec);
  if (errors.length) throw new ResourceErrors(errors.slice(0, 50));
  const selectors = (list?: ResourceSelector[]) => (list?.length ? list : undefined);
  return {
    ...storedResource(doc, resource.metadata, ''),
    spec: {
      title: spec.title,
      description: spec.description,
      category: spec.category,
      icon: spec.icon,
      timeout: spec.timeout,
      configs: selectors(spec.configs),
      components: selectors(spec.components),
      checks: selectors(spec.checks),
      parameters: spec.parameters ?? [],
      actions,
      ...(spec.filters?.length ? { filters: spec.filters } : {}),
      ...(approval ? { approval } : {}),
      ...(on ? { on } : {}),
      ...(spec.runsOn?.length ? { runsOn: spec.runsOn } : {}),
    },
    title: spec.title?.trim() || resource.metadata.name,
    icon: spec.icon ?? null,
    description: spec.description ?? null,
    category: spec.category?.trim() || null,
  };
}

/** Parses a stored resource (no positions: it was valid when applied). */
export function parseStoredPlaybook(resource: unknown): PlaybookDefinition {
  return parsePlaybook({ data: resource, locate: () => undefined });
}
