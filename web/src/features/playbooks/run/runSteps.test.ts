import { describe, expect, it } from 'vitest';
import type { PlaybookRunAction } from '../types';
import {
  actionRefetchInterval,
  defaultStepId,
  durationMs,
  INITIALIZATION_STEP_ID,
  outputSections,
  runRefetchInterval,
  runSteps,
  selectedStepId,
} from './runSteps';

const action = (
  id: string,
  index: number,
  status: PlaybookRunAction['status'],
  extra: Partial<PlaybookRunAction> = {},
) =>
  ({
    id,
    playbook_run_id: 'r1',
    name: `step-${id}`,
    action_index: index,
    status,
    scheduled_time: '2026-01-01T00:00:00Z',
    start_time: status === 'skipped' ? null : '2026-01-01T00:00:00Z',
    end_time: status === 'running' ? null : '2026-01-01T00:00:02Z',
    result: null,
    error: null,
    ...extra,
  }) satisfies PlaybookRunAction;

const run = (
  status: 'running' | 'completed' | 'failed',
  actions: PlaybookRunAction[],
  error: string | null = null,
) => ({
  status,
  error,
  start_time: '2026-01-01T00:00:00Z',
  end_time: status === 'running' ? null : '2026-01-01T00:00:05Z',
  created_at: '2026-01-01T00:00:00Z',
  actions,
});

describe('playbook run steps', () => {
  it('lists actions in spec order and makes skipped ones not clickable', () => {
    const steps = runSteps(run('completed', [action('b', 1, 'skipped'), action('a', 0, 'completed')]));
    expect(steps.map((s) => [s.id, s.clickable])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(steps.some((s) => s.synthetic)).toBe(false);
  });

  it("adds a synthetic 'Initialization' step 0 carrying the error of a failed run", () => {
    const steps = runSteps(run('failed', [action('a', 0, 'failed')], 'template: no such parameter "x"'));
    expect(steps[0]).toMatchObject({
      id: INITIALIZATION_STEP_ID,
      name: 'Initialization',
      status: 'failed',
      synthetic: true,
      clickable: true,
      error: 'template: no such parameter "x"',
    });
    expect(steps.map((s) => s.id)).toEqual([INITIALIZATION_STEP_ID, 'a']);
  });

  it('adds no Initialization step to a failed run without an error, nor to a completed one', () => {
    expect(runSteps(run('failed', [action('a', 0, 'failed')])).map((s) => s.id)).toEqual(['a']);
    expect(runSteps(run('completed', [action('a', 0, 'completed')], 'stale')).map((s) => s.id)).toEqual(['a']);
  });

  it('selects the last action by default, passing over skipped actions and the Initialization step', () => {
    const steps = runSteps(
      run('failed', [action('a', 0, 'completed'), action('b', 1, 'failed'), action('c', 2, 'skipped')], 'boom'),
    );
    expect(defaultStepId(steps)).toBe('b');
    expect(defaultStepId(runSteps(run('failed', [], 'boom')))).toBe(INITIALIZATION_STEP_ID);
    expect(defaultStepId([])).toBeUndefined();
  });

  it('keeps a requested step only when it exists and is clickable', () => {
    const steps = runSteps(run('completed', [action('a', 0, 'completed'), action('b', 1, 'skipped')]));
    expect(selectedStepId(steps, 'a')).toBe('a');
    expect(selectedStepId(steps, 'b')).toBe('a');
    expect(selectedStepId(steps, 'nope')).toBe('a');
    expect(selectedStepId(steps, null)).toBe('a');
  });

  it('measures durations to the end, or to now while running, and none before the start', () => {
    expect(durationMs('2026-01-01T00:00:00Z', '2026-01-01T00:00:02.500Z')).toBe(2500);
    expect(durationMs('2026-01-01T00:00:00Z', null, new Date('2026-01-01T00:01:00Z'))).toBe(60_000);
    expect(durationMs(null, '2026-01-01T00:00:02Z')).toBeNull();
  });

  it('polls the run every 2 s and the action every 1 s until they finish', () => {
    expect(runRefetchInterval('pending')).toBe(2000);
    expect(runRefetchInterval('running')).toBe(2000);
    for (const s of ['completed', 'failed', 'cancelled'] as const) expect(runRefetchInterval(s)).toBe(false);
    expect(actionRefetchInterval('running', 'running')).toBe(1000);
    expect(actionRefetchInterval('scheduled', 'running')).toBe(1000);
    expect(actionRefetchInterval('completed', 'running')).toBe(false);
    expect(actionRefetchInterval('failed', 'running')).toBe(false);
    expect(actionRefetchInterval('running', 'cancelled')).toBe(false);
  });

  it('shows error, stdout, stderr and logs as text and the rest of the result as JSON', () => {
    const sections = outputSections({
      error: 'exit status 3',
      result: { stdout: 'hello\n', stderr: 'broken pipe', exitCode: 3, logs: ['one', 'two'] },
    });
    expect(sections.map((s) => [s.id, s.text])).toEqual([
      ['error', 'exit status 3'],
      ['stdout', 'hello\n'],
      ['stderr', 'broken pipe'],
      ['logs', 'one\ntwo'],
      ['result', JSON.stringify({ exitCode: 3 }, null, 2)],
    ]);
    expect(outputSections({ error: null, result: { stdout: '', stderr: '  ' } })).toEqual([]);
    expect(outputSections({ error: null, result: null })).toEqual([]);
  });
});
