// A check's `metrics[]` as canary-checker defines them: {name, type (gauge | counter | histogram),
// value (a CEL expression giving a number), labels: [{name, value} | {name, valueExpr}]}. Evaluated
// after the check's test with the same variables; the values are exported on /metrics under the
// names given (metrics/custom.ts). An expression that fails, or a value that is not a number, fails
// the check with the metric's name, as canary-checker does.
import { z } from 'zod';
import { evaluateScript } from '../expr/index.js';
import { toDisplayString } from '../expr/values.js';
import type { Metric } from './checker.js';

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const labelSchema = z
  .looseObject({
    name: z
      .string({ error: 'a label needs a name' })
      .regex(LABEL_NAME, 'a label name is letters, digits and "_", not starting with a digit')
      .refine((n) => !n.startsWith('__'), 'label names starting with "__" are reserved by Prometheus'),
    value: z.union([z.string(), z.number(), z.boolean()]).transform(String).optional(),
    valueExpr: z.string().optional(),
  })
  .refine((l) => !(l.value !== undefined && l.valueExpr), { message: 'give value or valueExpr, not both' });

export const metricSpecSchema = z.looseObject({
  name: z
    .string({ error: 'a metric needs a name' })
    .regex(METRIC_NAME, 'a metric name is letters, digits, "_" and ":", not starting with a digit')
    .refine((n) => !n.startsWith('opsdeck_'), 'names starting with "opsdeck_" are the server\u2019s own metrics'),
  type: z.enum(['gauge', 'counter', 'histogram'], { error: 'type must be gauge, counter or histogram' }),
  value: z.string({ error: 'value is required: a CEL expression giving a number' }).min(1, 'value is required'),
  labels: z
    .array(labelSchema)
    .optional()
    .refine((ls) => new Set((ls ?? []).map((l) => l.name)).size === (ls ?? []).length, 'a label is listed twice'),
});

export type MetricSpec = z.infer<typeof metricSpecSchema>;

/** The check's metrics[] evaluated against `vars`; throws an Error naming the metric that failed. */
export async function evaluateMetrics(specs: unknown, vars: Record<string, unknown>): Promise<Metric[]> {
  if (!Array.isArray(specs) || !specs.length) return [];
  const out: Metric[] = [];
  for (const raw of specs) {
    const parsed = metricSpecSchema.safeParse(raw);
    if (!parsed.success) continue; // refused at apply; a row stored before that is skipped
    const spec = parsed.data;
    try {
      const v = await evaluateScript({ expr: spec.value }, vars);
      const text = toDisplayString(v).trim();
      const value = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : text ? Number(text) : NaN;
      if (typeof v === 'boolean' || !Number.isFinite(value)) {
        throw new Error(`${text || JSON.stringify(text)} is not a number`);
      }
      const labels: Record<string, string> = {};
      for (const l of spec.labels ?? []) {
        labels[l.name] = l.valueExpr
          ? toDisplayString(await evaluateScript({ expr: l.valueExpr }, vars))
          : (l.value ?? '');
      }
      out.push({ name: spec.name, type: spec.type, value, labels });
    } catch (e) {
      throw new Error(`metric ${spec.name}: ${(e as Error).message}`);
    }
  }
  return out;
}
