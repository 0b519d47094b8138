// Stage 1 of /api/db: filters (col=op.value) and the and/or logic trees that nest them.
import { Cursor, readField, readName, readQuoted, tooDeep, MAX_NESTING, type Field } from './parseCursor.js';

export const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'in',
  'is',
  'isdistinct',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
] as const;
export type Operator = (typeof OPERATORS)[number];
const QUANTIFIABLE = new Set<Operator>(['eq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch']);
const FTS = new Set<Operator>(['fts', 'plfts', 'phfts', 'wfts']);
export const IS_VALUES = ['null', 'true', 'false', 'unknown'] as const;

export interface Filter {
  kind: 'filter';
  field: Field;
  negated: boolean;
  op: Operator;
  quantifier?: 'any' | 'all';
  /** A list for `in` and quantified operators, otherwise the raw text. */
  value: string | string[];
  ftsConfig?: string;
}
export interface Logic {
  kind: 'logic';
  op: 'and' | 'or';
  negated: boolean;
  children: Condition[];
}
export type Condition = Filter | Logic;

// ---------------------------------------------------------------------------
// Filters: col=not.eq.5, col=in.(1,"a,b"), col=like(any).{a*,b*}, col=fts(english).cat

export function parseFilterParam(key: string, value: string): Filter {
  const field = parseFieldKey(key);
  const c = new Cursor(value, 'filter');
  const filter = readOpExpr(c, field, 'end');
  return filter;
}

function parseFieldKey(key: string): Field {
  const c = new Cursor(key, 'filter');
  const field = readField(c);
  if (!c.done) c.fail('"->", "->>" or end of input');
  return field;
}

const OPERATOR_EXPECT = 'operator (eq, gt, ...)';

/** "not.op.value" or "op.value"; `until` says where an unquoted value ends. */
function readOpExpr(c: Cursor, field: Field, until: 'end' | 'logic'): Filter {
  let negated = false;
  if (c.input.startsWith('not.', c.pos)) {
    negated = true;
    c.pos += 4;
  }
  const opStart = c.pos;
  const word = /^[a-z]+/.exec(c.input.slice(c.pos))?.[0] ?? '';
  if (!(OPERATORS as readonly string[]).includes(word)) {
    c.pos = opStart;
    c.fail(negated ? OPERATOR_EXPECT : `"not" or ${OPERATOR_EXPECT}`);
  }
  const op = word as Operator;
  c.pos += word.length;
  let quantifier: Filter['quantifier'];
  let ftsConfig: string | undefined;
  if (c.peek() === '(') {
    if (QUANTIFIABLE.has(op) && (c.eat('(any)') || c.eat('(all)'))) {
      quantifier = c.input.slice(c.pos - 4, c.pos - 1) as 'any' | 'all';
    } else if (FTS.has(op)) {
      c.pos++;
      ftsConfig = readName(c, 'text search configuration');
      if (!c.eat(')')) c.fail('")"');
    } else c.fail('"."');
  }
  if (!c.eat('.')) c.fail(OPERATOR_EXPECT);
  if (op === 'in') return { kind: 'filter', field, negated, op, value: readList(c, '(', ')', until) };
  if (quantifier) return { kind: 'filter', field, negated, op, quantifier, value: readList(c, '{', '}', until) };
  if (op === 'is') {
    const start = c.pos;
    const v = readValue(c, until).toLowerCase();
    if (!(IS_VALUES as readonly string[]).includes(v)) {
      // Like PostgREST's parser: the error points at the first character no allowed word continues with.
      const matched = Math.max(...IS_VALUES.map((w) => commonPrefix(w, v)));
      c.pos = start + matched;
      c.fail('null or trilean value (unknown, true, false)');
    }
    return { kind: 'filter', field, negated, op, value: v };
  }
  return { kind: 'filter', field, negated, op, value: readValue(c, until), ftsConfig };
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The rest of a filter value: to the end, or inside a logic tree up to "," / ")" unless quoted. */
function readValue(c: Cursor, until: 'end' | 'logic'): string {
  if (until === 'end') {
    const v = c.input.slice(c.pos);
    c.pos = c.input.length;
    return v;
  }
  if (c.peek() === '"') return readQuoted(c);
  const start = c.pos;
  let depth = 0;
  while (!c.done) {
    const ch = c.peek();
    if (ch === '(' || ch === '{' || ch === '[') depth++;
    else if ((ch === ')' || ch === '}' || ch === ']') && depth > 0) depth--;
    else if ((ch === ',' || ch === ')') && depth === 0) break;
    c.pos++;
  }
  return c.input.slice(start, c.pos);
}

/** "(a,"b,c",d)" → [a, "b,c", d]; items may be double-quoted with backslash escapes. */
function readList(c: Cursor, open: string, close: string, until: 'end' | 'logic'): string[] {
  if (!c.eat(open)) c.fail(JSON.stringify(open));
  const items: string[] = [];
  if (c.eat(close)) {
    if (until === 'end' && !c.done) c.fail('end of input');
    return items;
  }
  for (;;) {
    if (c.peek() === '"') items.push(readQuoted(c));
    else {
      const start = c.pos;
      while (!c.done && c.peek() !== ',' && c.peek() !== close) c.pos++;
      items.push(c.input.slice(start, c.pos));
    }
    if (c.eat(',')) continue;
    if (c.eat(close)) break;
    c.fail(`"," or ${JSON.stringify(close)}`);
  }
  if (until === 'end' && !c.done) c.fail('end of input');
  return items;
}

// ---------------------------------------------------------------------------
// Logic trees: or=(a.eq.1,and(b.gt.2,c.is.null),not.or(d.eq.x,e.eq.y))

export function parseLogicParam(key: 'and' | 'or' | 'not.and' | 'not.or', value: string): Logic {
  const negated = key.startsWith('not.');
  const op = key.endsWith('and') ? 'and' : 'or';
  const c = new Cursor(value, 'logic tree', key.length);
  const children = readLogicChildren(c, 1);
  if (!c.done) c.fail('end of input');
  return { kind: 'logic', op, negated, children };
}

function readLogicChildren(c: Cursor, depth: number): Condition[] {
  if (depth > MAX_NESTING) tooDeep(c, 'logic trees');
  if (!c.eat('(')) c.fail('"("');
  const children: Condition[] = [];
  do children.push(readLogicItem(c, depth));
  while (c.eat(','));
  if (!c.eat(')')) c.fail('"," or ")"');
  return children;
}

function readLogicItem(c: Cursor, depth: number): Condition {
  const start = c.pos;
  let negated = false;
  if (c.input.startsWith('not.', c.pos)) {
    negated = true;
    c.pos += 4;
  }
  for (const op of ['and', 'or'] as const) {
    if (c.input.startsWith(op + '(', c.pos)) {
      c.pos += op.length;
      return { kind: 'logic', op, negated, children: readLogicChildren(c, depth + 1) };
    }
  }
  c.pos = start;
  const field = readField(c);
  if (!c.eat('.')) c.fail('letter, digit, "-", "->>", "->" or delimiter (.)');
  return readOpExpr(c, field, 'logic');
}
