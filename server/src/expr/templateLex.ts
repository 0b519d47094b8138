// Lexer of the Go template engine (template.ts): splits a template into text and tokenised actions.

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

export interface Token {
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

export interface ActionSegment {
  kind: 'action';
  tokens: Token[];
  /** Offset of `{{`. */
  pos: number;
}

export type Segment = TextSegment | ActionSegment;

/** A problem at a place in the template; turned into an ExpressionError by renderTemplate. */
export class TemplateProblem extends Error {
  constructor(
    message: string,
    readonly pos: number | undefined,
    readonly phase: 'parse' | 'exec',
  ) {
    super(message);
  }
}

export const parseError = (message: string, pos: number) => new TemplateProblem(message, pos, 'parse');

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
export function lex(src: string): Segment[] {
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
