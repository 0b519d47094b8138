import { describe, expect, it } from 'vitest';
import { delayMs, evaluateCondition } from './conditions.js';

const ok = { success: true, failure: false };
const failed = { success: false, failure: true };

describe('action conditions and delays', () => {
  it('runs by default only after success', () => {
    expect(evaluateCondition(undefined, {}, ok)).toBe(true);
    expect(evaluateCondition(undefined, {}, failed)).toBe(false);
  });

  it('takes always(), failure(), success() and the bare words', () => {
    expect(evaluateCondition('always()', {}, failed)).toBe(true);
    expect(evaluateCondition('failure()', {}, failed)).toBe(true);
    expect(evaluateCondition('failure', {}, ok)).toBe(false);
    expect(evaluateCondition('success()', {}, failed)).toBe(false);
    expect(evaluateCondition('always() && params.env == "prod"', { params: { env: 'prod' } }, failed)).toBe(true);
  });

  it('evaluates CEL over the run variables, only after success unless it names the state', () => {
    const vars = { params: { env: 'prod' }, last_result: { code: 200 } };
    expect(evaluateCondition("params.env == 'prod'", vars, ok)).toBe(true);
    expect(evaluateCondition("params.env == 'dev'", vars, ok)).toBe(false);
    expect(evaluateCondition("params.env == 'prod'", vars, failed)).toBe(false);
    expect(evaluateCondition('last_result.code == 200', vars, ok)).toBe(true);
    expect(() => evaluateCondition("params.env + 'x'", vars, ok)).toThrow(/if must return true or false/);
  });

  it('reads delays as durations or CEL', () => {
    expect(delayMs(undefined, {})).toBe(0);
    expect(delayMs('1m30s', {})).toBe(90_000);
    expect(delayMs("params.wait + 's'", { params: { wait: '2' } })).toBe(2_000);
    expect(delayMs("duration('3s')", {})).toBe(3_000);
    expect(() => delayMs('params.x', { params: { x: true } })).toThrow(/delay must give a duration/);
  });
});
