import { DOD_SAMPLE_SCRIPTS } from '@opsdeck/common';
import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../expr/index.js';
import { dodVariables } from './dod.js';

const row = (over: object) => ({
  id: 'e1',
  type: 'check',
  description: null,
  evidence: null,
  script: '',
  script_result: null,
  check: null,
  component: null,
  config: null,
  analysis: null,
  ...over,
});

const sample = (name: string) => DOD_SAMPLE_SCRIPTS.find((s) => s.name === name)!.script;

describe('definition-of-done variables', () => {
  // age() in scripts measures from the real clock.
  const now = Date.now();
  const check = (status: string, minutesAgo: number) =>
    row({
      check: {
        id: 'c1',
        name: 'api',
        type: 'http',
        status,
        last_transition_time: new Date(now - minutesAgo * 60_000).toISOString(),
        last_runtime: null,
      },
    });

  it('gives the check its health and the age of its last transition', () => {
    const vars = dodVariables(check('healthy', 6), now);
    expect(vars.check).toMatchObject({ healthy: true, status: 'healthy' });
    expect(evaluateCel("check.age > duration('5m') && check.age < duration('7m')", vars)).toBe(true);
  });

  it('runs the sample scripts', () => {
    const script = sample('check healthy and age over 5m');
    expect(evaluateCel(script, dodVariables(check('healthy', 10)))).toBe(true);
    expect(evaluateCel(script, dodVariables(check('healthy', 1)))).toBe(false);
    expect(evaluateCel(script, dodVariables(check('unhealthy', 10)))).toBe(false);
    const resolved = sample('analysis resolved');
    expect(evaluateCel(resolved, dodVariables(row({ analysis: { id: 'a', status: 'resolved' } })))).toBe(true);
    expect(evaluateCel(resolved, dodVariables(row({ analysis: { id: 'a', status: 'open' } })))).toBe(false);
  });
});
