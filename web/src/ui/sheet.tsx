// A drawer (Radix Dialog) sliding in from the right edge: the full height of the window and,
// by default, nearly its full width. Header, scrolling body and an optional footer.
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button';
import { cn } from './cn';
import { ModalOverlay } from './overlay';

export const Sheet = DialogPrimitive.Root;

export function SheetContent({
  title,
  header,
  children,
  footer,
  className,
  'aria-describedby': describedBy,
}: {
  /** The accessible name (also shown when no custom header is given). */
  title: string;
  /** Replaces the plain title row. */
  header?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  className?: string;
  'aria-describedby'?: string;
}) {
  return (
    <DialogPrimitive.Portal>
      <ModalOverlay className="z-40" />
      <DialogPrimitive.Content
        aria-describedby={describedBy}
        // Focus the drawer itself rather than its first button (a copy button lit up on open).
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          // The drawer is fixed in the window: nothing to scroll into view.
          (e.currentTarget as HTMLElement | null)?.focus({ preventScroll: true });
        }}
        className={cn(
          'fixed inset-y-0 right-0 z-50 flex w-full flex-col border-l border-border bg-background shadow-pop focus:outline-none',
          'lg:w-[calc(100vw-3rem)] 2xl:max-w-[1680px]',
          className,
        )}
      >
        <DialogPrimitive.Title className={header ? 'sr-only' : 'px-6 pt-5 text-base font-semibold'}>
          {title}
        </DialogPrimitive.Title>
        <div className="flex items-start gap-3 border-b border-border bg-surface px-5 py-4 lg:px-6">
          <div className="min-w-0 flex-1">{header}</div>
          <DialogPrimitive.Close asChild>
            <Button variant="ghost" size="icon-sm" aria-label="Close" className="-mr-1 shrink-0">
              <X className="size-4" />
            </Button>
          </DialogPrimitive.Close>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
        {footer && (
          <div className="flex flex-wrap items-center gap-2 border-t border-border bg-surface px-5 py-3 lg:px-6">
            {footer}
          </div>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
