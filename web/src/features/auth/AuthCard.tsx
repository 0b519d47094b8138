// The card that holds an identity form: title, subtitle, body and a footer line.
import type { ReactNode } from 'react';

export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="rounded-xl border border-border bg-surface shadow-pop">
      <div className="px-7 pb-2 pt-7">
        <h1 className="text-xl font-semibold tracking-tight text-foreground">{title}</h1>
        {subtitle && <p className="mt-1.5 text-sm text-muted">{subtitle}</p>}
      </div>
      <div className="px-7 pb-7 pt-4">{children}</div>
      {footer && (
        <div className="rounded-b-xl border-t border-border bg-surface-muted/60 px-7 py-4 text-center text-[13px] text-muted">
          {footer}
        </div>
      )}
    </div>
  );
}
