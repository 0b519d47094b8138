// The frame of the status pages (not found, unauthorized, errors): icon, title, text, Go back.
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../ui/button';

export function StatusPage({
  icon: Icon,
  tone = 'neutral',
  title,
  children,
  action,
  testId,
}: {
  icon: LucideIcon;
  tone?: 'neutral' | 'danger' | 'warning';
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  const toneClass =
    tone === 'danger'
      ? 'bg-danger-soft text-danger'
      : tone === 'warning'
        ? 'bg-warning-soft text-warning'
        : 'bg-primary-soft text-primary';
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-6 py-16" data-testid={testId}>
      <div className="max-w-lg text-center">
        <div className={`mx-auto mb-5 flex size-14 items-center justify-center rounded-2xl ${toneClass}`}>
          <Icon className="size-7" aria-hidden />
        </div>
        <h1 className="text-xl font-semibold tracking-tight text-foreground">{title}</h1>
        {children && <div className="mt-2 text-sm leading-6 text-muted">{children}</div>}
        <div className="mt-7 flex justify-center gap-2">
          {action ?? (
            <Button asChild variant="outline">
              <Link to="/">Go back</Link>
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}
