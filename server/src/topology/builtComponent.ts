// The component tree a build produces (BuiltComponent, Property), and how a spec's or a lookup's
// raw values become its fields: text and number coercion, labels, log selectors, properties.
import { logSelectorSchema, normalizeLogSelector, type LogSelector } from '@opsdeck/common';
import type { Health } from './rollup.js';
import type { ConfigSelectorSpec, ParentLookupSpec, ResourceSelectorSpec } from './topology.js';

export interface Property {
  name: string;
  label?: string;
  tooltip?: string;
  icon?: string;
  type?: string;
  color?: string;
  headline?: boolean;
  text?: string;
  value?: number;
  unit?: string;
  max?: number;
  min?: number;
  status?: string;
  links?: unknown[];
  order?: number;
  lastTransition?: string;
}

export interface InlineCheck {
  /** The canary created for it: unique within the run, stable across runs. */
  canaryName: string;
  selectorId: string;
  /** The canary spec (templated when it came from forEach). */
  spec: Record<string, unknown>;
}

export interface Selector<T> {
  id: string;
  selector: T;
}

export interface BuiltComponent {
  name: string;
  type: string | null;
  icon: string | null;
  text: string | null;
  tooltip: string | null;
  labels: Record<string, string>;
  owner: string | null;
  hidden: boolean;
  externalId: string | null;
  status: string | null;
  statusReason: string | null;
  /** The health the spec or a lookup gave the component itself. */
  ownHealth: Health | null;
  properties: Property[];
  /** Where its logs are (`logs:` of the spec), stored as components.log_selectors. */
  logs: LogSelector[];
  checkSelectors: Selector<ResourceSelectorSpec>[];
  inlineChecks: InlineCheck[];
  configs: Selector<ConfigSelectorSpec>[];
  selectors: Selector<ResourceSelectorSpec>[];
  parentLookup: ParentLookupSpec | null;
  teams: string[];
  children: BuiltComponent[];
}

export const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;

export const num = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
};

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export function labelsOf(v: unknown): Record<string, string> {
  if (!isObject(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (val !== null && val !== undefined) out[k] = String(val);
  return out;
}

/** A property as written (spec or lookup) → the stored shape; undefined fields are left out. */
export function normalizeProperty(raw: Record<string, unknown>, fallbackName?: string): Property | null {
  const name = str(raw.name) ?? fallbackName;
  if (!name) return null;
  const p: Property = { name };
  for (const key of ['label', 'tooltip', 'icon', 'type', 'color', 'unit', 'status', 'lastTransition'] as const) {
    const v = str(raw[key]);
    if (v !== null) p[key] = v;
  }
  const value = num(raw.value);
  if (value !== undefined) p.value = value;
  else if (str(raw.value) !== null && raw.text === undefined) p.text = str(raw.value)!;
  if (raw.text !== undefined && str(raw.text) !== null) p.text = str(raw.text)!;
  const max = num(raw.max);
  if (max !== undefined) p.max = max;
  const min = num(raw.min);
  if (min !== undefined) p.min = min;
  if (raw.headline === true || raw.headline === 'true') p.headline = true;
  if (Array.isArray(raw.links)) p.links = raw.links;
  const order = num(raw.order);
  if (order !== undefined) p.order = order;
  return p;
}

export function emptyComponent(name: string): BuiltComponent {
  return {
    name,
    type: null,
    icon: null,
    text: null,
    tooltip: null,
    labels: {},
    owner: null,
    hidden: false,
    externalId: null,
    status: null,
    statusReason: null,
    ownHealth: null,
    properties: [],
    logs: [],
    checkSelectors: [],
    inlineChecks: [],
    configs: [],
    selectors: [],
    parentLookup: null,
    teams: [],
    children: [],
  };
}

/** The valid log selectors of a `logs:` list (the topology schema reports the invalid ones). */
export function logSelectorsOf(raw: unknown): LogSelector[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((s) => {
    const parsed = logSelectorSchema.safeParse(s);
    return parsed.success ? [normalizeLogSelector(parsed.data)] : [];
  });
}
