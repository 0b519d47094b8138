// The files the selected action saved (exec `artifacts`), each a download link, and how many times
// the action was retried. Read once the action has finished; nothing shows when there are none.
import { useQuery } from '@tanstack/react-query';
import { Download, RotateCw } from 'lucide-react';
import { artifactDownloadUrl, playbookKeys, playbooksApi } from '../playbooksApi';
import type { PlaybookRunAction } from '../types';

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function ActionArtifacts({
  runId,
  action,
}: {
  runId: string;
  action: Pick<PlaybookRunAction, 'id' | 'status' | 'retry_count' | 'result'>;
}) {
  const finished = action.status === 'completed' || action.status === 'failed';
  const artifacts = useQuery({
    queryKey: playbookKeys.artifacts(runId, action.id),
    queryFn: ({ signal }) => playbooksApi.artifacts(action.id, signal),
    enabled: finished && Array.isArray(action.result?.artifacts),
    meta: { silent: true },
  });
  const retries = action.retry_count ?? 0;
  const files = artifacts.data ?? [];
  if (!retries && !files.length) return null;
  return (
    <section aria-label="Artifacts and retries" className="space-y-2 text-[13px]">
      {retries > 0 && (
        <p className="flex items-center gap-1.5 text-muted" data-testid="action-retries">
          <RotateCw className="size-3.5" aria-hidden />
          Retried {retries} {retries === 1 ? 'time' : 'times'}
        </p>
      )}
      {files.length > 0 && (
        <div className="overflow-hidden rounded-md border border-border">
          <h3 className="border-b border-border bg-surface-muted px-3 py-1.5 text-[12px] font-semibold text-muted">
            Artifacts
          </h3>
          <ul className="divide-y divide-border">
            {files.map((f) => (
              <li key={f.id} className="flex items-center gap-2 px-3 py-1.5">
                <a
                  href={artifactDownloadUrl(f.id)}
                  download={f.filename}
                  className="flex min-w-0 flex-1 items-center gap-1.5 text-primary hover:underline"
                >
                  <Download className="size-3.5 shrink-0" aria-hidden />
                  <span className="truncate font-mono">{f.path}</span>
                </a>
                <span className="shrink-0 tabular-nums text-muted">{formatBytes(f.size)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
