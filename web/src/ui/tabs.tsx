// Tabs (Radix Tabs): an underlined tab bar, and a compact segmented variant.
import * as TabsPrimitive from '@radix-ui/react-tabs';
import type { ComponentProps } from 'react';
import { cn } from './cn';

export const Tabs = TabsPrimitive.Root;
export const TabsContent = TabsPrimitive.Content;

export function TabsList({
  className,
  variant = 'line',
  ...props
}: ComponentProps<typeof TabsPrimitive.List> & { variant?: 'line' | 'segmented' }) {
  return (
    <TabsPrimitive.List
      className={cn(
        'group/tabs',
        variant === 'line'
          ? 'flex gap-1 border-b border-border'
          : 'inline-flex gap-0.5 rounded-lg border border-border bg-surface-muted p-0.5',
        className,
      )}
      data-variant={variant}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        'cursor-pointer whitespace-nowrap text-[13px] font-medium text-muted transition-colors hover:text-foreground',
        'group-data-[variant=line]/tabs:-mb-px group-data-[variant=line]/tabs:border-b-2 group-data-[variant=line]/tabs:border-transparent group-data-[variant=line]/tabs:px-3 group-data-[variant=line]/tabs:py-2',
        'group-data-[variant=line]/tabs:data-[state=active]:border-primary data-[state=active]:text-foreground',
        'group-data-[variant=segmented]/tabs:rounded-md group-data-[variant=segmented]/tabs:px-3 group-data-[variant=segmented]/tabs:py-1',
        'group-data-[variant=segmented]/tabs:data-[state=active]:bg-surface group-data-[variant=segmented]/tabs:data-[state=active]:shadow-sm',
        className,
      )}
      {...props}
    />
  );
}
