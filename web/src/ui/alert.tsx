// Inline messages in forms and pages: error, success, info and warning.
import { CircleAlert, CircleCheck, Info, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn';

const TONES = {
  error: { cls: 'border-danger/30 bg-danger-soft text-danger', icon: CircleAlert },
  success: { cls: 'border-success/30 bg-success-soft text-success', icon: CircleCheck },
  info: { cls: 'border-primary/25 bg-primary-soft text-primary', icon: Info },
  warning: { cls: 'border-warning/30 bg-warning-soft text-warning', icon: TriangleAlert },
} as const;

export function Alert({
  tone,
  children,
  className,
}: {
  tone: keyof typeof TONES;
  children: ReactNode;
  className?: string;
}) {
  const { cls, icon: Icon } = TONES[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('flex gap-2.5 rounded-md border px-3 py-2.5 text-[13px] leading-5', cls, className)}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0 text-foreground">{children}</div>
    </div>
  );
}
