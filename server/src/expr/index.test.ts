import { describe, expect, it } from 'vitest';
import {
  durationFromMs,
  evaluateBoolean,
  evaluateScript,
  evaluateString,
  ExpressionError,
  type Script,
} from './index.js';

const vars = {
  code: 200,
  elapsed: durationFromMs(120),
  sslAge: durationFromMs(30 * 86_400_000),
  json: { status: 'ok', items: [{ name: 'a' }, { name: 'b' }] },
};

async function scriptError(promise: Promise<unknown>): Promise<ExpressionError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error('expected the script to fail');
}

describe('evaluateScript', () => {
  it('dispatches to CEL, Go templates, JavaScript and JSONPath', async () => {
    expect(await evaluateScript({ expr: 'code + 1' }, vars)).toBe(201);
    expect(await evaluateScript({ template: '{{ .json.status }}' }, vars)).toBe('ok');
    expect(await evaluateScript({ javascript: 'json.items.length' }, vars)).toBe(2);
    expect(await evaluateScript({ jsonPath: '$.json.items[*].name' }, vars)).toEqual(['a', 'b']);
  });

  it('passes JavaScript limits through', async () => {
    const error = await scriptError(evaluateScript({ javascript: 'for (;;) {}' }, vars, { timeoutMs: 100 }));
    expect(error.message).toBe('JavaScript timed out after 100 ms');
  });

  it('needs exactly one of expr, template, javascript and jsonPath', async () => {
    expect((await scriptError(evaluateScript({}, vars))).message).toBe(
      'the script is empty: set one of expr, template, javascript or jsonPath',
    );
    expect((await scriptError(evaluateScript({ expr: '' }, vars))).message).toMatch(/the script is empty/);
    expect((await scriptError(evaluateScript({ expr: 'true', template: 'x' }, vars))).message).toBe(
      'the script sets expr and template: set exactly one of expr, template, javascript or jsonPath',
    );
    const notAString = { expr: 42 } as unknown as Script;
    expect((await scriptError(evaluateScript(notAString, vars))).message).toBe(
      'script field expr must be a string, got int',
    );
    expect((await scriptError(evaluateScript(null as unknown as Script, vars))).language).toBe('script');
  });
});

describe('evaluateBoolean (test)', () => {
  it('accepts a boolean CEL result, as in the FORMATS.md example', async () => {
    expect(await evaluateBoolean({ expr: "code in [200,201,301] && sslAge > Duration('7d')" }, vars)).toBe(true);
    expect(await evaluateBoolean({ expr: "elapsed > Duration('1s')" }, vars)).toBe(false);
  });

  it('refuses a CEL result that is not a boolean, even "true" text', async () => {
    expect((await scriptError(evaluateBoolean({ expr: 'code' }, vars))).message).toBe(
      'the test must return a boolean, got int "200"',
    );
    expect((await scriptError(evaluateBoolean({ expr: "'true'" }, vars))).message).toBe(
      'the test must return a boolean, got string "true"',
    );
  });

  it('accepts "true"/"false" text from templates, JavaScript and JSONPath', async () => {
    expect(await evaluateBoolean({ template: '{{ eq .code 200 }}' }, vars)).toBe(true);
    expect(await evaluateBoolean({ template: '  {{ if gt .code 399 }}TRUE{{ else }}False{{ end }}\n' }, vars)).toBe(
      false,
    );
    expect(await evaluateBoolean({ javascript: 'code == 200' }, vars)).toBe(true);
    expect(await evaluateBoolean({ javascript: '"false"' }, vars)).toBe(false);
    expect(await evaluateBoolean({ jsonPath: '$.ok' }, { ok: true })).toBe(true);
  });

  it('refuses other text and values, quoting them', async () => {
    expect((await scriptError(evaluateBoolean({ template: 'yes' }, vars))).message).toBe(
      'the test must produce "true" or "false", got "yes"',
    );
    expect((await scriptError(evaluateBoolean({ javascript: '1' }, vars))).message).toBe(
      'the test must return a boolean, got int "1"',
    );
    expect((await scriptError(evaluateBoolean({ javascript: 'undefined' }, vars))).message).toBe(
      'the test must return a boolean, got nothing',
    );
  });
});

describe('evaluateString (display)', () => {
  it('returns strings unchanged', async () => {
    expect(await evaluateString({ template: 'code={{.code}}, age={{.sslAge}}' }, vars)).toBe('code=200, age=720h0m0s');
    expect(await evaluateString({ expr: "'status: ' + json.status" }, vars)).toBe('status: ok');
    expect(await evaluateString({ javascript: '"code: " + code' }, vars)).toBe('code: 200');
  });

  it('turns other results into text: numbers, booleans, durations, lists and maps as JSON', async () => {
    expect(await evaluateString({ expr: 'code' }, vars)).toBe('200');
    expect(await evaluateString({ expr: 'code == 200' }, vars)).toBe('true');
    expect(await evaluateString({ expr: 'sslAge' }, vars)).toBe('720h0m0s');
    expect(await evaluateString({ expr: "timestamp('2024-01-01T00:00:00Z')" }, vars)).toBe('2024-01-01T00:00:00.000Z');
    expect(await evaluateString({ expr: 'json.items' }, vars)).toBe('[{"name":"a"},{"name":"b"}]');
    expect(await evaluateString({ javascript: '({ a: 1 })' }, vars)).toBe('{"a":1}');
    expect(await evaluateString({ jsonPath: '$.json.items[*].name' }, vars)).toBe('["a","b"]');
    expect(await evaluateString({ expr: "{'age': sslAge}" }, vars)).toBe('{"age":"720h0m0s"}');
  });

  it('gives "" for null and undefined', async () => {
    expect(await evaluateString({ expr: 'null' }, vars)).toBe('');
    expect(await evaluateString({ javascript: 'undefined' }, vars)).toBe('');
    expect(await evaluateString({ jsonPath: '$.missing' }, vars)).toBe('');
  });

  it('propagates errors as ExpressionError with the language', async () => {
    const error = await scriptError(evaluateString({ template: '{{ .code | nope }}' }, vars));
    expect(error.language).toBe('template');
    expect(error.position).toEqual({ offset: 11, line: 1, column: 12 });
  });
});
