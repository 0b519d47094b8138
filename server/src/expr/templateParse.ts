// Parser of the Go template engine (template.ts): turns lexed segments into a tree of nodes.

import { TEMPLATE_FUNCTIONS } from './template-funcs.js';
import { type ActionSegment, parseError, type Segment, type Token } from './templateLex.js';

export type Operand =
  | { kind: 'dot'; pos: number }
  | { kind: 'field'; chain: string[]; pos: number }
  | { kind: 'var'; name: string; chain: string[]; pos: number }
  | { kind: 'fn'; name: string; pos: number }
  | { kind: 'literal'; value: unknown; pos: number }
  | { kind: 'nil'; pos: number }
  | { kind: 'pipe'; pipe: Pipe; chain: string[]; pos: number };

export interface Command {
  args: Operand[];
  pos: number;
}

export interface Pipe {
  decl: string[];
  isAssign: boolean;
  cmds: Command[];
  pos: number;
}

export interface ControlNode {
  kind: 'if' | 'with' | 'range';
  pipe: Pipe;
  list: Node[];
  elseList?: Node[];
  pos: number;
}

export type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pipe: Pipe; pos: number }
  | ControlNode
  | { kind: 'break' | 'continue'; pos: number }
  | { kind: 'template'; name: string; pipe?: Pipe; pos: number };

export interface ParsedTemplate {
  root: Node[];
  defines: Map<string, Node[]>;
}

interface Stop {
  keyword: 'end' | 'else';
  segment: ActionSegment;
  rest: Token[];
}

const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue']);
export const LAZY_FUNCTIONS = new Set(['and', 'or']);

export class Parser {
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
