// Joins class names, skipping falsy ones, and lets later Tailwind classes override earlier ones
// (cn('w-full px-3', 'w-44') → 'px-3 w-44'), so components take size and spacing overrides.
import { twMerge } from 'tailwind-merge';

export function cn(...classes: Array<string | false | null | undefined>): string {
  return twMerge(classes.filter(Boolean).join(' '));
}
