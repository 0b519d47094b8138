// Stage 1 of /api/db: order, limit and offset parameters and the Prefer, Accept and Range headers.
import { ApiError } from './errors.js';
import type { ApiRequest } from './parse.js';
import { Cursor, readField, type Field } from './parseCursor.js';

export interface OrderTerm {
  field: Field;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

export interface Preferences {
  return?: 'minimal' | 'representation' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  handling?: 'strict' | 'lenient';
  tx?: 'commit' | 'rollback';
  params?: 'single-object';
  /** Preferences the request sent that are not understood (listed for strict handling). */
  invalid: string[];
}

// ---------------------------------------------------------------------------
// order=name.desc.nullslast,labels->>app,created_at.asc

export function parseOrder(input: string): OrderTerm[] {
  const c = new Cursor(input, 'order');
  const terms: OrderTerm[] = [];
  do {
    const term: OrderTerm = { field: readField(c) };
    while (c.eat('.')) {
      const word = /^[a-z]+/.exec(c.input.slice(c.pos))?.[0] ?? '';
      if (word === 'asc' || word === 'desc') term.direction = word;
      else if (word === 'nullsfirst') term.nulls = 'first';
      else if (word === 'nullslast') term.nulls = 'last';
      else c.fail('"asc", "desc", "nullsfirst" or "nullslast"');
      c.pos += word.length;
    }
    terms.push(term);
  } while (c.eat(','));
  if (!c.done) c.fail('",", "." or end of input');
  return terms;
}

/** limit/offset: a value that is not an integer is ignored, as PostgREST 12 does; a negative limit is refused. */
export function parseInteger(what: 'limit' | 'offset', value: string): number | undefined {
  if (!/^-?\d+$/.test(value)) return undefined;
  const n = Number(value);
  if (n >= 0) return n;
  if (what === 'limit') {
    throw new ApiError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      'Limit should be greater than or equal to zero.',
    );
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Headers

export function parsePrefer(header: string | undefined): Preferences {
  const prefer: Preferences = { invalid: [] };
  if (!header) return prefer;
  const allowed: Record<string, readonly string[]> = {
    return: ['minimal', 'representation', 'headers-only'],
    count: ['exact', 'planned', 'estimated'],
    resolution: ['merge-duplicates', 'ignore-duplicates'],
    missing: ['default', 'null'],
    handling: ['strict', 'lenient'],
    tx: ['commit', 'rollback'],
    params: ['single-object'],
  };
  for (const part of header.split(',')) {
    const token = part.trim();
    if (!token) continue;
    const [k, v] = token.split('=').map((s) => s.trim());
    if (k && v && allowed[k]?.includes(v) && !(k in prefer)) {
      (prefer as unknown as Record<string, string>)[k] = v;
    } else prefer.invalid.push(token);
  }
  return prefer;
}

const JSON_TYPES = new Set(['*/*', 'application/*', 'application/json']);
const OBJECT_TYPES = new Set(['application/vnd.pgrst.object+json', 'application/vnd.pgrst.object']);

/** Accept negotiation: JSON, or PostgREST's single-object type; anything else is 415. */
export function isSingular(accept: string | undefined): boolean {
  if (!accept || !accept.trim()) return false;
  const types = accept
    .split(',')
    .map((t) => t.split(';')[0]!.trim().toLowerCase())
    .filter(Boolean);
  for (const t of types) {
    if (OBJECT_TYPES.has(t)) return true;
    if (JSON_TYPES.has(t)) return false;
  }
  throw new ApiError(415, 'PGRST107', `None of these media types are available: ${types.join(', ')}`);
}

/** "Range: 0-24" (items); an open end "10-" is allowed. Malformed ranges are ignored, as PostgREST does. */
export function parseRangeHeader(header: string | undefined): ApiRequest['range'] {
  if (!header) return undefined;
  const m = /^\s*(?:items=)?(\d+)-(\d*)\s*$/.exec(header);
  if (!m) return undefined;
  const from = Number(m[1]);
  const to = m[2] ? Number(m[2]) : undefined;
  if (to !== undefined && to < from) {
    throw new ApiError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
    );
  }
  return { from, to };
}
