// Executor of the Go template engine (template.ts): walks a parsed template over data and writes the output.

import { messageOf } from './errors.js';
import { durationToMs, durationToNanos, formatDuration, isDuration } from './duration.js';
import { formatGoTime, formatValue, goTypeName, isTrue } from './gofmt.js';
import { TEMPLATE_FUNCTIONS } from './template-funcs.js';
import { TemplateProblem } from './templateLex.js';
import {
  type Command,
  type ControlNode,
  LAZY_FUNCTIONS,
  type Node,
  type Operand,
  type ParsedTemplate,
  type Pipe,
} from './templateParse.js';

export const TEMPLATE_MAX_OUTPUT = 5 * 1024 * 1024;
export const TEMPLATE_MAX_STEPS = 1_000_000;
const MAX_TEMPLATE_DEPTH = 100;

const execError = (message: string, pos: number | undefined) => new TemplateProblem(message, pos, 'exec');

export const BREAK = Symbol('break');
export const CONTINUE = Symbol('continue');
/** Marks "no piped value" for the first command of a pipeline. */
const NO_FINAL = Symbol('no final');

interface Variable {
  name: string;
  value: unknown;
}

export class Executor {
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

/** `.name` on a value (see template.ts's header for missing values, lists, durations and dates). */
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
