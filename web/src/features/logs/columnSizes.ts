// Widths of the log table's columns (spec/2 §2.9: saved in local storage), kept per column id and
// clamped, so a stored value from an older layout or a hand edit cannot hide a column.
import { readStored, writeStored } from '../../ui/storage';

export const COLUMN_SIZES_KEY = 'opsdeck.logs.columnSizes';

export const LOG_COLUMN_IDS = ['timestamp', 'message', 'labels'] as const;
export type LogColumnId = (typeof LOG_COLUMN_IDS)[number];
export type ColumnSizes = Record<LogColumnId, number>;

export const DEFAULT_COLUMN_SIZES: ColumnSizes = { timestamp: 200, message: 720, labels: 320 };
export const MIN_COLUMN_SIZE = 80;
export const MAX_COLUMN_SIZE = 4000;

const clamp = (n: number) => Math.min(MAX_COLUMN_SIZE, Math.max(MIN_COLUMN_SIZE, Math.round(n)));

/** Stored sizes over the defaults: unknown columns and non-numbers are ignored, the rest clamped. */
export function parseColumnSizes(stored: unknown): ColumnSizes {
  const sizes = { ...DEFAULT_COLUMN_SIZES };
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return sizes;
  for (const id of LOG_COLUMN_IDS) {
    const v = (stored as Record<string, unknown>)[id];
    if (typeof v === 'number' && Number.isFinite(v)) sizes[id] = clamp(v);
  }
  return sizes;
}

/** The table's sizing state (any column ids) → the sizes kept for the log columns. */
export function mergeColumnSizes(current: ColumnSizes, sizing: Record<string, number>): ColumnSizes {
  const next = { ...current };
  for (const id of LOG_COLUMN_IDS) {
    const v = sizing[id];
    if (typeof v === 'number' && Number.isFinite(v)) next[id] = clamp(v);
  }
  return next;
}

export function readColumnSizes(): ColumnSizes {
  return parseColumnSizes(readStored<unknown>(COLUMN_SIZES_KEY, null));
}

export function writeColumnSizes(sizes: ColumnSizes): void {
  writeStored(COLUMN_SIZES_KEY, sizes);
}
