import { describe, expect, it } from 'vitest';
import { evaluateBoolean, evaluateString } from '../expr/index.js';
import { evaluateMetrics } from './customMetrics.js';
import { expressionVars } from './environment.js';

const check = { id: 'c1', canary_id: 'k1', type: 'exec', name: 'probe', spec: { description: 'd', labels: { a: 1 } } };
const canary = { id: 'k1', name: 'web', namespace: 'prod', labels: { team: 'x' } };

const vars = (over: Partial<Parameters<typeof expressionVars>[0]> = {}) =>
  expressionVars({
    check,
    canary,
    endpoint: 'echo hi',
    result: {
      pass: true,
      message: 'hi',
      error: null,
      durationMs: 12.4,
      data: {},
      results: { stdout: 'hi', stderr: '', exitCode: 0 },
    },
    ...over,
  });

describe('expressionVars (canary-checker environment)', () => {
  it('binds canary, check, duration, error, message, pass, errorType and results', () => {
    expect(vars()).toEqual({
      canary: { id: 'k1', name: 'web', namespace: 'prod', labels: { team: 'x' } },
      check: { id: 'c1', name: 'probe', type: 'exec', description: 'd', labels: { a: '1' }, endpoint: 'echo hi' },
      duration: 12,
      error: '',
      message: 'hi',
      pass: true,
      errorType: '',
      results: { stdout: 'hi', stderr: '', exitCode: 0 },
    });
  });

  it('leaves results unbound for a type without one, and binds outputs only with dependsOn', async () => {
    const http = vars({ result: { pass: true, message: null, error: null, durationMs: 1, data: { code: 200 } } });
    expect('results' in http).toBe(false);
    expect('outputs' in http).toBe(false);
    expect(await evaluateBoolean({ expr: 'code == 200' }, http)).toBe(true);
    const dependent = vars({ outputs: { src: { pass: true, results: { stdout: '42' } } } });
    expect(await evaluateBoolean({ expr: 'outputs.src.results.stdout == "42"' }, dependent)).toBe(true);
    expect(await evaluateString({ template: '{{.outputs.src.results.stdout}}' }, dependent)).toBe('42');
  });

  it("lets the type's data win over the common names (folder errorType)", () => {
    const v = vars({
      result: { pass: false, message: null, error: 'x', durationMs: 1, data: { errorType: 'min_count' } },
    });
    expect(v.errorType).toBe('min_count');
    expect(v.error).toBe('x');
  });
});

describe('evaluateMetrics (metrics[])', () => {
  it('evaluates value and label expressions', async () => {
    const m = await evaluateMetrics(
      [
        {
          name: 'probe_ok',
          type: 'gauge',
          value: 'pass ? 1 : 0',
          labels: [
            { name: 'check', valueExpr: 'check.name' },
            { name: 'fixed', value: 'v' },
          ],
        },
        { name: 'probe_exit', type: 'counter', value: 'results.exitCode + 2' },
      ],
      vars(),
    );
    expect(m).toEqual([
      { name: 'probe_ok', type: 'gauge', value: 1, labels: { check: 'probe', fixed: 'v' } },
      { name: 'probe_exit', type: 'counter', value: 2, labels: {} },
    ]);
  });

  it('reads numeric text and fails naming the metric for anything else', async () => {
    const m = await evaluateMetrics([{ name: 'n', type: 'gauge', value: '"2.5"' }], vars());
    expect(m[0]?.value).toBe(2.5);
    await expect(evaluateMetrics([{ name: 'n', type: 'gauge', value: 'results.stdout' }], vars())).rejects.toThrow(
      'metric n: hi is not a number',
    );
    await expect(evaluateMetrics([{ name: 'n', type: 'gauge', value: 'nope.x' }], vars())).rejects.toThrow(
      /^metric n: /,
    );
  });
});
