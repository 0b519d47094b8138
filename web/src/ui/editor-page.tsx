// The frame of a spec editor page (settings resources, playbooks): the link back to its list, and
// what shows in place of the editor while the spec loads or when it cannot be shown.
import { ArrowLeft, FileCode2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Card } from './card';
import { EmptyState } from './empty-state';
import { Skeleton } from './skeleton';

export function EditorBackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="inline-flex items-center gap-1.5 text-[13px] font-medium text-muted hover:text-foreground">
      <ArrowLeft className="size-4" aria-hidden /> {label}
    </Link>
  );
}

export function EditorLoading({ back, testId }: { back: ReactNode; testId?: string }) {
  return (
    <div className="space-y-4" data-testid={testId}>
      {back}
      <Skeleton className="h-10 w-72" />
      <Skeleton className="h-80" />
    </div>
  );
}

/** Not found, or the error that kept the spec from loading. */
export function EditorUnavailable({ back, title }: { back: ReactNode; title: string }) {
  return (
    <div className="space-y-4">
      {back}
      <Card>
        <EmptyState icon={FileCode2} title={title} />
      </Card>
    </div>
  );
}
