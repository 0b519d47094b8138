// The run page's pure rules (spec/3 §2, §5): the step list (with the synthetic 'Initialization'
// step 0 of a failed run that has an error), the default selected step, durations, the polling
// intervals and the output sections of an action.
import {
  FINISHED_RUN_STATUSES,
  type PlaybookActionStatus,
  type PlaybookRunAction,
  type PlaybookRunDetail,
  type PlaybookRunStatus,
} from '../types';

export const INITIALIZATION_STEP_ID = 'initialization';
export const INITIALIZATION_STEP_NAME = 'Initialization';

export const RUN_REFRESH_MS = 2000;
export const ACTION_REFRESH_MS = 1000;

export interface RunStep {
  id: string;
  name: string;
  status: PlaybookActionStatus;
  start_time: string | null;
  end_time: string | null;
  /** The synthetic step 0 carrying the run's error. */
  synthetic: boolean;
  /** Skipped actions have nothing to show. */
  clickable: boolean;
  error: string | null;
}

type RunForSteps = Pick<PlaybookRunDetail, 'status' | 'error' | 'start_time' | 'end_time' | 'created_at'> & {
  actions: readonly PlaybookRunAction[];
};

/** The run's actions in spec order, preceded by 'Initialization' when a failed run has an error. */
export function runSteps(run: RunForSteps): RunStep[] {
  const actions = [...run.actions]
    .sort((a, b) => a.action_index - b.action_index || a.scheduled_time.localeCompare(b.scheduled_time))
    .map((a): RunStep => ({
      id: a.id,
      name: a.name,
      status: a.status,
      start_time: a.start_time,
      end_time: a.end_time,
      synthetic: false,
      clickable: a.status !== 'skipped',
      error: a.error,
    }));
  if (run.status !== 'failed' || !run.error) return actions;
  const initialization: RunStep = {
    id: INITIALIZATION_STEP_ID,
    name: INITIALIZATION_STEP_NAME,
    status: 'failed',
    start_time: run.start_time ?? run.created_at,
    end_time: run.end_time,
    synthetic: true,
    clickable: true,
    error: run.error,
  };
  return [initialization, ...actions];
}

/** The last clickable action; the Initialization step when no action ran. */
export function defaultStepId(steps: readonly RunStep[]): string | undefined {
  const actions = steps.filter((s) => s.clickable && !s.synthetic);
  return (actions.at(-1) ?? steps.find((s) => s.synthetic))?.id;
}

/** The selected step: the one asked for when it exists and can be selected, else the default. */
export function selectedStepId(steps: readonly RunStep[], requested: string | null | undefined): string | undefined {
  const step = requested ? steps.find((s) => s.id === requested) : undefined;
  return step?.clickable ? step.id : defaultStepId(steps);
}

/** From start to end, or to now while it has no end; null before it starts. */
export function durationMs(
  start: string | null | undefined,
  end: string | null | undefined,
  now: Date = new Date(),
): number | null {
  if (!start) return null;
  const from = new Date(start).getTime();
  const to = end ? new Date(end).getTime() : now.getTime();
  if (Number.isNaN(from) || Number.isNaN(to)) return null;
  return Math.max(0, to - from);
}

export function isRunFinished(status: PlaybookRunStatus | undefined): boolean {
  return !!status && FINISHED_RUN_STATUSES.includes(status);
}

/** The run polls every 2 s until completed, failed or cancelled. */
export function runRefetchInterval(status: PlaybookRunStatus | undefined): number | false {
  return isRunFinished(status) ? false : RUN_REFRESH_MS;
}

/**
 * The selected action polls every 1 s until completed or failed; also stops when it was skipped
 * or its run has finished (a cancelled run leaves no action to wait for).
 */
export function actionRefetchInterval(
  status: PlaybookActionStatus | undefined,
  runStatus: PlaybookRunStatus | undefined,
): number | false {
  if (status === 'completed' || status === 'failed' || status === 'skipped') return false;
  return isRunFinished(runStatus) ? false : ACTION_REFRESH_MS;
}

export interface OutputSection {
  id: 'error' | 'stdout' | 'stderr' | 'logs' | 'result';
  label: string;
  text: string;
}

const TEXT_KEYS = ['stdout', 'stderr', 'logs'] as const;

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('\n');
  return JSON.stringify(value, null, 2);
}

/**
 * What the log viewer shows for a step: its error, stdout, stderr and logs as text, and the rest
 * of the result (exit code, HTTP answer, SQL rows…) as JSON. Empty parts are left out.
 */
export function outputSections(step: {
  error: string | null;
  result?: Record<string, unknown> | null;
}): OutputSection[] {
  const sections: OutputSection[] = [];
  if (step.error) sections.push({ id: 'error', label: 'Error', text: step.error });
  const result = step.result ?? {};
  const labels = { stdout: 'stdout', stderr: 'stderr', logs: 'Logs' };
  for (const key of TEXT_KEYS) {
    const text = asText(result[key]);
    if (text.trim()) sections.push({ id: key, label: labels[key], text });
  }
  const rest = Object.fromEntries(
    Object.entries(result).filter(([k]) => !(TEXT_KEYS as readonly string[]).includes(k)),
  );
  if (Object.keys(rest).length > 0)
    sections.push({ id: 'result', label: 'Result', text: JSON.stringify(rest, null, 2) });
  return sections;
}
