// A change's unified diff (config_changes.diff) with old and new line numbers: additions green,
// removals red, hunk headers in between.
import { useMemo } from 'react';
import { cn } from '../../../ui/cn';
import { diffStats, parseUnifiedDiff } from '../diff';

export function ChangeDiff({ diff }: { diff: string | null | undefined }) {
  const lines = useMemo(() => parseUnifiedDiff(diff), [diff]);
  if (!lines.length) return <p className="text-[13px] text-muted">No diff recorded for this change.</p>;
  const { added, removed } = diffStats(lines);
  return (
    <div className="overflow-hidden rounded-md border border-border" data-testid="change-diff">
      <div className="flex gap-3 border-b border-border bg-surface-muted px-3 py-1.5 text-[12px]">
        <span className="text-success">+{added}</span>
        <span className="text-danger">-{removed}</span>
      </div>
      <div className="max-h-[60vh] overflow-auto">
        <table className="w-full border-collapse font-mono text-[12.5px] leading-5">
          <tbody>
            {lines.map((l, i) => (
              <tr
                key={i}
                data-testid="diff-line"
                data-kind={l.kind}
                className={cn(
                  l.kind === 'add' && 'bg-green-500/15',
                  l.kind === 'del' && 'bg-red-500/15',
                  (l.kind === 'hunk' || l.kind === 'meta') && 'bg-surface-muted text-muted',
                )}
              >
                <td className="w-10 select-none px-2 text-right text-subtle">{l.oldNo ?? ''}</td>
                <td className="w-10 select-none border-r border-border px-2 text-right text-subtle">{l.newNo ?? ''}</td>
                <td
                  className={cn(
                    'whitespace-pre-wrap break-all px-3',
                    l.kind === 'add' && 'text-green-700 dark:text-green-400',
                    l.kind === 'del' && 'text-red-700 dark:text-red-400',
                  )}
                >
                  <span className="select-none pr-2 text-subtle">
                    {l.kind === 'add' ? '+' : l.kind === 'del' ? '-' : ' '}
                  </span>
                  {l.text}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
