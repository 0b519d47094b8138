import { describe, expect, it } from 'vitest';
import { checkValue, ParameterError, renderDefaults, resolveParams, type PlaybookParameter } from './parameters.js';

const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof ParameterError) return e.message;
    throw e;
  }
  throw new Error('expected a ParameterError');
};

describe('playbook parameters', () => {
  it('renders template defaults against the resource and the user', () => {
    const params: PlaybookParameter[] = [
      { name: 'target', default: '{{.config.name}}-{{.user.name}}' },
      { name: 'count', default: 5 },
      { name: 'none' },
    ];
    expect(renderDefaults(params, { config: { name: 'web' }, user: { name: 'Ann' } }).map((p) => p.default)).toEqual([
      'web-Ann',
      '5',
      undefined,
    ]);
  });

  it('fills defaults, requires required ones and refuses unknown names', () => {
    const params = [
      { name: 'a', default: 'x' },
      { name: 'b', required: true, label: 'Bee' },
      { name: 'c', type: 'checkbox' as const },
    ];
    expect(resolveParams(params, { b: 'y' })).toEqual({ a: 'x', b: 'y', c: 'false' });
    expect(refused(() => resolveParams(params, {}))).toBe('parameter "b" (Bee) is required');
    expect(refused(() => resolveParams(params, { b: 'y', zz: 1 }))).toBe(
      'unknown parameter "zz" (this playbook takes a, b, c)',
    );
  });

  it('checks values by type', () => {
    expect(checkValue({ name: 'c', type: 'checkbox' }, true)).toBe('true');
    expect(checkValue({ name: 'c', type: 'checkbox' }, 'false')).toBe('false');
    expect(refused(() => checkValue({ name: 'c', type: 'checkbox' }, 'yes'))).toBe(
      'parameter "c" must be true or false',
    );
    const list: PlaybookParameter = { name: 'l', type: 'list', properties: { options: [{ label: 'A', value: 'a' }] } };
    expect(checkValue(list, 'a')).toBe('a');
    expect(refused(() => checkValue(list, 'b'))).toBe('parameter "l" must be one of "a"');
    const text: PlaybookParameter = { name: 't', properties: { minLength: 2, maxLength: 4, regex: '^[a-z]+$' } };
    expect(checkValue(text, 'abc')).toBe('abc');
    expect(refused(() => checkValue(text, 'a'))).toContain('at least 2 characters');
    expect(refused(() => checkValue(text, 'abcde'))).toContain('at most 4 characters');
    expect(refused(() => checkValue(text, 'AB'))).toContain('must match ^[a-z]+$');
    const num: PlaybookParameter = { name: 'n', properties: { format: 'number', min: 1, max: 10 } };
    expect(checkValue(num, 3)).toBe('3');
    expect(refused(() => checkValue(num, 'x'))).toBe('parameter "n" must be a number');
    expect(refused(() => checkValue(num, 11))).toBe('parameter "n" must be at most 10');
    expect(checkValue({ name: 'd', properties: { format: 'dns1123' } }, 'api.prod-1')).toBe('api.prod-1');
    expect(refused(() => checkValue({ name: 'd', properties: { format: 'dns1123' } }, 'Bad_Name'))).toContain(
      'DNS-1123',
    );
  });

  it('parses code per language', () => {
    expect(checkValue({ name: 'j', type: 'code', properties: { language: 'json' } }, '{"a":1}')).toBe('{"a":1}');
    expect(refused(() => checkValue({ name: 'j', type: 'code', properties: { language: 'json' } }, '{a'))).toContain(
      'parameter "j" is not valid JSON',
    );
    expect(refused(() => checkValue({ name: 'y', type: 'code' }, 'a: [1'))).toContain(
      'parameter "y" is not valid YAML',
    );
  });
});
