// Card widths (spec/2 §2.6): the grid's width slider (250–768 px in steps of 2, stored locally)
// and the named sizes of a single card (small 198, medium 258, large 356, extra large 554 px),
// used by /view/topology/{id}?size=. Pure.

export const CARD_WIDTH_MIN = 250;
export const CARD_WIDTH_MAX = 768;
export const CARD_WIDTH_STEP = 2;
export const CARD_WIDTH_DEFAULT = 356;
export const CARD_WIDTH_STORAGE_KEY = 'topologyCardWidth';

export const CARD_SIZES = {
  small: 198,
  medium: 258,
  large: 356,
  'extra-large': 554,
} as const;

export type CardSize = keyof typeof CARD_SIZES;

/** A slider value: a number in range, on the step grid; anything else falls back to the default. */
export function clampCardWidth(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return CARD_WIDTH_DEFAULT;
  const clamped = Math.min(CARD_WIDTH_MAX, Math.max(CARD_WIDTH_MIN, n));
  return CARD_WIDTH_MIN + Math.round((clamped - CARD_WIDTH_MIN) / CARD_WIDTH_STEP) * CARD_WIDTH_STEP;
}

export function isCardWidth(value: unknown): boolean {
  return typeof value === 'number' && clampCardWidth(value) === value;
}

/**
 * The width of /view/topology/{id}: a size name (small, medium, large, extra-large, also
 * "extra large" / xl), or pixels between the small size and the slider's maximum; default medium.
 */
export function viewCardWidth(size: string | null | undefined): number {
  const s = (size ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  if (!s) return CARD_SIZES.medium;
  if (s === 'xl' || s === 'extralarge') return CARD_SIZES['extra-large'];
  if (s in CARD_SIZES) return CARD_SIZES[s as CardSize];
  const px = Number(s.replace(/px$/, ''));
  if (Number.isFinite(px) && px > 0) return Math.min(CARD_WIDTH_MAX, Math.max(CARD_SIZES.small, Math.round(px)));
  return CARD_SIZES.medium;
}
