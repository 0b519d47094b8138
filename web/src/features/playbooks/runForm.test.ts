import { describe, expect, it } from 'vitest';
import {
  acceptedKinds,
  canSubmit,
  DNS1123_MESSAGE,
  fieldValue,
  givenResourceKind,
  initialValues,
  joinMemory,
  joinMillicores,
  millicoresAmount,
  normaliseCode,
  NOT_A_NUMBER_MESSAGE,
  pickResourceRef,
  REQUIRED_MESSAGE,
  runFormReducer,
  splitMemory,
  toRunParams,
  validateForm,
  SECRET_MASK,
  validateParam,
} from './runForm';
import type { PlaybookParameter } from './types';

const text = (properties: PlaybookParameter['properties'] = {}, required = false): PlaybookParameter => ({
  name: 'f',
  type: 'text',
  required,
  properties,
});

describe('the resource of a run', () => {
  it('takes the kind from the id given, and drops anything else passed along', () => {
    expect(givenResourceKind({ check_id: 'c1' })).toBe('check');
    expect(givenResourceKind({ config_id: 'x' })).toBe('config');
    expect(givenResourceKind({})).toBeUndefined();
    expect(pickResourceRef({ component_id: 'k1', label: 'api' } as never)).toEqual({ component_id: 'k1' });
    expect(pickResourceRef({})).toEqual({});
  });

  it('accepts the kinds a playbook declares non-empty selectors for, configs first', () => {
    expect(acceptedKinds({ checks: [{ types: ['http'] }], configs: [{ types: ['Pod'] }] })).toEqual([
      'config',
      'check',
    ]);
    expect(acceptedKinds({ components: [] })).toEqual([]);
    expect(acceptedKinds({})).toEqual([]);
  });
});

describe('starting values', () => {
  const params: PlaybookParameter[] = [
    { name: 'message', default: 'hello web' },
    { name: 'verbose', type: 'checkbox', default: 'true' },
    { name: 'quiet', type: 'checkbox' },
    { name: 'level', type: 'list', default: 'low' },
    { name: 'manifest', type: 'code', default: '{"a": 1, "b": [2]}', properties: { language: 'json' } },
    { name: 'values', type: 'code', default: "'replicas: 2'" },
  ];

  it('uses the rendered defaults, with code parsed per language and written back out', () => {
    expect(initialValues(params)).toEqual({
      message: 'hello web',
      verbose: true,
      quiet: false,
      level: 'low',
      manifest: '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}\n',
      values: 'replicas: 2\n',
    });
  });

  it('uses the earlier run’s parameters on a re-run, not the defaults', () => {
    const values = initialValues(params, { message: 'again', verbose: false, manifest: { a: 3 }, level: 'high' });
    expect(values).toEqual({
      message: 'again',
      verbose: false,
      quiet: false,
      level: 'high',
      manifest: '{\n  "a": 3\n}\n',
      values: '',
    });
  });

  it('keeps code that does not parse as it was typed', () => {
    expect(normaliseCode('{"a": ', 'json')).toBe('{"a": ');
    expect(normaliseCode('   ', 'yaml')).toBe('');
    expect(fieldValue({ name: 'n', type: 'text' }, 42)).toBe('42');
    expect(fieldValue({ name: 'c', type: 'checkbox' }, 'TRUE')).toBe(true);
  });
});

describe('validation', () => {
  it('asks for required fields, and not for empty optional ones', () => {
    expect(validateParam(text({}, true), '')).toBe(REQUIRED_MESSAGE);
    expect(validateParam(text({}, true), '   ')).toBe(REQUIRED_MESSAGE);
    expect(validateParam({ name: 'p', type: 'people', required: true }, undefined)).toBe(REQUIRED_MESSAGE);
    expect(validateParam(text({ minLength: 3 }), '')).toBeUndefined();
    expect(validateParam({ name: 'c', type: 'checkbox', required: true }, false)).toBeUndefined();
  });

  it('checks lengths, patterns and the dns1123 format of text', () => {
    expect(validateParam(text({ minLength: 3 }), 'ab')).toBe('Must be at least 3 characters');
    expect(validateParam(text({ maxLength: 3 }), 'abcd')).toBe('Must be at most 3 characters');
    expect(validateParam(text({ minLength: 3, maxLength: 3 }), 'abc')).toBeUndefined();
    expect(validateParam(text({ regex: '^v\\d+$' }), 'v12')).toBeUndefined();
    expect(validateParam(text({ regex: '^v\\d+$' }), 'x12')).toBe('Must match the pattern ^v\\d+$');
    expect(validateParam(text({ regex: '([' }), 'anything')).toBeUndefined();
    expect(validateParam(text({ format: 'dns1123' }), 'api.prod-1')).toBeUndefined();
    for (const bad of ['Api', '-api', 'api-', 'a_b', 'a..b'])
      expect(validateParam(text({ format: 'dns1123' }), bad)).toBe(DNS1123_MESSAGE);
  });

  it('checks a secret like text, except the mask a re-run sends back', () => {
    const secret = { name: 's', type: 'secret' as const, properties: { minLength: 8 } };
    expect(validateParam(secret, 'short')).toBe('Must be at least 8 characters');
    expect(validateParam(secret, SECRET_MASK)).toBeUndefined();
    expect(validateParam({ name: 'c', type: 'connection', required: true }, '')).toBe(REQUIRED_MESSAGE);
  });

  it('checks numbers against min and max, memory and cpu by their amount', () => {
    expect(validateParam(text({ min: 1, max: 10 }), 'ten')).toBe(NOT_A_NUMBER_MESSAGE);
    expect(validateParam(text({ min: 1, max: 10 }), '0')).toBe('Must be at least 1');
    expect(validateParam(text({ min: 1, max: 10 }), '11')).toBe('Must be at most 10');
    expect(validateParam(text({ min: 1, max: 10 }), '10')).toBeUndefined();
    expect(validateParam(text({ format: 'bytes', max: 512 }), '1024Mi')).toBe('Must be at most 512');
    expect(validateParam(text({ format: 'bytes' }), '2Gi')).toBeUndefined();
    expect(validateParam(text({ format: 'millicores', min: 100 }), '50m')).toBe('Must be at least 100');
    expect(validateParam(text({ format: 'number' }), '1e3')).toBeUndefined();
    expect(validateParam(text({ format: 'float' }), 'x')).toBe(NOT_A_NUMBER_MESSAGE);
    expect(validateParam(text({ format: 'integer' }), '2.5')).toBe('Must be a whole number');
    expect(validateParam(text({ format: 'integer' }), '2')).toBeUndefined();
  });

  it('says on which line code fails to parse', () => {
    const code = { name: 'c', type: 'code' as const, properties: { language: 'json' } };
    expect(validateParam(code, '{\n  "a": 1,\n}')).toMatch(/^Line 3/);
    expect(validateParam(code, '{"a": 1}')).toBeUndefined();
    expect(validateParam({ name: 'y', type: 'code' }, 'a: [1')).toMatch(/^Line \d+: /);
  });

  it('collects the errors of a form by parameter name', () => {
    const params: PlaybookParameter[] = [
      { name: 'message', required: true },
      { name: 'count', properties: { min: 1 } },
      { name: 'ok' },
    ];
    expect(validateForm(params, { message: '', count: '0', ok: 'x' })).toEqual({
      message: REQUIRED_MESSAGE,
      count: 'Must be at least 1',
    });
  });
});

describe('memory and cpu fields', () => {
  it('splits and joins amounts and units', () => {
    expect(splitMemory('512Mi')).toEqual({ amount: '512', unit: 'Mi' });
    expect(splitMemory('2 Gi')).toEqual({ amount: '2', unit: 'Gi' });
    expect(splitMemory('')).toEqual({ amount: '', unit: 'Mi' });
    expect(joinMemory('4', 'Ti')).toBe('4Ti');
    expect(joinMemory(' ', 'Gi')).toBe('');
    expect(millicoresAmount('250m')).toBe('250');
    expect(joinMillicores('250')).toBe('250m');
    expect(joinMillicores('')).toBe('');
  });
});

describe('form state and submission', () => {
  it('marks changed fields touched and starts over on reset', () => {
    let state = runFormReducer({ key: '', values: {}, touched: {} }, { type: 'reset', key: 'a', values: { m: 'x' } });
    state = runFormReducer(state, { type: 'set', name: 'm', value: '' });
    expect(state).toEqual({ key: 'a', values: { m: '' }, touched: { m: true } });
    state = runFormReducer(state, { type: 'reset', key: 'b', values: { m: 'y' } });
    expect(state).toEqual({ key: 'b', values: { m: 'y' }, touched: {} });
  });

  it('offers Run only for a valid, loaded form of a known playbook with no run in flight', () => {
    const ok = { playbookId: 'p', loaded: true, errors: {}, running: false };
    expect(canSubmit(ok)).toBe(true);
    expect(canSubmit({ ...ok, playbookId: '' })).toBe(false);
    expect(canSubmit({ ...ok, loaded: false })).toBe(false);
    expect(canSubmit({ ...ok, errors: { m: REQUIRED_MESSAGE } })).toBe(false);
    expect(canSubmit({ ...ok, running: true })).toBe(false);
  });

  it('sends checkboxes as booleans and leaves empty optional fields out', () => {
    const params: PlaybookParameter[] = [
      { name: 'message' },
      { name: 'verbose', type: 'checkbox' },
      { name: 'level', type: 'list' },
      { name: 'note' },
    ];
    expect(toRunParams(params, { message: 'hi', verbose: false, level: 'high', note: '', stray: 'x' })).toEqual({
      message: 'hi',
      verbose: false,
      level: 'high',
    });
  });
});
