// Stage 1 of /api/db: the select grammar (columns, aliases, casts, JSON paths, embeds) and column lists.
import { Cursor, readJsonPath, readName, tooDeep, MAX_NESTING, type Field } from './parseCursor.js';

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

// ---------------------------------------------------------------------------
// select=id,alias:col::text,labels->>app,team:team_id!inner(id,name),...people(name)

export function parseSelect(input: string): SelectItem[] {
  const c = new Cursor(input, 'select parameter');
  const items = readSelectList(c, 0);
  if (!c.done) c.fail('",", "(" or end of input');
  return items;
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

export function parseColumnList(what: string, input: string): string[] {
  const c = new Cursor(input, what);
  const out: string[] = [];
  do out.push(readName(c));
  while (c.eat(','));
  if (!c.done) c.fail('"," or end of input');
  return out;
}
