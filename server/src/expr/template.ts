// Go text/template, the subset specs use (`display.template`, notification titles and bodies,
// scraper fields), written by hand: there is no maintained JavaScript port.
//
// Supported: text and {{actions}}; trim markers `{{- ` and ` -}}`; comments {{/* */}}; `.`,
// fields `.a.b`, variables `$`, `$x`, `$x.a`; literals (strings "…" and `raw`, chars 'a',
// numbers incl. hex/octal/binary/exponents, true/false/nil); pipelines `.x | f a b` (the piped
// value is the last argument); parenthesised pipelines `(f .x).field`; `$x := …` and `$x = …`;
// if / else if / else, with / else with / else, range (lists, maps in sorted key order, integers;
// `$i, $e :=`; else; break; continue); define / template / block. Functions: see
// template-funcs.ts (Go built-ins plus common sprig ones); `and`/`or` short-circuit as in Go.
//
// Differences from Go, chosen for templates that render messages from loosely shaped data:
//   - a missing field, or a field of a missing value, is "missing": it prints "<no value>" (as
//     Go does for a missing map key), is false in if/with, and `default` replaces it; JSON null
//     behaves the same. A field of a string/number/list is an error, as in Go.
//   - on lists, `._0`, `._1`… select elements (so sprig's `(split "," .x)._0` works);
//   - Durations (duration.ts) have Go's `.Hours`, `.Minutes`, `.Seconds`, `.Milliseconds` and
//     `.String`; dates have `.Unix`, `.UnixMilli`, `.Year`, `.Month`, `.Day`, `.Hour`,
//     `.Minute`, `.Second`, `.UTC`, `.String`;
//   - numbers print as Go ints when integral (see gofmt.ts).
//
// Limits: templates longer than TEMPLATE_MAX_LENGTH are refused; execution stops with an
// ExpressionError after TEMPLATE_MAX_STEPS steps (actions, iterations, calls) or when the output
// passes TEMPLATE_MAX_OUTPUT characters, and nested {{template}} calls are capped.
// Parsed templates are cached (LRU) by source text. Errors are ExpressionErrors with the line
// and column of the offending action.

import { ExpressionError, errorAt, messageOf } from './errors.js';
import { durationToMs, durationToNanos, formatDuration, isDuration } from './duration.js';
import { formatGoTime, formatValue, goTypeName, isTrue } from './gofmt.js';
import { LruCache } from './lru.js';
import { TEMPLATE_FUNCTIONS } from './template-funcs.js';

export const TEMPLATE_MAX_LENGTH = 512 * 1024;
export const TEMPLATE_MAX_OUTPUT = 5 * 1024 * 1024;
export const TEMPLATE_MAX_STEPS = 1_000_000;
export const TEMPLATE_CACHE_SIZE = 500;
const MAX_TEMPLATE_DEPTH = 100;

// ================================================================ lexer

type TokenKind =
  | 'dot'
  | 'field'
  | 'var'
  | 'ident'
  | 'string'
  | 'number'
  | 'lparen'
  | 'rparen'
  | 'pipe'
  | 'comma'
  | 'declare'
  | 'assign';

interface Token {
  kind: TokenKind;
  /** Offset of the token in the template source. */
  pos: number;
  /** Whitespace came right before the token (separates `(x) .a` from `(x).a`). */
  spaceBefore: boolean;
  /** Source text (identifier name, variable name with `$`, ...). */
  text: string;
  /** Field chain for field/var tokens (`.a.b` → ['a', 'b']). */
  chain: string[];
  /** Literal value for string/number tokens. */
  value?: unknown;
}

interface TextSegment {
  kind: 'text';
  text: string;
}

interface ActionSegment {
  kind: 'action';
  tokens: Token[];
  /** Offset of `{{`. */
  pos: number;
}

type Segment = TextSegment | ActionSegment;

/** A problem at a place in the template; turned into an ExpressionError by renderTemplate. */
class TemplateProblem extends Error {
  constructor(
    message: string,
    readonly pos: number | undefined,
    readonly phase: 'parse' | 'exec',
  ) {
    super(message);
  }
}

const parseError = (message: string, pos: number) => new TemplateProblem(message, pos, 'parse');
const execError = (message: string, pos: number | undefined) => new TemplateProblem(message, pos, 'exec');

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

function isIdentStart(c: string | undefined): boolean {
  return c !== undefined && /^[\p{L}_]$/u.test(c);
}

function isIdentChar(c: string | undefined): boolean {
  return c !== undefined && /^[\p{L}\p{N}_]$/u.test(c);
}

function trimLeadingSpace(text: string): string {
  return text.replace(/^[ \t\r\n]+/, '');
}

function trimTrailingSpace(text: string): string {
  return text.replace(/[ \t\r\n]+$/, '');
}

/** Split a template into text and tokenised actions, applying trim markers and dropping comments. */
function lex(src: string): Segment[] {
  const segments: Segment[] = [];
  let pos = 0;
  let trimNext = false;
  for (;;) {
    const open = src.indexOf('{{', pos);
    let text = open < 0 ? src.slice(pos) : src.slice(pos, open);
    if (trimNext) text = trimLeadingSpace(text);
    trimNext = false;
    if (open < 0) {
      if (text) segments.push({ kind: 'text', text });
      return segments;
    }
    let p = open + 2;
    if (src[p] === '-' && isSpace(src[p + 1])) {
      text = trimTrailingSpace(text);
      p += 2;
    }
    if (text) segments.push({ kind: 'text', text });
    while (isSpace(src[p])) p++;
    if (src.startsWith('/*', p)) {
      const close = src.indexOf('*/', p + 2);
      if (close < 0) throw parseError('unclosed comment', open);
      p = close + 2;
      const end = closingDelimiter(src, p, true);
      if (!end) throw parseError('comment ends before closing delimiter', open);
      trimNext = end.trim;
      pos = end.next;
      continue;
    }
    const action = lexAction(src, p, open);
    segments.push({ kind: 'action', tokens: action.tokens, pos: open });
    trimNext = action.trim;
    pos = action.next;
  }
}

/** `}}` or ` -}}` at `p` (after optional whitespace when `skipSpace`). */
function closingDelimiter(src: string, p: number, skipSpace: boolean): { next: number; trim: boolean } | undefined {
  let q = p;
  if (skipSpace) while (isSpace(src[q])) q++;
  const spaced = q > p || isSpace(src[p - 1]);
  if (spaced && src.startsWith('-}}', q)) return { next: q + 3, trim: true };
  if (src.startsWith('}}', q)) return { next: q + 2, trim: false };
  return undefined;
}

const NUMBER =
  /^[+-]?(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?)/;

function lexAction(src: string, start: number, open: number): { tokens: Token[]; next: number; trim: boolean } {
  const tokens: Token[] = [];
  let p = start;
  for (;;) {
    const before = p;
    while (isSpace(src[p])) p++;
    const spaceBefore = p > before || isSpace(src[p - 1]);
    if (p >= src.length) throw parseError('unclosed action', open);
    const end = closingDelimiter(src, p, false);
    if (end) return { tokens, next: end.next, trim: end.trim };
    const c = src[p];
    const push = (kind: TokenKind, text: string, extra: Partial<Token> = {}) => {
      tokens.push({ kind, pos: p, spaceBefore, text, chain: [], ...extra });
      p += text.length;
    };
    if (c === '"' || c === '`') {
      const { value, length } = lexString(src, p);
      push('string', src.slice(p, p + length), { value });
    } else if (c === "'") {
      const { value, length } = lexChar(src, p);
      push('number', src.slice(p, p + length), { value });
    } else if (c === '(') push('lparen', '(');
    else if (c === ')') push('rparen', ')');
    else if (c === '|') push('pipe', '|');
    else if (c === ',') push('comma', ',');
    else if (c === ':' && src[p + 1] === '=') push('declare', ':=');
    else if (c === '=') push('assign', '=');
    else if (c === '$') {
      let q = p + 1;
      while (isIdentChar(src[q])) q++;
      const chain = readChain(src, q);
      push('var', src.slice(p, q), { chain: chain.names });
      p = chain.end;
    } else if (c === '.' && isIdentStart(src[p + 1])) {
      const chain = readChain(src, p);
      tokens.push({ kind: 'field', pos: p, spaceBefore, text: src.slice(p, chain.end), chain: chain.names });
      p = chain.end;
    } else if (NUMBER.test(src.slice(p, p + 64)) && (c !== '.' || /\d/.test(src[p + 1] ?? ''))) {
      const match = NUMBER.exec(src.slice(p, p + 400));
      const text = match?.[0] ?? '';
      if (isIdentChar(src[p + text.length]) || (src[p + text.length] === '.' && text.includes('.'))) {
        throw parseError(`bad number syntax: "${src.slice(p, p + text.length + 1)}"`, p);
      }
      push('number', text, { value: parseNumber(text) });
    } else if (c === '.') push('dot', '.');
    else if (isIdentStart(c)) {
      let q = p;
      while (isIdentChar(src[q])) q++;
      // Namespaced function names (strings.ToUpper) are one identifier.
      while (src[q] === '.' && isIdentStart(src[q + 1])) {
        q++;
        while (isIdentChar(src[q])) q++;
      }
      push('ident', src.slice(p, q));
    } else {
      throw parseError(`unexpected ${JSON.stringify(c)} in action`, p);
    }
  }
}

function readChain(src: string, p: number): { names: string[]; end: number } {
  const names: string[] = [];
  let q = p;
  while (src[q] === '.' && isIdentStart(src[q + 1])) {
    let r = q + 1;
    while (isIdentChar(src[r])) r++;
    names.push(src.slice(q + 1, r));
    q = r;
  }
  return { names, end: q };
}

function parseNumber(text: string): number {
  const clean = text.replace(/_/g, '');
  const sign = clean.startsWith('-') ? -1 : 1;
  const body = clean.replace(/^[+-]/, '');
  if (/^0[xX]/.test(body)) return sign * Number.parseInt(body.slice(2), 16);
  if (/^0[oO]/.test(body)) return sign * Number.parseInt(body.slice(2), 8);
  if (/^0[bB]/.test(body)) return sign * Number.parseInt(body.slice(2), 2);
  if (/^0\d+$/.test(body)) return sign * Number.parseInt(body, 8);
  return sign * Number(body);
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

function lexString(src: string, start: number): { value: string; length: number } {
  const quote = src[start];
  if (quote === '`') {
    const close = src.indexOf('`', start + 1);
    if (close < 0) throw parseError('unterminated raw quoted string', start);
    return { value: src.slice(start + 1, close), length: close - start + 1 };
  }
  let value = '';
  let p = start + 1;
  for (;;) {
    const c = src[p];
    if (c === undefined || c === '\n') throw parseError('unterminated quoted string', start);
    if (c === '"') return { value, length: p - start + 1 };
    if (c === '\\') {
      const { text, length } = lexEscape(src, p);
      value += text;
      p += length;
    } else {
      value += c;
      p++;
    }
  }
}

function lexEscape(src: string, p: number): { text: string; length: number } {
  const e = src[p + 1];
  if (e !== undefined && ESCAPES[e] !== undefined) return { text: ESCAPES[e], length: 2 };
  const hex = (digits: number) => {
    const h = src.slice(p + 2, p + 2 + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(h)) throw parseError('invalid escape in quoted string', p);
    return { text: String.fromCodePoint(Number.parseInt(h, 16)), length: 2 + digits };
  };
  if (e === 'x') return hex(2);
  if (e === 'u') return hex(4);
  if (e === 'U') return hex(8);
  const octal = /^[0-7]{3}/.exec(src.slice(p + 1, p + 4));
  if (octal) return { text: String.fromCharCode(Number.parseInt(octal[0], 8)), length: 4 };
  throw parseError(`unknown escape \\${e ?? ''} in quoted string`, p);
}

function lexChar(src: string, start: number): { value: number; length: number } {
  let p = start + 1;
  let text: string;
  if (src[p] === '\\') {
    const escape = lexEscape(src, p);
    text = escape.text;
    p += escape.length;
  } else {
    const cp = src.codePointAt(p);
    if (cp === undefined || src[p] === "'" || src[p] === '\n') throw parseError('malformed character constant', start);
    text = String.fromCodePoint(cp);
    p += text.length;
  }
  if (src[p] !== "'") throw parseError('unterminated character constant', start);
  return { value: text.codePointAt(0) ?? 0, length: p - start + 1 };
}

// ================================================================ parser

type Operand =
  | { kind: 'dot'; pos: number }
  | { kind: 'field'; chain: string[]; pos: number }
  | { kind: 'var'; name: string; chain: string[]; pos: number }
  | { kind: 'fn'; name: string; pos: number }
  | { kind: 'literal'; value: unknown; pos: number }
  | { kind: 'nil'; pos: number }
  | { kind: 'pipe'; pipe: Pipe; chain: string[]; pos: number };

interface Command {
  args: Operand[];
  pos: number;
}

interface Pipe {
  decl: string[];
  isAssign: boolean;
  cmds: Command[];
  pos: number;
}

interface ControlNode {
  kind: 'if' | 'with' | 'range';
  pipe: Pipe;
  list: Node[];
  elseList?: Node[];
  pos: number;
}

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pipe: Pipe; pos: number }
  | ControlNode
  | { kind: 'break' | 'continue'; pos: number }
  | { kind: 'template'; name: string; pipe?: Pipe; pos: number };

interface ParsedTemplate {
  root: Node[];
  defines: Map<string, Node[]>;
}

interface Stop {
  keyword: 'end' | 'else';
  segment: ActionSegment;
  rest: Token[];
}

const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue']);
const LAZY_FUNCTIONS = new Set(['and', 'or']);

class Parser {
  #index = 0;
  #scopes: string[][] = [['$']];
  #rangeDepth = 0;
  readonly defines = new Map<string, Node[]>();

  constructor(private readonly segments: Segment[]) {}

  parse(): ParsedTemplate {
    const { nodes, stop } = this.#parseList();
    if (stop) throw parseError(`unexpected {{${stop.keyword}}}`, stop.segment.pos);
    return { root: nodes, defines: this.defines };
  }

  #parseList(): { nodes: Node[]; stop?: Stop } {
    const nodes: Node[] = [];
    while (this.#index < this.segments.length) {
      const segment = this.segments[this.#index++];
      if (segment === undefined) break;
      if (segment.kind === 'text') {
        nodes.push({ kind: 'text', text: segment.text });
        continue;
      }
      const [first, ...rest] = segment.tokens;
      if (first === undefined) throw parseError('missing value for command', segment.pos);
      const keyword = first.kind === 'ident' && KEYWORDS.has(first.text) ? first.text : undefined;
      switch (keyword) {
        case 'end':
          if (rest.length > 0) throw parseError(`unexpected "${rest[0]?.text}" in end`, rest[0]?.pos ?? segment.pos);
          return { nodes, stop: { keyword: 'end', segment, rest } };
        case 'else':
          return { nodes, stop: { keyword: 'else', segment, rest } };
        case 'if':
        case 'with':
        case 'range':
          nodes.push(this.#parseControl(keyword, segment, rest));
          break;
        case 'break':
        case 'continue':
          if (this.#rangeDepth === 0) throw parseError(`{{${keyword}}} outside {{range}}`, segment.pos);
          if (rest.length > 0)
            throw parseError(`unexpected "${rest[0]?.text}" in ${keyword}`, rest[0]?.pos ?? segment.pos);
          nodes.push({ kind: keyword, pos: segment.pos });
          break;
        case 'define':
          this.#parseDefine(segment, rest, false);
          break;
        case 'block':
          nodes.push(this.#parseDefine(segment, rest, true));
          break;
        case 'template':
          nodes.push(this.#parseTemplateCall(segment, rest));
          break;
        default:
          nodes.push({ kind: 'action', pipe: this.#parsePipeline(segment.tokens, segment.pos, 1), pos: segment.pos });
      }
    }
    return { nodes };
  }

  #parseControl(kind: 'if' | 'with' | 'range', segment: ActionSegment, tokens: Token[]): Node {
    this.#scopes.push([]);
    const pipe = this.#parsePipeline(tokens, segment.pos, kind === 'range' ? 2 : 1, kind);
    if (kind === 'range') this.#rangeDepth++;
    const { nodes: list, stop } = this.#parseList();
    if (kind === 'range') this.#rangeDepth--;
    if (!stop) throw parseError(`unexpected EOF: {{${kind}}} has no matching {{end}}`, segment.pos);
    let elseList: Node[] | undefined;
    if (stop.keyword === 'else') {
      const [next, ...after] = stop.rest;
      if (next) {
        if ((kind === 'if' || kind === 'with') && next.kind === 'ident' && next.text === kind) {
          // {{else if x}} ≡ {{else}}{{if x}}…{{end}}, sharing the final {{end}}.
          elseList = [this.#parseControl(kind, stop.segment, after)];
        } else {
          throw parseError(`unexpected "${next.text}" in else`, next.pos);
        }
      } else {
        const tail = this.#parseList();
        if (!tail.stop) throw parseError(`unexpected EOF: {{${kind}}} has no matching {{end}}`, segment.pos);
        if (tail.stop.keyword !== 'end') throw parseError('expected {{end}}; found {{else}}', tail.stop.segment.pos);
        elseList = tail.nodes;
      }
    }
    this.#scopes.pop();
    return { kind, pipe, list, elseList, pos: segment.pos };
  }

  #parseDefine(segment: ActionSegment, tokens: Token[], isBlock: boolean): Node {
    const [nameToken, ...rest] = tokens;
    const keyword = isBlock ? 'block' : 'define';
    if (nameToken?.kind !== 'string') throw parseError(`{{${keyword}}} needs a quoted template name`, segment.pos);
    const name = String(nameToken.value);
    const pipe = isBlock && rest.length > 0 ? this.#parsePipeline(rest, segment.pos, 0) : undefined;
    if (!isBlock && rest.length > 0)
      throw parseError(`unexpected "${rest[0]?.text}" in define`, rest[0]?.pos ?? segment.pos);
    const savedScopes = this.#scopes;
    const savedRangeDepth = this.#rangeDepth;
    this.#scopes = [['$']];
    this.#rangeDepth = 0;
    const { nodes, stop } = this.#parseList();
    this.#scopes = savedScopes;
    this.#rangeDepth = savedRangeDepth;
    if (!stop || stop.keyword !== 'end')
      throw parseError(`{{${keyword} "${name}"}} has no matching {{end}}`, segment.pos);
    this.defines.set(name, nodes);
    return { kind: 'template', name, pipe, pos: segment.pos };
  }

  #parseTemplateCall(segment: ActionSegment, tokens: Token[]): Node {
    const [nameToken, ...rest] = tokens;
    if (nameToken?.kind !== 'string') throw parseError('{{template}} needs a quoted template name', segment.pos);
    const pipe = rest.length > 0 ? this.#parsePipeline(rest, segment.pos, 0) : undefined;
    return { kind: 'template', name: String(nameToken.value), pipe, pos: segment.pos };
  }

  /** A pipeline from a whole action; `maxDecl` is how many `$x :=` variables it may declare. */
  #parsePipeline(tokens: Token[], pos: number, maxDecl: number, context = 'command'): Pipe {
    let k = 0;
    let decl: string[] = [];
    let isAssign = false;
    const isBinding = (t: Token | undefined) => t?.kind === 'declare' || t?.kind === 'assign';
    const t0 = tokens[0];
    if (t0?.kind === 'var' && t0.chain.length === 0) {
      const t2 = tokens[2];
      if (isBinding(tokens[1])) {
        decl = [t0.text];
        isAssign = tokens[1]?.kind === 'assign';
        k = 2;
      } else if (tokens[1]?.kind === 'comma' && t2?.kind === 'var' && t2.chain.length === 0 && isBinding(tokens[3])) {
        decl = [t0.text, t2.text];
        isAssign = tokens[3]?.kind === 'assign';
        k = 4;
      }
    }
    if (decl.length > maxDecl)
      throw parseError(
        maxDecl === 0 ? 'variable declaration not allowed here' : 'too many declarations in pipeline',
        t0?.pos ?? pos,
      );
    if (isAssign) for (const name of decl) this.#requireVariable(name, t0?.pos ?? pos);
    if (k >= tokens.length) throw parseError(`missing value for ${context}`, tokens[k - 1]?.pos ?? pos);
    const stream = new TokenStream(tokens, k, pos);
    const pipe: Pipe = { decl, isAssign, cmds: this.#parseCommands(stream), pos: tokens[k]?.pos ?? pos };
    const extra = stream.peek();
    if (extra) throw parseError(`unexpected "${extra.text}" in command`, extra.pos);
    if (!isAssign) this.#scopes[this.#scopes.length - 1]?.push(...decl);
    return pipe;
  }

  #parseCommands(stream: TokenStream): Command[] {
    const cmds: Command[] = [];
    for (;;) {
      const start = stream.peek();
      const cmd: Command = { args: [], pos: start?.pos ?? stream.endPos };
      for (let t = stream.peek(); t && t.kind !== 'pipe' && t.kind !== 'rparen'; t = stream.peek()) {
        cmd.args.push(this.#parseOperand(stream));
      }
      if (cmd.args.length === 0) throw parseError('missing value for command', cmd.pos);
      if (cmds.length > 0 && cmd.args[0]?.kind !== 'fn') {
        throw parseError(`non executable command in pipeline stage ${cmds.length + 1}`, cmd.pos);
      }
      cmds.push(cmd);
      if (stream.peek()?.kind !== 'pipe') return cmds;
      stream.next();
    }
  }

  #parseOperand(stream: TokenStream): Operand {
    const t = stream.next();
    if (!t) throw parseError('missing value for command', stream.endPos);
    switch (t.kind) {
      case 'dot':
        return { kind: 'dot', pos: t.pos };
      case 'field':
        return { kind: 'field', chain: t.chain, pos: t.pos };
      case 'var':
        this.#requireVariable(t.text, t.pos);
        return { kind: 'var', name: t.text, chain: t.chain, pos: t.pos };
      case 'string':
      case 'number':
        return { kind: 'literal', value: t.value, pos: t.pos };
      case 'ident':
        if (t.text === 'true' || t.text === 'false') return { kind: 'literal', value: t.text === 'true', pos: t.pos };
        if (t.text === 'nil') return { kind: 'nil', pos: t.pos };
        if (KEYWORDS.has(t.text)) throw parseError(`unexpected ${t.text} in command`, t.pos);
        if (!LAZY_FUNCTIONS.has(t.text) && !TEMPLATE_FUNCTIONS.has(t.text)) {
          throw parseError(`function "${t.text}" not defined`, t.pos);
        }
        return { kind: 'fn', name: t.text, pos: t.pos };
      case 'lparen': {
        const cmds = this.#parseCommands(stream);
        const close = stream.next();
        if (close?.kind !== 'rparen') throw parseError('unclosed left paren', t.pos);
        const after = stream.peek();
        const chain = after?.kind === 'field' && !after.spaceBefore ? (stream.next(), after.chain) : [];
        return { kind: 'pipe', pipe: { decl: [], isAssign: false, cmds, pos: t.pos }, chain, pos: t.pos };
      }
      default:
        throw parseError(`unexpected "${t.text}" in command`, t.pos);
    }
  }

  #requireVariable(name: string, pos: number): void {
    if (!this.#scopes.some((scope) => scope.includes(name))) throw parseError(`undefined variable "${name}"`, pos);
  }
}

class TokenStream {
  #i: number;
  constructor(
    private readonly tokens: Token[],
    start: number,
    readonly endPos: number,
  ) {
    this.#i = start;
  }

  peek(): Token | undefined {
    return this.tokens[this.#i];
  }

  next(): Token | undefined {
    return this.tokens[this.#i++];
  }
}

// ================================================================ execution

const BREAK = Symbol('break');
const CONTINUE = Symbol('continue');
/** Marks "no piped value" for the first command of a pipeline. */
const NO_FINAL = Symbol('no final');

interface Variable {
  name: string;
  value: unknown;
}

class Executor {
  #vars: Variable[];
  #out: string[] = [];
  #outLength = 0;
  #steps = 0;
  #depth = 0;

  constructor(
    private readonly template: ParsedTemplate,
    data: unknown,
  ) {
    this.#vars = [{ name: '$', value: data }];
  }

  run(data: unknown): string {
    this.#walkList(this.template.root, data);
    return this.#out.join('');
  }

  #step(pos: number): void {
    if (++this.#steps > TEMPLATE_MAX_STEPS) throw execError(`template stopped after ${TEMPLATE_MAX_STEPS} steps`, pos);
  }

  /** Append output; `pos` is the action writing it (undefined for template text). */
  #write(text: string, pos: number | undefined): void {
    this.#outLength += text.length;
    if (this.#outLength > TEMPLATE_MAX_OUTPUT)
      throw execError(`template output exceeds ${TEMPLATE_MAX_OUTPUT} characters`, pos);
    this.#out.push(text);
  }

  #walkList(nodes: Node[], dot: unknown): void {
    for (const node of nodes) this.#walk(node, dot);
  }

  #walk(node: Node, dot: unknown): void {
    if (node.kind === 'text') {
      this.#write(node.text, undefined);
      return;
    }
    this.#step(node.pos);
    switch (node.kind) {
      case 'action': {
        const value = this.#evalPipeline(node.pipe, dot);
        if (node.pipe.decl.length === 0)
          this.#write(value === null || value === undefined ? '<no value>' : formatValue(value), node.pos);
        return;
      }
      case 'if':
      case 'with': {
        const mark = this.#vars.length;
        const value = this.#evalPipeline(node.pipe, dot);
        if (isTrue(value)) this.#walkList(node.list, node.kind === 'with' ? value : dot);
        else if (node.elseList) this.#walkList(node.elseList, dot);
        this.#vars.length = mark;
        return;
      }
      case 'range':
        this.#walkRange(node, dot);
        return;
      case 'break':
        throw BREAK;
      case 'continue':
        throw CONTINUE;
      case 'template': {
        const body = this.template.defines.get(node.name);
        if (!body) throw execError(`template "${node.name}" not defined`, node.pos);
        if (this.#depth >= MAX_TEMPLATE_DEPTH)
          throw execError(`template calls nest deeper than ${MAX_TEMPLATE_DEPTH}`, node.pos);
        const newDot = node.pipe ? this.#evalPipeline(node.pipe, dot) : undefined;
        const saved = this.#vars;
        this.#vars = [{ name: '$', value: newDot }];
        this.#depth++;
        try {
          this.#walkList(body, newDot);
        } finally {
          this.#depth--;
          this.#vars = saved;
        }
        return;
      }
    }
  }

  #walkRange(node: ControlNode, dot: unknown): void {
    const mark = this.#vars.length;
    const value = this.#evalCommands(node.pipe, dot);
    const items = this.#rangeItems(value, node.pos);
    if (items.length === 0) {
      if (node.elseList) this.#walkList(node.elseList, dot);
      return;
    }
    try {
      for (const [key, element] of items) {
        this.#step(node.pos);
        this.#vars.length = mark;
        const { decl } = node.pipe;
        const bindings: unknown[] = decl.length === 2 ? [key, element] : [element];
        decl.forEach((name, i) => {
          if (node.pipe.isAssign) this.#setVariable(name, bindings[i], node.pos);
          else this.#vars.push({ name, value: bindings[i] });
        });
        try {
          this.#walkList(node.list, element);
        } catch (signal) {
          if (signal === CONTINUE) continue;
          if (signal === BREAK) break;
          throw signal;
        }
      }
    } finally {
      this.#vars.length = mark;
    }
  }

  #rangeItems(value: unknown, pos: number): Array<[unknown, unknown]> {
    if (value === null || value === undefined) return [];
    if (Array.isArray(value) || value instanceof Set) return [...value].map((v, i): [unknown, unknown] => [i, v]);
    if (typeof value === 'number') {
      if (!Number.isInteger(value)) throw execError(`range can't iterate over ${formatValue(value)}`, pos);
      if (value > TEMPLATE_MAX_STEPS) throw execError(`range over ${value} exceeds the step limit`, pos);
      return Array.from({ length: Math.max(0, value) }, (_, i): [unknown, unknown] => [i, i]);
    }
    if (value instanceof Map) {
      return [...value.keys()].sort().map((k): [unknown, unknown] => [k, value.get(k)]);
    }
    if (typeof value === 'object' && !(value instanceof Date) && !isDuration(value) && !(value instanceof Uint8Array)) {
      const record = value as Record<string, unknown>;
      return Object.keys(record)
        .sort()
        .map((k): [unknown, unknown] => [k, record[k]]);
    }
    throw execError(`range can't iterate over ${formatValue(value)}`, pos);
  }

  #evalPipeline(pipe: Pipe, dot: unknown): unknown {
    const value = this.#evalCommands(pipe, dot);
    for (const name of pipe.decl) {
      if (pipe.isAssign) this.#setVariable(name, value, pipe.pos);
      else this.#vars.push({ name, value });
    }
    return value;
  }

  #evalCommands(pipe: Pipe, dot: unknown): unknown {
    let value: unknown = NO_FINAL;
    for (const cmd of pipe.cmds) value = this.#evalCommand(cmd, dot, value);
    return value;
  }

  #evalCommand(cmd: Command, dot: unknown, final: unknown): unknown {
    const [first, ...rest] = cmd.args;
    if (!first) throw execError('missing value for command', cmd.pos);
    if (first.kind === 'fn') return this.#call(first.name, rest, dot, final, first.pos);
    if (rest.length > 0 || final !== NO_FINAL) {
      throw execError(`can't give argument to non-function ${describeOperand(first)}`, first.pos);
    }
    if (first.kind === 'nil') throw execError('nil is not a command', first.pos);
    return this.#evalArg(first, dot);
  }

  #evalArg(operand: Operand, dot: unknown): unknown {
    switch (operand.kind) {
      case 'dot':
        return dot;
      case 'field':
        return this.#fieldChain(dot, operand.chain, operand.pos);
      case 'var':
        return this.#fieldChain(this.#variable(operand.name, operand.pos), operand.chain, operand.pos);
      case 'literal':
        return operand.value;
      case 'nil':
        return null;
      case 'fn':
        return this.#call(operand.name, [], dot, NO_FINAL, operand.pos);
      case 'pipe':
        return this.#fieldChain(this.#evalCommands(operand.pipe, dot), operand.chain, operand.pos);
    }
  }

  #call(name: string, argNodes: Operand[], dot: unknown, final: unknown, pos: number): unknown {
    this.#step(pos);
    if (LAZY_FUNCTIONS.has(name)) {
      // and/or evaluate their arguments one at a time and stop early, as in Go.
      const count = argNodes.length + (final === NO_FINAL ? 0 : 1);
      if (count === 0) throw execError(`wrong number of args for ${name}: want at least 1 got 0`, pos);
      let value: unknown;
      for (let i = 0; i < count; i++) {
        const node = argNodes[i];
        value = node ? this.#evalArg(node, dot) : final;
        if (name === 'and' ? !isTrue(value) : isTrue(value)) return value;
      }
      return value;
    }
    const fn = TEMPLATE_FUNCTIONS.get(name);
    if (!fn) throw execError(`function "${name}" not defined`, pos);
    const args = argNodes.map((node) => this.#evalArg(node, dot));
    if (final !== NO_FINAL) args.push(final);
    try {
      return fn(...args);
    } catch (error) {
      throw execError(`error calling ${name}: ${messageOf(error)}`, pos);
    }
  }

  #variable(name: string, pos: number): unknown {
    for (let i = this.#vars.length - 1; i >= 0; i--) {
      const variable = this.#vars[i];
      if (variable?.name === name) return variable.value;
    }
    throw execError(`undefined variable "${name}"`, pos);
  }

  #setVariable(name: string, value: unknown, pos: number): void {
    for (let i = this.#vars.length - 1; i >= 0; i--) {
      const variable = this.#vars[i];
      if (variable?.name === name) {
        variable.value = value;
        return;
      }
    }
    throw execError(`undefined variable "${name}"`, pos);
  }

  #fieldChain(receiver: unknown, chain: string[], pos: number): unknown {
    let value = receiver;
    for (const name of chain) value = fieldOf(value, name, pos);
    return value;
  }
}

function describeOperand(operand: Operand): string {
  switch (operand.kind) {
    case 'dot':
      return '.';
    case 'field':
      return `.${operand.chain.join('.')}`;
    case 'var':
      return [operand.name, ...operand.chain].join('.');
    case 'literal':
      return typeof operand.value === 'string' ? JSON.stringify(operand.value) : String(operand.value);
    case 'nil':
      return 'nil';
    case 'fn':
      return operand.name;
    case 'pipe':
      return '(…)';
  }
}

const DURATION_FIELDS: Record<string, (ns: bigint, ms: number) => unknown> = {
  Hours: (_ns, ms) => ms / 3_600_000,
  Minutes: (_ns, ms) => ms / 60_000,
  Seconds: (_ns, ms) => ms / 1000,
  Milliseconds: (ns) => Number(ns / 1_000_000n),
  Microseconds: (ns) => Number(ns / 1_000n),
  Nanoseconds: (ns) => Number(ns),
};

const TIME_FIELDS: Record<string, (d: Date) => unknown> = {
  Unix: (d) => Math.floor(d.getTime() / 1000),
  UnixMilli: (d) => d.getTime(),
  Year: (d) => d.getUTCFullYear(),
  Month: (d) => formatGoTime(d, 'January'),
  Day: (d) => d.getUTCDate(),
  Hour: (d) => d.getUTCHours(),
  Minute: (d) => d.getUTCMinutes(),
  Second: (d) => d.getUTCSeconds(),
  UTC: (d) => d,
  String: (d) => formatValue(d),
};

/** `.name` on a value (see the module header for missing values, lists, durations and dates). */
function fieldOf(receiver: unknown, name: string, pos: number): unknown {
  if (receiver === null || receiver === undefined) return undefined;
  if (isDuration(receiver)) {
    if (name === 'String') return formatDuration(receiver);
    const field = DURATION_FIELDS[name];
    if (field) return field(durationToNanos(receiver), durationToMs(receiver));
  } else if (receiver instanceof Date) {
    const field = TIME_FIELDS[name];
    if (field) return field(receiver);
  } else if (Array.isArray(receiver)) {
    const index = /^_(\d+)$/.exec(name);
    if (index) return receiver[Number(index[1])];
  } else if (receiver instanceof Map) {
    return receiver.get(name);
  } else if (typeof receiver === 'object' && !(receiver instanceof Uint8Array) && !(receiver instanceof Set)) {
    const record = receiver as Record<string, unknown>;
    return Object.hasOwn(record, name) ? record[name] : undefined;
  }
  throw execError(`can't evaluate field ${name} in type ${goTypeName(receiver)}`, pos);
}

// ================================================================ public API

const cache = new LruCache<string, ParsedTemplate>(TEMPLATE_CACHE_SIZE);

function toExpressionError(error: unknown, src: string): ExpressionError {
  if (error instanceof ExpressionError) return error;
  if (error instanceof TemplateProblem) {
    const what = error.phase === 'parse' ? 'Template syntax error' : 'Template error';
    return errorAt('template', what, error.message, src, error.pos, error);
  }
  if (error === BREAK || error === CONTINUE)
    return errorAt('template', 'Template error', 'break/continue outside range', src, undefined);
  return errorAt('template', 'Template error', messageOf(error), src, undefined, error);
}

/** Parse (or fetch from the cache) a template. Throws ExpressionError with line and column. */
export function parseTemplate(tpl: string): ParsedTemplate {
  const cached = cache.get(tpl);
  if (cached) return cached;
  if (tpl.length > TEMPLATE_MAX_LENGTH) {
    throw new ExpressionError(`Template is too long (${tpl.length} characters; the limit is ${TEMPLATE_MAX_LENGTH})`, {
      language: 'template',
      expression: tpl.slice(0, 200),
    });
  }
  let parsed: ParsedTemplate;
  try {
    parsed = new Parser(lex(tpl)).parse();
  } catch (error) {
    throw toExpressionError(error, tpl);
  }
  cache.set(tpl, parsed);
  return parsed;
}

/**
 * Render a Go template with `data` as `.` and `$`. Missing fields render as "<no value>" (as
 * Go does for a missing map key). Throws ExpressionError on syntax and execution errors.
 */
export function renderTemplate(tpl: string, data: unknown): string {
  const parsed = parseTemplate(tpl);
  try {
    return new Executor(parsed, data).run(data);
  } catch (error) {
    throw toExpressionError(error, tpl);
  }
}
