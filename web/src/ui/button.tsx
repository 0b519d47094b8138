// Buttons of the design system: primary, secondary, outline, ghost and danger, in three sizes.
import { Slot } from '@radix-ui/react-slot';
import { Loader2 } from 'lucide-react';
import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { cn } from './cn';

const VARIANTS = {
  primary: 'bg-primary text-primary-foreground hover:bg-primary-hover shadow-sm',
  secondary: 'bg-surface-muted text-foreground hover:bg-surface-hover border border-border',
  outline: 'bg-surface text-foreground border border-border hover:bg-surface-hover shadow-sm',
  ghost: 'text-muted hover:text-foreground hover:bg-surface-hover',
  danger: 'bg-danger text-white hover:opacity-90 shadow-sm',
  link: 'text-primary hover:underline px-0 h-auto',
} as const;

const SIZES = {
  sm: 'h-8 px-3 text-[13px] gap-1.5',
  md: 'h-9 px-4 text-sm gap-2',
  icon: 'h-9 w-9 justify-center',
  'icon-sm': 'h-8 w-8 justify-center',
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
  loading?: boolean;
  asChild?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'primary', size = 'md', loading, asChild, className, children, disabled, type, ...props },
  ref,
) {
  const classes = cn(
    'inline-flex items-center rounded-md font-medium whitespace-nowrap transition-colors select-none',
    'disabled:opacity-50 disabled:pointer-events-none cursor-pointer',
    VARIANTS[variant],
    variant === 'link' ? '' : SIZES[size],
    className,
  );
  if (asChild) {
    return (
      <Slot ref={ref} className={classes} {...props}>
        {children}
      </Slot>
    );
  }
  return (
    <button ref={ref} type={type ?? 'button'} className={classes} disabled={disabled || loading} {...props}>
      {loading && <Loader2 className="size-4 animate-spin" aria-hidden />}
      {children}
    </button>
  );
});
