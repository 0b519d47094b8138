import { describe, expect, it } from 'vitest';
import { validateJsonSchema } from '../jsonSchema.js';
import {
  canaryResourceJsonSchema,
  FIELD_NEGATIVE,
  FIELD_NOT_A_NUMBER,
  FIELD_REQUIRED,
  httpCheckFormSchema,
  httpCheckFromForm,
  httpCheckToForm,
  RESPONSE_CODES,
  HTTP_METHODS,
} from './canary.js';

const errorsOf = (values: unknown) => {
  const r = httpCheckFormSchema.safeParse(values);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('Canary resource schema (editor check)', () => {
  it('accepts a canary-checker document and points at envelope mistakes', () => {
    const ok = {
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Canary',
      metadata: { name: 'http-pass', labels: { canary: 'http' } },
      spec: { schedule: '@every 5m', http: [{ name: 'a', url: 'https://x', responseCodes: [200] }], dns: [{}] },
    };
    expect(validateJsonSchema(canaryResourceJsonSchema, ok)).toEqual([]);
    const bad = { ...ok, kind: 'Topology', spec: { http: [{ name: 'a', thresholdMillis: 'fast' }] } };
    const paths = validateJsonSchema(canaryResourceJsonSchema, bad).map((e) => e.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['kind', 'spec.http.0.thresholdMillis']));
  });
});

describe('HTTP check form', () => {
  it('offers the methods and response codes of the spec', () => {
    expect(HTTP_METHODS).toEqual(['GET', 'POST', 'PUT', 'DELETE']);
    expect(RESPONSE_CODES).toEqual([200, 201, 202, 204, 301, 302, 401, 404, 500, 502, 503]);
  });

  it('requires name, url and the threshold; numbers must be numbers of 0 or more', () => {
    const base = httpCheckToForm({ name: 'a', url: 'https://x', thresholdMillis: 500 });
    expect(errorsOf(base)).toEqual({});
    expect(errorsOf({ ...base, name: ' ', url: '', thresholdMillis: '' })).toEqual({
      name: FIELD_REQUIRED,
      url: FIELD_REQUIRED,
      thresholdMillis: FIELD_REQUIRED,
    });
    expect(errorsOf({ ...base, thresholdMillis: 'soon', maxSSLExpiry: '-1' })).toEqual({
      thresholdMillis: FIELD_NOT_A_NUMBER,
      maxSSLExpiry: FIELD_NEGATIVE,
    });
    expect(errorsOf({ ...base, test: { kind: 'expr', text: '' } })).toEqual({ 'test.text': FIELD_REQUIRED });
  });

  it('round-trips an entry, keeping fields the form does not show', () => {
    const entry = {
      name: 'api',
      endpoint: 'https://api.example.com/health',
      headers: [{ name: 'X-Key', value: 'k' }],
      responseCodes: [201, 200],
      thresholdMillis: 800,
      test: { expr: 'code == 200' },
      display: { template: '{{.code}}' },
    };
    const form = httpCheckToForm(entry);
    expect(form).toMatchObject({
      url: 'https://api.example.com/health',
      method: 'GET',
      thresholdMillis: '800',
      test: { kind: 'expr', text: 'code == 200' },
      display: { kind: 'template', text: '{{.code}}' },
    });
    expect(httpCheckFromForm(form, entry)).toEqual({
      name: 'api',
      url: 'https://api.example.com/health',
      headers: [{ name: 'X-Key', value: 'k' }],
      responseCodes: [200, 201],
      thresholdMillis: 800,
      test: { expr: 'code == 200' },
      display: { template: '{{.code}}' },
    });
  });

  it('sends a body only with POST and PUT', () => {
    const form = { ...httpCheckToForm({ name: 'a', url: 'u', thresholdMillis: 1 }), body: '{"a":1}' };
    expect(httpCheckFromForm({ ...form, method: 'POST' }).body).toBe('{"a":1}');
    expect(httpCheckFromForm({ ...form, method: 'PUT' }).body).toBe('{"a":1}');
    expect(httpCheckFromForm({ ...form, method: 'DELETE' })).not.toHaveProperty('body');
    expect(httpCheckFromForm({ ...form, method: 'GET' }, { body: 'old' })).not.toHaveProperty('body');
  });
});
