// The Canary resource (canaries.flanksource.com/v1): validated as users write it, turned into the
// canary row and one check row per entry of each check-type list.
import { z } from 'zod';
import { javascriptErrors, scriptErrors, scriptFields } from '../resources/scripts.js';
import { formatPath, ResourceError, ResourceErrors, validate, type ResourceDocument } from '../resources/yaml.js';
import type { Checker } from './checker.js';
import { parseSchedule } from '../jobs/schedule.js';
import { dependencyErrors, type LocatedCheck } from './dependsOn.js';

export const CANARY_API_VERSION = 'canaries.flanksource.com/v1';

/** Spec fields that are not lists of checks. */
const CANARY_FIELDS = new Set([
  'schedule',
  'interval',
  'owner',
  'severity',
  'icon',
  'env',
  'replicas',
  'resultMode',
  'timeout',
  'labels',
]);

const labelsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String));

const resourceSchema = z.looseObject({
  apiVersion: z.literal(CANARY_API_VERSION, { error: `apiVersion must be ${CANARY_API_VERSION}` }),
  kind: z.literal('Canary', { error: 'kind must be Canary' }),
  metadata: z.looseObject({
    name: z
      .string({ error: 'metadata.name is required' })
      .min(1, 'metadata.name is required')
      .max(253)
      .regex(
        /^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$/i,
        'use letters, digits, "-", "_" and "." (starting and ending with a letter or digit)',
      ),
    namespace: z.string().min(1).max(253).optional(),
    labels: labelsSchema.optional(),
  }),
  spec: z.looseObject({
    schedule: z.string().optional(),
    interval: z.number().optional(),
    owner: z.string().optional(),
    severity: z.string().optional(),
    labels: labelsSchema.optional(),
  }),
});

export interface CheckDefinition {
  type: string;
  name: string;
  description: string | null;
  icon: string | null;
  labels: Record<string, string>;
  owner: string | null;
  severity: string | null;
  endpoint: string;
  /** The check's entry as written (unknown fields kept). */
  spec: Record<string, unknown>;
}

export interface CanaryDefinition {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  schedule: string;
  /** The whole resource as written (kept for reading back as YAML). */
  resource: Record<string, unknown>;
  checks: CheckDefinition[];
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function parseCanary(doc: ResourceDocument, checkers: ReadonlyMap<string, Checker>): CanaryDefinition {
  const resource = validate(doc, resourceSchema);
  const spec = resource.spec as Record<string, unknown>;
  const errors: ResourceError[] = [];
  let schedule = '';
  try {
    schedule = parseSchedule(resource.spec.schedule, resource.spec.interval).text;
  } catch (e) {
    errors.push(
      new ResourceError(`spec.schedule: ${(e as Error).message}`, doc.locate(['spec', 'schedule']), 'spec.schedule'),
    );
  }
  const checks: CheckDefinition[] = [];
  const located: LocatedCheck[] = [];
  const supported = [...checkers.keys()].sort().join(', ');
  for (const [key, value] of Object.entries(spec)) {
    if (CANARY_FIELDS.has(key) || !Array.isArray(value)) continue;
    const checker = checkers.get(key);
    if (!checker) {
      errors.push(
        new ResourceError(
          `spec.${key}: check type "${key}" is not supported (supported: ${supported})`,
          doc.locate(['spec', key]),
          `spec.${key}`,
        ),
      );
      continue;
    }
    const seen = new Set<string>();
    value.forEach((entry, i) => {
      const path = ['spec', key, i];
      try {
        // validate() prefixes issue paths with `path`, so the document's own locate applies as is.
        const parsed = validate({ data: entry, locate: doc.locate }, checker.schema, path) as Record<
          string,
          unknown
        > & {
          name: string;
        };
        if (seen.has(parsed.name)) {
          errors.push(
            new ResourceError(
              `${formatPath([...path, 'name'])}: another ${key} check is already named "${parsed.name}"`,
              doc.locate([...path, 'name']),
            ),
          );
          return;
        }
        seen.add(parsed.name);
        // test/display/transform and metrics: a syntax error or unknown function is refused here.
        errors.push(...scriptErrors(doc, scriptFields(parsed, path)));
        checks.push({
          type: key,
          name: parsed.name,
          description: str(parsed.description),
          icon: str(parsed.icon),
          labels: { ...(resource.spec.labels ?? {}), ...labelsSchema.catch({}).parse(parsed.labels ?? {}) },
          owner: str(parsed.owner) ?? str(resource.spec.owner),
          severity: str(parsed.severity) ?? str(resource.spec.severity),
          endpoint: checker.endpoint(parsed),
          spec: parsed,
        });
        located.push({ type: key, name: parsed.name, spec: parsed, path });
      } catch (e) {
        if (e instanceof ResourceErrors) errors.push(...e.errors);
        else throw e;
      }
    });
  }
  errors.push(...dependencyErrors(located, doc.locate));
  if (checks.length === 0 && errors.length === 0) {
    errors.push(
      new ResourceError(
        `spec: a Canary needs at least one check (supported types: ${supported})`,
        doc.locate(['spec']),
        'spec',
      ),
    );
  }
  if (errors.length) throw new ResourceErrors(errors);
  return {
    name: resource.metadata.name,
    namespace: resource.metadata.namespace ?? 'default',
    labels: resource.metadata.labels ?? {},
    schedule,
    resource: doc.data as Record<string, unknown>,
    checks,
  };
}

/**
 * parseCanary, plus the JavaScript of its checks compiled (without running): what the apply
 * endpoints use. parseCanary alone (sync) already refuses bad CEL and templates.
 */
export async function parseCanaryChecked(
  doc: ResourceDocument,
  checkers: ReadonlyMap<string, Checker>,
): Promise<CanaryDefinition> {
  const def = parseCanary(doc, checkers);
  const spec = (doc.data as { spec?: Record<string, unknown> }).spec ?? {};
  const fields = Object.entries(spec).flatMap(([key, list]) =>
    checkers.has(key) && Array.isArray(list) ? list.flatMap((entry, i) => scriptFields(entry, ['spec', key, i])) : [],
  );
  const errors = await javascriptErrors(doc, fields);
  if (errors.length) throw new ResourceErrors(errors);
  return def;
}
