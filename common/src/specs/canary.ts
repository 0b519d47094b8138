// The Canary resource (canaries.flanksource.com/v1) as the settings editor checks it before
// sending it to the server, and the HTTP check form (spec/3 §2 check fields, §5 HTTP methods,
// response codes and number rules). The server validates every check type fully; this schema
// covers the envelope and the http check, and lets everything else through.
import { z } from 'zod';
import type { JsonSchema } from '../jsonSchema.js';

export const CANARY_API_VERSION = 'canaries.flanksource.com/v1';

/** Health check kinds of spec/3 §2 (what the UI knows by name; the server says which it runs). */
export const CHECK_KINDS = [
  'http',
  'awsConfigRule',
  'awsConfig',
  'github',
  'ec2',
  'ldap',
  'pod',
  'exec',
  'alertManager',
  'cloudwatch',
  'elasticsearch',
  'redis',
  'mongo',
  'dns',
  'icmp',
  'gcs',
  's3',
  'smb',
  'sftp',
  'folder',
  'prometheus',
  'kubernetes',
  'sql',
  'configDB',
  'azureDevops',
  'jmeter',
  'junit',
  'dynatrace',
  'namespace',
  'tcp',
  'custom',
] as const;

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
/** Methods that send a body (spec/3 §5: body only for POST and PUT). */
export const METHODS_WITH_BODY: readonly HttpMethod[] = ['POST', 'PUT'];
export const RESPONSE_CODES = [200, 201, 202, 204, 301, 302, 401, 404, 500, 502, 503] as const;

export const FIELD_REQUIRED = 'This field is required';
export const FIELD_NOT_A_NUMBER = 'This field must be a number';
export const FIELD_NEGATIVE = 'This field must be 0 or more';

const labels = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
const script = z.looseObject({
  expr: z.string().optional(),
  template: z.string().optional(),
  javascript: z.string().optional(),
  jsonPath: z.string().optional(),
});

/** An http check as written in the spec (unknown fields allowed). */
export const httpCheckSpecSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  icon: z.string().optional(),
  labels: labels.optional(),
  url: z.string().optional(),
  endpoint: z.string().optional(),
  method: z.string().optional(),
  body: z.string().optional(),
  headers: z.unknown().optional(),
  responseCodes: z.array(z.number().int().min(100).max(599)).optional(),
  thresholdMillis: z.number().min(0).optional(),
  responseContent: z.string().optional(),
  maxSSLExpiry: z.number().min(0).optional(),
  test: script.optional(),
  display: script.optional(),
  transform: script.optional(),
});
export type HttpCheckSpec = z.infer<typeof httpCheckSpecSchema>;

export const canaryResourceSchema = z.looseObject({
  apiVersion: z.literal(CANARY_API_VERSION),
  kind: z.literal('Canary'),
  metadata: z.looseObject({
    name: z.string().min(1),
    namespace: z.string().min(1).optional(),
    labels: labels.optional(),
  }),
  spec: z.looseObject({
    schedule: z.string().optional(),
    interval: z.number().optional(),
    http: z.array(httpCheckSpecSchema).optional(),
  }),
});
export type CanaryResource = z.infer<typeof canaryResourceSchema>;

export const canaryResourceJsonSchema = z.toJSONSchema(canaryResourceSchema) as JsonSchema;

// ---------------------------------------------------------------------------------------------
// The HTTP check form: what the inputs hold (text), checked with the form's messages.

/** A number input's text: required or optional, a number, at least 0. */
function numberText(required: boolean) {
  return z.string().superRefine((text, ctx) => {
    const t = text.trim();
    if (!t) {
      if (required) ctx.addIssue({ code: 'custom', message: FIELD_REQUIRED });
      return;
    }
    const n = Number(t);
    if (!Number.isFinite(n)) ctx.addIssue({ code: 'custom', message: FIELD_NOT_A_NUMBER });
    else if (n < 0) ctx.addIssue({ code: 'custom', message: FIELD_NEGATIVE });
  });
}

export const SCRIPT_KINDS = [
  { value: 'none', label: 'None' },
  { value: 'template', label: 'Go Template' },
  { value: 'javascript', label: 'Javascript' },
  { value: 'expr', label: 'Expr' },
  { value: 'jsonPath', label: 'JSONPath' },
] as const;
export type ScriptKind = (typeof SCRIPT_KINDS)[number]['value'];

const scriptForm = z.object({
  kind: z.enum(['none', 'template', 'javascript', 'expr', 'jsonPath']),
  text: z.string(),
});

export const httpCheckFormSchema = z
  .object({
    name: z.string().trim().min(1, FIELD_REQUIRED),
    description: z.string(),
    url: z.string().trim().min(1, FIELD_REQUIRED),
    method: z.enum(HTTP_METHODS),
    body: z.string(),
    responseCodes: z.array(z.number().int()),
    thresholdMillis: numberText(true),
    maxSSLExpiry: numberText(false),
    responseContent: z.string(),
    test: scriptForm,
    display: scriptForm,
  })
  .superRefine((v, ctx) => {
    for (const key of ['test', 'display'] as const) {
      if (v[key].kind !== 'none' && !v[key].text.trim())
        ctx.addIssue({ code: 'custom', message: FIELD_REQUIRED, path: [key, 'text'] });
    }
  });
export type HttpCheckForm = z.infer<typeof httpCheckFormSchema>;

function scriptOf(s: unknown): HttpCheckForm['test'] {
  if (s && typeof s === 'object') {
    for (const kind of ['expr', 'javascript', 'template', 'jsonPath'] as const) {
      const text = (s as Record<string, unknown>)[kind];
      if (typeof text === 'string') return { kind, text };
    }
  }
  return { kind: 'none', text: '' };
}

/** An http check entry as form values. */
export function httpCheckToForm(spec: Partial<HttpCheckSpec>): HttpCheckForm {
  const method = String(spec.method ?? 'GET').toUpperCase();
  return {
    name: spec.name ?? '',
    description: spec.description ?? '',
    url: spec.url ?? spec.endpoint ?? '',
    method: (HTTP_METHODS as readonly string[]).includes(method) ? (method as HttpMethod) : 'GET',
    body: spec.body ?? '',
    responseCodes: Array.isArray(spec.responseCodes) ? spec.responseCodes.map(Number) : [],
    thresholdMillis: spec.thresholdMillis === undefined ? '' : String(spec.thresholdMillis),
    maxSSLExpiry: spec.maxSSLExpiry === undefined ? '' : String(spec.maxSSLExpiry),
    responseContent: spec.responseContent ?? '',
    test: scriptOf(spec.test),
    display: scriptOf(spec.display),
  };
}

/**
 * Valid form values written back over the entry they came from: fields the form does not know
 * (headers, labels, transform, …) are kept; emptied optional fields are removed; a body is kept
 * only for POST and PUT.
 */
export function httpCheckFromForm(
  form: HttpCheckForm,
  previous: Record<string, unknown> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...previous };
  delete out.endpoint; // written as url
  const set = (key: string, value: unknown) => {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) delete out[key];
    else out[key] = value;
  };
  set('name', form.name.trim());
  set('description', form.description.trim());
  set('url', form.url.trim());
  set('method', form.method === 'GET' && !previous.method ? undefined : form.method);
  set('body', METHODS_WITH_BODY.includes(form.method) ? form.body : undefined);
  set(
    'responseCodes',
    [...form.responseCodes].sort((a, b) => a - b),
  );
  set('thresholdMillis', form.thresholdMillis.trim() ? Number(form.thresholdMillis) : undefined);
  set('maxSSLExpiry', form.maxSSLExpiry.trim() ? Number(form.maxSSLExpiry) : undefined);
  set('responseContent', form.responseContent);
  for (const key of ['test', 'display'] as const) {
    const s = form[key];
    set(key, s.kind === 'none' ? undefined : { [s.kind]: s.text });
  }
  return out;
}

export function emptyHttpCheck(): HttpCheckForm {
  return httpCheckToForm({ name: '', thresholdMillis: 1000 });
}
