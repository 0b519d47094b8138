// Display rules of component properties on cards (spec/2 §2.6, §3): headline properties, values
// with their units (bytes, millicores, percent), usage bars for properties with a maximum (CPU
// and memory turn red above 70% of it), and how many list rows show before 'show more ...'. Pure.
import type { ComponentProperty } from './types';

/** Usage above this share of the maximum is shown red. */
export const BAR_RED_ABOVE_PERCENT = 70;
/** Lists in cards collapse when longer than this... */
export const LIST_COLLAPSE_AFTER = 6;
/** ...and then show this many rows until 'show more ...'. */
export const LIST_COLLAPSED_ROWS = 5;
/** The tallest a card's list grows (it scrolls beyond). */
export const LIST_MAX_HEIGHT_PX = 200;
/** The avatar stack shows at most this many teams. */
export const AVATAR_STACK_MAX = 5;

export function headlineProperties(properties: readonly ComponentProperty[] | null | undefined): ComponentProperty[] {
  return (properties ?? []).filter((p) => p.headline);
}

export function bodyProperties(properties: readonly ComponentProperty[] | null | undefined): ComponentProperty[] {
  return [...(properties ?? [])]
    .filter((p) => !p.headline)
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.name.localeCompare(b.name));
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

export function formatBytes(bytes: number): string {
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < BYTE_UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : Number(v.toFixed(v >= 10 ? 0 : 1))}${BYTE_UNITS[i]}`;
}

/** Millicores: under a core as `250m`, otherwise as cores (`1.5`). */
export function formatMillicores(m: number): string {
  return Math.abs(m) < 1000 ? `${Math.round(m)}m` : `${Number((m / 1000).toFixed(2))}`;
}

function trimNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(2)));
}

/** One number in a property's unit. */
export function formatAmount(value: number, unit: string | undefined): string {
  const u = (unit ?? '').trim();
  if (u === 'bytes' || u === 'B') return formatBytes(value);
  if (u === 'millicores' || u === 'm') return formatMillicores(value);
  if (u === '%' || u === 'percent') return `${trimNumber(value)}%`;
  return u ? `${trimNumber(value)} ${u}` : trimNumber(value);
}

/** The text of a property: its text, else its value (and maximum) in its unit; '' when empty. */
export function formatProperty(p: ComponentProperty): string {
  if (p.text !== undefined && p.text !== null && p.text !== '') return String(p.text);
  if (typeof p.value !== 'number') return '';
  if (typeof p.max === 'number' && p.max > 0)
    return `${formatAmount(p.value, p.unit)} / ${formatAmount(p.max, p.unit)}`;
  return formatAmount(p.value, p.unit);
}

/** The share of the maximum, 0–100 (clamped); undefined without a value and a positive maximum. */
export function usagePercent(p: ComponentProperty): number | undefined {
  if (typeof p.value !== 'number' || typeof p.max !== 'number' || !(p.max > 0)) return undefined;
  const min = typeof p.min === 'number' ? p.min : 0;
  const span = p.max - min;
  if (!(span > 0)) return undefined;
  return Math.min(100, Math.max(0, ((p.value - min) / span) * 100));
}

/** Whether a property is CPU or memory usage (shown as a bar). */
export function isUsageProperty(p: ComponentProperty): boolean {
  return /^(cpu|mem|memory)$/i.test(p.name) || p.type === 'cpu' || p.type === 'memory';
}

export type BarTone = 'red' | 'normal';

/** Red above 70% of the maximum. */
export function barTone(percent: number): BarTone {
  return percent > BAR_RED_ABOVE_PERCENT ? 'red' : 'normal';
}

/** How many rows of a list of `total` show collapsed: all up to 6, else 5 plus 'show more ...'. */
export function visibleRows(total: number, expanded: boolean): number {
  if (expanded || total <= LIST_COLLAPSE_AFTER) return total;
  return LIST_COLLAPSED_ROWS;
}

/** The first five teams and how many more there are. */
export function avatarStack<T>(items: readonly T[], max = AVATAR_STACK_MAX): { shown: T[]; more: number } {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

/** Two letters for an avatar: initials of the first two words. */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/[\s_\-.]+/)
    .filter(Boolean);
  if (words.length === 0) return '?';
  return (words.length === 1 ? words[0]!.slice(0, 2) : `${words[0]![0]}${words[1]![0]}`).toUpperCase();
}
