// Resource selectors, pure and shared by the engines (playbooks' configs/components/checks, notification
// silences' selectors): mission-control's ResourceSelector checked as users write it and matched against
// one resource. A selector matches when every field it sets matches:
//
//   id            the resource id (a comma-separated list matches any)
//   name          a name or glob ("web-*"), comma-separated for several; "!x" excludes
//   namespace     as name (configs: the namespace tag; components: their topology's namespace)
//   types / type  a list or comma-separated; "!x" excludes (e.g. [http, "!tcp"])
//   labelSelector Kubernetes-style ("app=web,env!=prod,tier in (a,b),!legacy") over labels
//   tagSelector   the same over a config's tags (configs only)
//   agent         "all" (default) any agent, "local" this server only, or an agent id
//   health        a comma-separated list of health (healthy, unhealthy, warning, unknown)
//   statuses      a list of statuses (config status, component status, check status)
import { z } from 'zod';
import { matchesLabels, parseLabelSelector, stringList, type LabelRequirement } from './labelSelector.js';
import { NO_AGENT } from '../db/agents.js';

export const RESOURCE_KINDS = ['config', 'component', 'check'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export interface ResourceSelector {
  id?: string;
  name?: string;
  namespace?: string;
  type?: string;
  types?: string[] | string;
  labelSelector?: string;
  tagSelector?: string;
  agent?: string;
  health?: string;
  statuses?: string[] | string;
}

/** The fields of a resource the selectors read. */
export interface MatchableResource {
  kind: ResourceKind;
  id: string;
  name: string;
  namespace: string | null;
  type: string | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  agentId: string | null;
  health: string | null;
  status: string | null;
}

export { NO_AGENT };

export const SELECTOR_FIELDS = 'id, name, namespace, types, labelSelector, tagSelector, agent, health or statuses';

/** One selector as users write it: unknown fields are refused by name, never ignored. */
export const resourceSelectorSchema = z.strictObject(
  {
    id: z.string().optional(),
    name: z.string().optional(),
    namespace: z.string().optional(),
    type: z.string().optional(),
    types: z.union([z.string(), z.array(z.string())]).optional(),
    labelSelector: z.string().optional(),
    tagSelector: z.string().optional(),
    agent: z.string().optional(),
    health: z.string().optional(),
    statuses: z.union([z.string(), z.array(z.string())]).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${issue.keys.join(', ')}: not supported in a resource selector (use ${SELECTOR_FIELDS})`
        : undefined,
  },
);

/** What is wrong with a selector the schema accepted, by path below it: empty, or a label selector it cannot read. */
export function selectorProblems(s: ResourceSelector): { path: string[]; message: string }[] {
  const problems: { path: string[]; message: string }[] = [];
  if (Object.values(s).every((v) => v === undefined || v === '' || (Array.isArray(v) && !v.length)))
    problems.push({ path: [], message: 'a selector needs at least one field; an empty one would match everything' });
  for (const key of ['labelSelector', 'tagSelector'] as const) {
    const text = s[key];
    if (text === undefined) continue;
    try {
      parseLabelSelector(text);
    } catch (e) {
      problems.push({ path: [key], message: (e as Error).message });
    }
  }
  return problems;
}

const globRegex = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');

/** A list of values where "!x" excludes and anything else includes (none included: any passes). */
function matchesList(value: string | null, patterns: string[], glob: boolean): boolean {
  const test = (p: string) => (glob ? globRegex(p).test(value ?? '') : (value ?? '').toLowerCase() === p.toLowerCase());
  const include = patterns.filter((p) => !p.startsWith('!'));
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  if (exclude.some(test)) return false;
  return include.length === 0 || include.some(test);
}

/** Parsed label selectors, kept for the next event (a selector is read far more often than it changes). */
const parsed = new Map<string, LabelRequirement[]>();
function labels(text: string): LabelRequirement[] {
  let requirements = parsed.get(text);
  if (!requirements) {
    requirements = parseLabelSelector(text);
    if (parsed.size >= 1000) parsed.clear();
    parsed.set(text, requirements);
  }
  return requirements;
}

/** Whether the resource matches every field the selector sets; a label selector it cannot read throws. */
export function matchesSelector(resource: MatchableResource, selector: ResourceSelector): boolean {
  if (selector.id && !stringList(selector.id).includes(resource.id)) return false;
  if (selector.name && !matchesList(resource.name, stringList(selector.name), true)) return false;
  if (selector.namespace && !matchesList(resource.namespace, stringList(selector.namespace), true)) return false;
  const types = [...stringList(selector.types), ...stringList(selector.type)];
  if (types.length && !matchesList(resource.type, types, true)) return false;
  if (selector.labelSelector && !matchesLabels(resource.labels, labels(selector.labelSelector))) return false;
  if (selector.tagSelector && !matchesLabels(resource.tags, labels(selector.tagSelector))) return false;
  const agent = selector.agent?.trim();
  if (agent && agent !== 'all') {
    const own = resource.agentId ?? NO_AGENT;
    if (agent === 'local' ? own !== NO_AGENT : own !== agent) return false;
  }
  if (selector.health && !matchesList(resource.health, stringList(selector.health), false)) return false;
  const statuses = stringList(selector.statuses);
  if (statuses.length && !matchesList(resource.status, statuses, false)) return false;
  return true;
}
