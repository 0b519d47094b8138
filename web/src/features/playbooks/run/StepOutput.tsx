// The log viewer of the selected step: its error, stdout, stderr, logs and the rest of its result
// as JSON, monospace, each part with a copy button.
import { CopyButton } from '../../../ui/copy-button';
import { cn } from '../../../ui/cn';
import type { PlaybookRunAction } from '../types';
import { outputSections, type RunStep } from './runSteps';
import { StatusIcon } from './RunStatus';

export function StepOutput({
  step,
  action,
  loading,
}: {
  step: RunStep;
  /** The action as last read (polled while it runs); none for the Initialization step. */
  action: Pick<PlaybookRunAction, 'error' | 'result' | 'status'> | undefined;
  loading: boolean;
}) {
  const sections = outputSections(action ?? { error: step.error, result: null });
  const status = action?.status ?? step.status;
  return (
    <section aria-label={`Output of ${step.name}`} data-testid="step-output" className="min-w-0 space-y-3">
      <h2 className="flex items-center gap-2 text-[14px] font-semibold">
        <StatusIcon status={status} />
        {step.name}
      </h2>
      {sections.length === 0 && (
        <p className="text-[13px] text-muted">
          {loading || status === 'running' || status === 'scheduled' ? 'Waiting for output...' : 'No output'}
        </p>
      )}
      {sections.map((s) => (
        <div key={s.id} data-testid={`output-${s.id}`} className="overflow-hidden rounded-md border border-border">
          <div className="flex items-center justify-between border-b border-border bg-surface-muted px-3 py-1.5">
            <span
              className={cn(
                'text-[12px] font-semibold',
                s.id === 'error' || s.id === 'stderr' ? 'text-danger' : 'text-muted',
              )}
            >
              {s.label}
            </span>
            <CopyButton value={s.text} label={`Copy ${s.label}`} />
          </div>
          <pre className="max-h-[60vh] overflow-auto bg-surface px-3 py-2 font-mono text-[12.5px] leading-5 whitespace-pre-wrap break-words text-foreground">
            {s.text}
          </pre>
        </div>
      ))}
    </section>
  );
}
