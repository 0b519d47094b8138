// Shields-style SVG badges ("label | value", the value's colour by state): pure text in, SVG out.
// Widths come from a per-character estimate of Verdana 11px, as shields.io measures them.
import { escapeHtml } from './render.js';

export const BADGE_COLORS = {
  green: '#4c1',
  yellowgreen: '#a4a61d',
  yellow: '#dfb317',
  orange: '#fe7d37',
  red: '#e05d44',
  blue: '#007ec6',
  grey: '#9f9f9f',
} as const;
export type BadgeColor = keyof typeof BADGE_COLORS;

/** Approximate advance of a character in Verdana 11px (narrow, wide, upper case, the rest). */
function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    if ("iljtf.,:;!|' ".includes(ch)) w += 3.7;
    else if ('mwMW%@'.includes(ch)) w += 10.5;
    else if (ch >= 'A' && ch <= 'Z') w += 7.6;
    else w += 6.8;
  }
  return Math.ceil(w);
}

export function badgeSvg(label: string, value: string, color: BadgeColor): string {
  const lw = textWidth(label) + 10;
  const vw = textWidth(value) + 10;
  const total = lw + vw;
  const fill = BADGE_COLORS[color];
  const l = escapeHtml(label);
  const v = escapeHtml(value);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${l}: ${v}"><title>${l}: ${v}</title><linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient><clipPath id="r"><rect width="${total}" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${fill}"/><rect width="${total}" height="20" fill="url(#s)"/></g><g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"><text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${l}</text><text x="${lw / 2}" y="14">${l}</text><text x="${lw + vw / 2}" y="15" fill="#010101" fill-opacity=".3">${v}</text><text x="${lw + vw / 2}" y="14">${v}</text></g></svg>`;
}

export const STATE_BADGE: Record<string, { text: string; color: BadgeColor }> = {
  operational: { text: 'up', color: 'green' },
  degraded: { text: 'degraded', color: 'yellow' },
  down: { text: 'down', color: 'red' },
  maintenance: { text: 'maintenance', color: 'blue' },
  unknown: { text: 'unknown', color: 'grey' },
};

export function uptimeColor(uptime: number | null): BadgeColor {
  if (uptime === null) return 'grey';
  if (uptime >= 99.9) return 'green';
  if (uptime >= 99) return 'yellowgreen';
  if (uptime >= 95) return 'yellow';
  if (uptime >= 90) return 'orange';
  return 'red';
}

export function latencyColor(ms: number | null): BadgeColor {
  if (ms === null) return 'grey';
  if (ms < 200) return 'green';
  if (ms < 500) return 'yellowgreen';
  if (ms < 1000) return 'yellow';
  if (ms < 2000) return 'orange';
  return 'red';
}

/** 99.95 → "99.95%", 100 → "100%". */
export const formatUptime = (u: number | null) => (u === null ? 'no data' : `${Number(u.toFixed(2))}%`);
export const formatLatency = (ms: number | null) => (ms === null ? 'no data' : `${Math.round(ms)}ms`);
