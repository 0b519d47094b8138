// Stage 1 of /api/db: the cursor, name/JSON path/field readers and nesting limit every grammar shares.
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

function describeChar(s: string, i: number): string {
  return i >= s.length || i < 0 ? 'end of input' : JSON.stringify(s[i]);
}

// ---------------------------------------------------------------------------
// A small cursor used by the select, filter, logic and order grammars.

export class Cursor {
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
export function readName(c: Cursor, expecting = 'field name'): string {
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

export function readQuoted(c: Cursor): string {
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

export function readJsonPath(c: Cursor): JsonStep[] {
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

export function readField(c: Cursor): Field {
  const name = readName(c);
  return { name, json: readJsonPath(c) };
}

/** Deeper embeds or logic trees than this are refused: each level is a join or a subquery. */
export const MAX_NESTING = 10;

export function tooDeep(c: Cursor, what: string): never {
  throw new ApiError(
    400,
    'PGRST100',
    `"failed to parse ${c.what} (${c.input.slice(0, 200)})" (line 1, column ${c.pos + 1})`,
    `${what} may be nested at most ${MAX_NESTING} levels deep`,
  );
}
