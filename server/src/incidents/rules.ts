// Incident rules: the IncidentRule resource (YAML, validated with line and column), and one
// evaluation pass that opens an incident when a selected component turns bad, and resolves it
// when the component recovers.
//
//   apiVersion: mission-control.flanksource.com/v1
//   kind: IncidentRule
//   metadata: {name: payments-down}
//   spec:
//     priority: 1              # rules run in ascending priority (then name)
//     components:              # selectors (topology selector syntax); none = every component
//       - {name: "pay*", labelSelector: "team=payments", types: [API], namespace: ops}
//     filter:
//       status: [unhealthy]    # component health (or status text) that opens; default unhealthy, warning
//       severity: [critical]   # optional: the component's labels.severity or a linked check's severity
//     template: {title: "{{.component.name}} is {{.component.health}}", description, severity, type}
//     breakOnMatch: true       # a component this rule matched is not offered to later rules
//     autoResolve: {enabled: true, timeout: 5m}   # resolve after the component is healthy this long
//
// The pass remembers each (rule, component) health in incident_rule_states: an incident opens
// when the component is bad, the rule has no open incident for it, and it was not already bad at
// the previous pass (an incident closed by hand is not reopened until the component recovers and
// fails again).
import { DEFAULT_INCIDENT_SEVERITY, DEFAULT_INCIDENT_TYPE, INCIDENT_SEVERITIES, INCIDENT_TYPES } from '@opsdeck/common';
import { z } from 'zod';
import type { Database, Queryable } from '../db/database.js';
import { durationToMs, parseDuration, renderTemplate } from '../expr/index.js';
import { ResourceError, ResourceErrors, validate, type ResourceDocument } from '../resources/yaml.js';
import { globToLike } from '../selectors/glob.js';
import {
  matchesLabels,
  parseLabelSelector,
  requiredLabels,
  stringList,
  type LabelRequirement,
} from '../selectors/labelSelector.js';
import { createIncident } from './service.js';

export const INCIDENT_RULE_API_VERSION = 'mission-control.flanksource.com/v1';

const durationText = z.string().refine(
  (v) => {
    try {
      parseDuration(v);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'must be a duration like 30s, 5m or 1h' },
);

const selectorSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    namespace: z.string().optional(),
    labelSelector: z
      .string()
      .optional()
      .refine(
        (v) => {
          if (!v) return true;
          try {
            parseLabelSelector(v);
            return true;
          } catch {
            return false;
          }
        },
        { message: 'is not a label selector (use key=value, key!=value, key in (a,b), key or !key)' },
      ),
    type: z.string().optional(),
    types: z.union([z.array(z.string()), z.string()]).optional(),
  })
  .strict();

export const incidentRuleSpecSchema = z
  .object({
    name: z.string().optional(),
    priority: z.number().int().default(0),
    components: z.array(selectorSchema).default([]),
    filter: z
      .object({
        status: z.array(z.string().min(1)).optional(),
        severity: z.array(z.string().min(1)).optional(),
      })
      .strict()
      .default({}),
    template: z
      .object({
        title: z.string().min(1).optional(),
        description: z.string().optional(),
        severity: z.enum(INCIDENT_SEVERITIES, { message: 'Please select incident severity' }).optional(),
        type: z.enum(INCIDENT_TYPES, { message: 'Please select an incident type' }).optional(),
      })
      .strict()
      .default({}),
    breakOnMatch: z.boolean().default(false),
    autoResolve: z
      .object({ enabled: z.boolean().default(false), timeout: durationText.optional() })
      .strict()
      .default({ enabled: false }),
  })
  .strict();

export type IncidentRuleSpec = z.infer<typeof incidentRuleSpecSchema>;

const resourceSchema = z.object({
  apiVersion: z.literal(INCIDENT_RULE_API_VERSION, { message: `must be ${INCIDENT_RULE_API_VERSION}` }),
  kind: z.literal('IncidentRule', { message: 'must be IncidentRule' }),
  metadata: z.object({ name: z.string().min(1, 'is required'), namespace: z.string().optional() }).passthrough(),
  spec: z.unknown(),
});

/** A rule document → its name and spec; errors carry the line and column. */
export function parseIncidentRule(doc: ResourceDocument): { name: string; spec: IncidentRuleSpec } {
  const data = doc.data as Record<string, unknown> | null;
  if (data && typeof data === 'object' && 'kind' in data) {
    const res = validate(doc, resourceSchema);
    const spec = validate({ data: res.spec ?? {}, locate: (p) => doc.locate(['spec', ...p]) }, incidentRuleSpecSchema, [
      'spec',
    ]);
    return { name: res.metadata.name, spec };
  }
  // A bare spec (as the database stores it) with its own name.
  const spec = validate(doc, incidentRuleSpecSchema);
  if (!spec.name) throw new ResourceErrors([new ResourceError('name: is required', doc.locate(['name']), 'name')]);
  return { name: spec.name, spec };
}

/** A stored rule's spec (the whole resource or just the spec); null when it is not valid. */
export function storedRuleSpec(stored: unknown): IncidentRuleSpec | null {
  const raw =
    stored && typeof stored === 'object' && 'spec' in stored && 'kind' in stored
      ? (stored as { spec: unknown }).spec
      : stored;
  const parsed = incidentRuleSpecSchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : null;
}

/** Inserts or updates a rule by name (one transaction per call). */
export async function applyIncidentRule(
  db: Database,
  rule: { name: string; spec: IncidentRuleSpec },
  createdBy: string | null,
): Promise<{ id: string; created: boolean }> {
  return db.transaction(async (tx) => {
    const { rows: existing } = await tx.query<{ id: string }>(
      'SELECT id FROM incident_rules WHERE name = $1 AND deleted_at IS NULL FOR UPDATE',
      [rule.name],
    );
    if (existing[0]) {
      await tx.query('UPDATE incident_rules SET spec = $2, updated_at = now() WHERE id = $1', [
        existing[0].id,
        JSON.stringify(rule.spec),
      ]);
      return { id: existing[0].id, created: false };
    }
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO incident_rules (name, spec, source, created_by) VALUES ($1, $2, 'UI', $3) RETURNING id`,
      [rule.name, JSON.stringify(rule.spec), createdBy],
    );
    return { id: rows[0]!.id, created: true };
  });
}

// ---------------------------------------------------------------------------------------------
// Evaluation

interface ComponentRow {
  id: string;
  name: string;
  type: string | null;
  health: string;
  status: string | null;
  status_reason: string | null;
  labels: Record<string, string>;
  topology_id: string | null;
  severities: string[] | null;
}

const DEFAULT_BAD = ['unhealthy', 'warning'];

async function selectComponents(db: Queryable, spec: IncidentRuleSpec): Promise<ComponentRow[]> {
  const selectors = spec.components.length ? spec.components : [{}];
  const byId = new Map<string, ComponentRow>();
  for (const selector of selectors as z.infer<typeof selectorSchema>[]) {
    const requirements: LabelRequirement[] = selector.labelSelector ? parseLabelSelector(selector.labelSelector) : [];
    const required = requiredLabels(requirements);
    const { rows } = await db.query<ComponentRow>(
      `SELECT c.id, c.name, c.type, c.health, c.status, c.status_reason, c.labels, c.topology_id,
         (SELECT array_agg(DISTINCT ch.severity) FROM check_component_relationships r JOIN checks ch ON ch.id = r.check_id
           WHERE r.component_id = c.id AND r.deleted_at IS NULL AND ch.severity IS NOT NULL) AS severities
       FROM components c
       WHERE c.deleted_at IS NULL
         AND ($1::text IS NULL OR c.id::text = $1)
         AND ($2::text IS NULL OR c.name LIKE $2 ESCAPE '\\')
         AND ($3::text IS NULL OR c.labels->>'namespace' = $3)
         AND (cardinality($4::text[]) = 0 OR c.type = ANY($4::text[]))
         AND ($5::jsonb IS NULL OR c.labels @> $5::jsonb)
       ORDER BY c.id LIMIT 5000`,
      [
        selector.id ?? null,
        selector.name ? globToLike(selector.name) : null,
        selector.namespace ?? null,
        stringList(selector.types ?? selector.type),
        required ? JSON.stringify(required) : null,
      ],
    );
    for (const r of rows) if (matchesLabels(r.labels, requirements)) byId.set(r.id, r);
  }
  return [...byId.values()];
}

/** Whether the component is in a state the rule opens incidents for. */
export function componentMatchesFilter(
  c: Pick<ComponentRow, 'health' | 'status' | 'labels' | 'severities'>,
  spec: IncidentRuleSpec,
): boolean {
  const statuses = spec.filter.status?.length ? spec.filter.status : DEFAULT_BAD;
  if (c.health === 'healthy' && !statuses.includes('healthy')) return false;
  if (!statuses.includes(c.health) && !(c.status && statuses.includes(c.status))) return false;
  const severities = spec.filter.severity;
  if (severities?.length) {
    const own = [c.labels.severity, ...(c.severities ?? [])].filter(Boolean) as string[];
    if (!own.some((s) => severities.includes(s))) return false;
  }
  return true;
}

export interface RulePassResult {
  created: string[];
  resolved: string[];
  errors: string[];
}

interface RuleRow {
  id: string;
  name: string;
  spec: unknown;
}

function render(template: string, vars: Record<string, unknown>): string {
  try {
    return renderTemplate(template, vars);
  } catch {
    return template;
  }
}

/** One pass of every rule over the components. Call under the engine's lease. */
export async function evaluateIncidentRules(db: Database, now = Date.now()): Promise<RulePassResult> {
  const out: RulePassResult = { created: [], resolved: [], errors: [] };
  const { rows: ruleRows } = await db.query<RuleRow>(
    'SELECT id, name, spec FROM incident_rules WHERE deleted_at IS NULL ORDER BY name',
  );
  const rules = ruleRows
    .map((r) => ({ ...r, parsed: storedRuleSpec(r.spec) }))
    .filter((r) => {
      if (!r.parsed) out.errors.push(`incident rule ${r.name}: the stored spec is not valid`);
      return r.parsed !== null;
    })
    .sort((a, b) => a.parsed!.priority - b.parsed!.priority || a.name.localeCompare(b.name));

  const taken = new Set<string>(); // components matched by a breakOnMatch rule
  for (const rule of rules) {
    const spec = rule.parsed!;
    try {
      const components = await selectComponents(db, spec);
      const { rows: states } = await db.query<{ component_id: string; health: string | null; updated_at: string }>(
        'SELECT component_id, health, updated_at FROM incident_rule_states WHERE rule_id = $1',
        [rule.id],
      );
      const previous = new Map(states.map((s) => [s.component_id, s]));
      const { rows: open } = await db.query<{ id: string; component_id: string }>(
        `SELECT id, component_id FROM incidents WHERE incident_rule_id = $1 AND status NOT IN ('resolved', 'closed')`,
        [rule.id],
      );
      const openByComponent = new Map(open.map((o) => [o.component_id, o.id]));
      for (const c of components) {
        if (taken.has(c.id)) continue;
        const bad = componentMatchesFilter(c, spec);
        const before = previous.get(c.id);
        const wasBad = before ? before.health === 'bad' : false;
        const state = bad ? 'bad' : c.health === 'healthy' ? 'healthy' : 'other';
        if (bad && spec.breakOnMatch) taken.add(c.id);
        const openId = openByComponent.get(c.id);
        if (bad && !openId && !wasBad) {
          const vars = { component: c, rule: { id: rule.id, name: rule.name } };
          const created = await createIncident(
            db,
            {
              title: render(spec.template.title ?? '{{.component.name}} is {{.component.health}}', vars),
              description: spec.template.description ? render(spec.template.description, vars) : c.status_reason,
              severity: spec.template.severity ?? DEFAULT_INCIDENT_SEVERITY,
              type: spec.template.type ?? DEFAULT_INCIDENT_TYPE,
              status: 'open',
              commander_id: null,
              communicator_id: null,
              incident_rule_id: rule.id,
              component_id: c.id,
              evidence: {
                type: 'topology',
                description: 'Topology',
                evidence: null,
                component_id: c.id,
                config_id: null,
                check_id: null,
                config_change_id: null,
                config_analysis_id: null,
                definition_of_done: true,
                script: "component.health == 'healthy'",
              },
            },
            null,
          );
          out.created.push(created.id);
        }
        if (state === 'healthy' && openId && spec.autoResolve.enabled) {
          const since = before?.health === 'healthy' ? Date.parse(before.updated_at) : now;
          const wait = spec.autoResolve.timeout ? durationToMs(parseDuration(spec.autoResolve.timeout)) : 0;
          if (now - since >= wait) {
            const { rows } = await db.query(
              `UPDATE incidents SET status = 'resolved' WHERE id = $1 AND status IN ('new', 'open', 'investigating', 'mitigated') RETURNING id`,
              [openId],
            );
            if (rows.length) out.resolved.push(openId);
          }
        }
        if (!before || before.health !== state) {
          await db.query(
            `INSERT INTO incident_rule_states (rule_id, component_id, health, updated_at) VALUES ($1, $2, $3, now())
             ON CONFLICT (rule_id, component_id) DO UPDATE SET health = EXCLUDED.health, updated_at = now()`,
            [rule.id, c.id, state],
          );
        }
      }
    } catch (e) {
      out.errors.push(`incident rule ${rule.name}: ${(e as Error).message}`);
    }
  }
  return out;
}
