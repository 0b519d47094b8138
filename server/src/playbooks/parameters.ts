// Playbook parameters, pure: their schema, defaults rendered for a resource (Go templates over
// .config/.component/.check/.user), and the values of a run request checked against their types.
// Values are kept as text, as mission-control passes them to templates (`{{.params.count}}`).
// `secret` values are checked like text and then sealed (secretParams.ts); `connection` values name a
// stored connection, checked against the database when a run is requested (secretParams.ts too).
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { renderTemplate } from '../expr/index.js';

export const PARAMETER_TYPES = [
  'code',
  'checkbox',
  'list',
  'team',
  'people',
  'component',
  'config',
  'check',
  'text',
  'secret',
  'connection',
] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const parameterSchema = z.looseObject({
  name: z
    .string({ error: 'name is required' })
    .regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, 'name must start with a letter or "_" and hold letters, digits, "_" or "-"'),
  label: z.string().optional(),
  description: z.string().optional(),
  icon: z.string().optional(),
  type: z.enum(PARAMETER_TYPES, { error: `type must be one of ${PARAMETER_TYPES.join(', ')}` }).optional(),
  default: z.union([scalar, z.looseObject({}), z.array(z.unknown())]).optional(),
  required: z.boolean().optional(),
  properties: z
    .looseObject({
      size: z.enum(['very-small', 'small', 'medium', 'large', 'full']).optional(),
      language: z.string().optional(),
      jsonSchemaUrl: z.string().optional(),
      options: z.array(z.looseObject({ label: z.string().optional(), value: scalar.transform(String) })).optional(),
      filter: z.unknown().optional(),
      multiline: z.union([z.boolean(), z.string()]).optional(),
      maxLength: z.number().int().nonnegative().optional(),
      minLength: z.number().int().nonnegative().optional(),
      regex: z
        .string()
        .refine(
          (r) => {
            try {
              new RegExp(r);
              return true;
            } catch {
              return false;
            }
          },
          { message: 'not a valid regular expression' },
        )
        .optional(),
      format: z.string().optional(),
      min: z.number().optional(),
      max: z.number().optional(),
    })
    .optional(),
});
export type PlaybookParameter = z.infer<typeof parameterSchema>;

/** A parameter problem: 400 naming the parameter. */
export class ParameterError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

const NUMBER_FORMATS = new Set(['number', 'integer', 'float']);
// A DNS-1123 subdomain (Kubernetes object names): labels joined by dots, at most 253 characters.
const DNS1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const typeOf = (p: PlaybookParameter): ParameterType => p.type ?? 'text';
const labelOf = (p: PlaybookParameter) => (p.label && p.label !== p.name ? `"${p.name}" (${p.label})` : `"${p.name}"`);

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The parameters with `default` rendered as text for this resource and user (templates evaluated). */
export function renderDefaults(
  params: readonly PlaybookParameter[],
  vars: Record<string, unknown>,
): (PlaybookParameter & { default?: string })[] {
  return params.map((p) => {
    if (p.default === undefined) return { ...p, default: undefined };
    const text = asText(p.default);
    let rendered: string;
    try {
      rendered = text.includes('{{') ? renderTemplate(text, vars) : text;
    } catch (e) {
      throw new ParameterError(
        p.name,
        `the default of parameter ${labelOf(p)} cannot be rendered: ${(e as Error).message}`,
      );
    }
    return { ...p, default: rendered };
  });
}

/** One value checked against its parameter; returns it as text. */
export function checkValue(p: PlaybookParameter, raw: unknown): string {
  const where = `parameter ${labelOf(p)}`;
  const type = typeOf(p);
  const props = p.properties ?? {};
  if (type === 'checkbox') {
    if (raw === true || raw === 'true') return 'true';
    if (raw === false || raw === 'false') return 'false';
    throw new ParameterError(p.name, `${where} must be true or false`);
  }
  if (raw !== null && typeof raw === 'object' && type !== 'code')
    throw new ParameterError(p.name, `${where} must be text, not ${Array.isArray(raw) ? 'a list' : 'an object'}`);
  const value = asText(raw);
  if (type === 'list' && props.options?.length) {
    const allowed = props.options.map((o) => o.value);
    if (!allowed.includes(value))
      throw new ParameterError(p.name, `${where} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  if (type === 'code') {
    const language = (props.language ?? 'yaml').toLowerCase();
    try {
      if (language === 'json') JSON.parse(value);
      else if (language === 'yaml') parseYaml(value);
    } catch (e) {
      throw new ParameterError(
        p.name,
        `${where} is not valid ${language.toUpperCase()}: ${(e as Error).message.split('\n')[0]}`,
      );
    }
  }
  if (type === 'text' || type === 'secret') {
    if (props.minLength !== undefined && value.length < props.minLength)
      throw new ParameterError(p.name, `${where} must be at least ${props.minLength} characters long`);
    if (props.maxLength !== undefined && value.length > props.maxLength)
      throw new ParameterError(p.name, `${where} must be at most ${props.maxLength} characters long`);
    if (props.regex && !new RegExp(props.regex).test(value))
      throw new ParameterError(p.name, `${where} must match ${props.regex}`);
    const format = props.format?.toLowerCase();
    if (format && NUMBER_FORMATS.has(format)) {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n) || (format === 'integer' && !Number.isInteger(n)))
        throw new ParameterError(p.name, `${where} must be ${format === 'integer' ? 'a whole number' : 'a number'}`);
      if (props.min !== undefined && n < props.min)
        throw new ParameterError(p.name, `${where} must be at least ${props.min}`);
      if (props.max !== undefined && n > props.max)
        throw new ParameterError(p.name, `${where} must be at most ${props.max}`);
    }
    if (format === 'dns1123' && (value.length > 253 || !DNS1123.test(value)))
      throw new ParameterError(
        p.name,
        `${where} must be a DNS-1123 name: lower-case letters, digits, "-" and ".", at most 253 characters`,
      );
  }
  return value;
}

/**
 * The values of a run: given values checked, defaults (already rendered) filling the rest, required
 * ones present. Unknown names are refused.
 */
export function resolveParams(
  params: readonly (PlaybookParameter & { default?: string })[],
  given: Record<string, unknown>,
): Record<string, string> {
  const known = new Set(params.map((p) => p.name));
  for (const name of Object.keys(given)) {
    if (!known.has(name)) {
      const takes = params.length
        ? `this playbook takes ${params.map((p) => p.name).join(', ')}`
        : 'this playbook takes none';
      throw new ParameterError(name, `unknown parameter "${name}" (${takes})`);
    }
  }
  const out: Record<string, string> = {};
  for (const p of params) {
    const raw = given[p.name];
    const missing = raw === undefined || raw === null || raw === '';
    if (missing) {
      if (p.default !== undefined && p.default !== '') out[p.name] = checkValue(p, p.default);
      else if (p.required) throw new ParameterError(p.name, `parameter ${labelOf(p)} is required`);
      else if (typeOf(p) === 'checkbox') out[p.name] = 'false';
      else out[p.name] = '';
      continue;
    }
    out[p.name] = checkValue(p, raw);
  }
  return out;
}
