// Stage 1 of /api/db: the request (path, query string, headers, body) → a request tree.
// Pure: no database, no schema. Grammar and error texts follow PostgREST 12.
import { ApiError, parseError } from './errors.js';

export type JsonOp = '->' | '->>';
export interface JsonStep {
  op: JsonOp;
  key: string;
}
export interface Field {
  name: string;
  json: JsonStep[];
}

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'column'; field: Field; alias?: string; cast?: string }
  | {
      kind: 'embed';
      target: string;
      alias?: string;
      hint?: string;
      joinType?: 'inner' | 'left';
      spread: boolean;
      select: SelectItem[];
    };

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

export interface OrderTerm {
  field: Field;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/** Conditions, order and limits of the top level (path []) or of an embed (path ['teams']). */
export interface NodeOptions {
  path: string[];
  conditions: Condition[];
  order?: OrderTerm[];
  limit?: number;
  offset?: number;
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

export interface ApiRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';
  target: { kind: 'relation' | 'rpc'; name: string };
  select: SelectItem[];
  nodes: Map<string, NodeOptions>;
  /** Non-reserved query parameters of an RPC call, kept raw: arguments or filters, decided by the plan. */
  rpcParams: [string, string][];
  range?: { from: number; to?: number };
  onConflict?: string[];
  columns?: string[];
  prefer: Preferences;
  singular: boolean;
  /** The raw request body (writes and POST rpc). */
  body?: string;
}

export interface RawRequest {
  method: string;
  /** Path below /api/db, e.g. "/people" or "/rpc/fn". */
  path: string;
  query: [string, string][];
  headers: Record<string, string | undefined>;
  body?: string;
}

const RESERVED = new Set(['select', 'columns', 'on_conflict', 'order', 'limit', 'offset', 'and', 'or']);

export function parseRequest(raw: RawRequest): ApiRequest {
  const method = raw.method.toUpperCase();
  if (!['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'].includes(method)) {
    throw new ApiError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
  }
  const target = parseTarget(raw.path);
  const req: ApiRequest = {
    method: method as ApiRequest['method'],
    target,
    select: [{ kind: 'star' }],
    nodes: new Map(),
    rpcParams: [],
    prefer: parsePrefer(raw.headers['prefer']),
    singular: isSingular(raw.headers['accept']),
    body: raw.body,
  };
  const node = (path: string[]): NodeOptions => {
    const key = path.join('.');
    let n = req.nodes.get(key);
    if (!n) req.nodes.set(key, (n = { path, conditions: [] }));
    return n;
  };
  node([]);

  for (const [key, value] of raw.query) {
    if (key === 'select') {
      req.select = parseSelect(value);
      continue;
    }
    if (key === 'columns') {
      req.columns = parseColumnList('columns', value);
      continue;
    }
    if (key === 'on_conflict') {
      req.onConflict = parseColumnList('on_conflict', value);
      continue;
    }
    const { path, last } = splitKey(key);
    if (last === 'order') {
      node(path).order = parseOrder(value);
    } else if (last === 'limit') {
      node(path).limit = parseInteger('limit', value) ?? node(path).limit;
    } else if (last === 'offset') {
      node(path).offset = parseInteger('offset', value) ?? node(path).offset;
    } else if (last === 'and' || last === 'or' || last === 'not.and' || last === 'not.or') {
      node(path).conditions.push(parseLogicParam(last, value));
    } else if (path.length === 0 && target.kind === 'rpc') {
      req.rpcParams.push([key, value]);
    } else if (!RESERVED.has(key)) {
      node(path).conditions.push(parseFilterParam(last, value));
    }
  }
  req.range = parseRangeHeader(raw.headers['range']);
  return req;
}

function parseTarget(path: string): ApiRequest['target'] {
  const parts = path.split('/').filter(Boolean).map(decodeSegment);
  if (parts.length === 2 && parts[0] === 'rpc') return { kind: 'rpc', name: parts[1]! };
  if (parts.length === 1) return { kind: 'relation', name: parts[0]! };
  throw new ApiError(404, 'PGRST125', `Invalid path specified in request URL`);
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new ApiError(404, 'PGRST125', `Invalid path specified in request URL`);
  }
}

/** "teams.people.order" → path [teams, people], last "order"; "not.or" stays whole. */
function splitKey(key: string): { path: string[]; last: string } {
  const parts = key.split('.');
  for (const logic of ['not.and', 'not.or']) {
    if (key === logic || key.endsWith('.' + logic)) {
      return { path: parts.slice(0, -2), last: logic };
    }
  }
  return { path: parts.slice(0, -1), last: parts[parts.length - 1]! };
}

/** limit/offset: a value that is not an integer is ignored, as PostgREST 12 does; a negative limit is refused. */
function parseInteger(what: 'limit' | 'offset', value: string): number | undefined {
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

function describeChar(s: string, i: number): string {
  return i >= s.length || i < 0 ? 'end of input' : JSON.stringify(s[i]);
}

// ---------------------------------------------------------------------------
// A small cursor used by the select, filter, logic and order grammars.

class Cursor {
  pos = 0;
  constructor(
    readonly input: string,
    readonly what: string,
    /** PostgREST parses logic trees as "or(...)": its columns count the operator too. */
    readonly columnOffset = 0,
  ) {}
  get done(): boolean {
    return this.pos >= this.input.length;
  }
  peek(n = 1): string {
    return this.input.slice(this.pos, this.pos + n);
  }
  eat(s: string): boolean {
    if (this.input.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }
  fail(expecting: string): never {
    throw parseError(
      this.what,
      this.input,
      this.pos + 1 + this.columnOffset,
      `unexpected ${describeChar(this.input, this.pos)} expecting ${expecting}`,
    );
  }
}

const NAME_CHAR = /[\p{L}\p{N}_ $]/u;

/** A field name: letters, digits, `_`, space, `$` and inner dashes, or a double-quoted name. */
function readName(c: Cursor, expecting = 'field name'): string {
  if (c.peek() === '"') return readQuoted(c);
  const start = c.pos;
  for (;;) {
    while (!c.done && NAME_CHAR.test(c.peek())) c.pos++;
    // A dash continues a name unless it starts "->".
    if (c.peek() === '-' && c.peek(2) !== '->' && c.pos > start && NAME_CHAR.test(c.input[c.pos + 1] ?? '')) {
      c.pos++;
      continue;
    }
    break;
  }
  if (c.pos === start) c.fail(expecting);
  return c.input.slice(start, c.pos);
}

function readQuoted(c: Cursor): string {
  c.pos++; // opening quote
  let out = '';
  while (!c.done && c.peek() !== '"') {
    if (c.peek() === '\\' && c.pos + 1 < c.input.length) c.pos++;
    out += c.peek();
    c.pos++;
  }
  if (!c.eat('"')) c.fail('"\\"" or any character');
  return out;
}

function readJsonPath(c: Cursor): JsonStep[] {
  const steps: JsonStep[] = [];
  for (;;) {
    let op: JsonOp;
    if (c.eat('->>')) op = '->>';
    else if (c.eat('->')) op = '->';
    else return steps;
    const neg = c.eat('-') ? '-' : '';
    const key = neg + readName(c, 'json key');
    steps.push({ op, key });
  }
}

function readField(c: Cursor): Field {
  const name = readName(c);
  return { name, json: readJsonPath(c) };
}

// ---------------------------------------------------------------------------
// select=id,alias:col::text,labels->>app,team:team_id!inner(id,name),...people(name)

export function parseSelect(input: string): SelectItem[] {
  const c = new Cursor(input, 'select parameter');
  const items = readSelectList(c, 0);
  if (!c.done) c.fail('",", "(" or end of input');
  return items;
}

/** Deeper embeds or logic trees than this are refused: each level is a join or a subquery. */
export const MAX_NESTING = 10;

function tooDeep(c: Cursor, what: string): never {
  throw new ApiError(
    400,
    'PGRST100',
    `"failed to parse ${c.what} (${c.input.slice(0, 200)})" (line 1, column ${c.pos + 1})`,
    `${what} may be nested at most ${MAX_NESTING} levels deep`,
  );
}

function readSelectList(c: Cursor, depth: number): SelectItem[] {
  if (depth > MAX_NESTING) tooDeep(c, 'embedded resources');
  const nested = depth > 0;
  const items: SelectItem[] = [];
  if (c.done && !nested) return [{ kind: 'star' }];
  for (;;) {
    if (nested && c.peek() === ')') break; // empty embed list: select=people()
    items.push(readSelectItem(c, depth));
    if (!c.eat(',')) break;
  }
  return items;
}

function readSelectItem(c: Cursor, depth: number): SelectItem {
  if (c.eat('*')) return { kind: 'star' };
  const spread = c.eat('...');
  const start = c.pos;
  let alias: string | undefined;
  let name = readName(c, '"...", field name (* or [a..z0..9_$]), "*" or "count()"');
  if (c.peek() === ':' && c.peek(2) !== '::') {
    c.pos++;
    alias = name;
    name = readName(c);
  }
  // An embed: name followed by !hints and a parenthesised select.
  if (c.peek() === '!' || c.peek() === '(') {
    let hint: string | undefined;
    let joinType: 'inner' | 'left' | undefined;
    while (c.eat('!')) {
      const h = readName(c, 'hint');
      if (h === 'inner' || h === 'left') joinType = h;
      else hint = h;
    }
    if (!c.eat('(')) c.fail('"(" ');
    const select = readSelectList(c, depth + 1);
    if (!c.eat(')')) c.fail('letter, digit, "-", "->>", "->", "::", ".", ")", "," or end of input');
    return { kind: 'embed', target: name, alias, hint, joinType, spread, select };
  }
  if (spread) {
    c.pos = start;
    c.fail('embedded resource');
  }
  const json = readJsonPath(c);
  let cast: string | undefined;
  if (c.eat('::')) cast = readName(c, 'cast type');
  return { kind: 'column', field: { name, json }, alias, cast };
}

function parseColumnList(what: string, input: string): string[] {
  const c = new Cursor(input, what);
  const out: string[] = [];
  do out.push(readName(c));
  while (c.eat(','));
  if (!c.done) c.fail('"," or end of input');
  return out;
}

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

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

const JSON_TYPES = new Set(['*/*', 'application/*', 'application/json']);
const OBJECT_TYPES = new Set(['application/vnd.pgrst.object+json', 'application/vnd.pgrst.object']);

/** Accept negotiation: JSON, or PostgREST's single-object type; anything else is 415. */
function isSingular(accept: string | undefined): boolean {
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
