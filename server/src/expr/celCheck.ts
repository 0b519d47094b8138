// Apply-time checking of a CEL expression without evaluating it: a syntax error, or a call of a
// function that does not exist in the environment (`foo(1)`, `x.fooBar()`, `math.Foo(1)`) or
// with a number of arguments no overload takes, is an ExpressionError with the position of the
// call. Types are not checked: variables are dynamic (their shape is known only at run time), so
// `x.startsWith(1)` passes here as it passes cel-js's own type check.

import { ExpressionError, errorAt } from './errors.js';
import { CEL_NAMESPACES } from './celFunctions.js';
import { celEnvironment, compileCel } from './cel.js';

interface Known {
  /** Global functions: name → the argument counts they take. */
  globals: Map<string, Set<number>>;
  /** Methods on values: name → argument counts. */
  methods: Map<string, Set<number>>;
  /** Namespaced functions ("math.Abs") → argument counts. */
  namespaced: Map<string, Set<number>>;
}

let known: Known | undefined;

function knownFunctions(): Known {
  if (known) return known;
  const namespaceOf = new Map([...CEL_NAMESPACES].map(([ns, type]) => [type, ns]));
  namespaceOf.set('CelNamespace', 'cel');
  const k: Known = { globals: new Map(), methods: new Map(), namespaced: new Map() };
  const add = (map: Map<string, Set<number>>, name: string, arity: number) => {
    let set = map.get(name);
    if (!set) map.set(name, (set = new Set()));
    set.add(arity);
  };
  for (const f of celEnvironment().getDefinitions().functions) {
    const arity = f.params.length;
    const ns = f.receiverType ? namespaceOf.get(f.receiverType) : undefined;
    if (ns) add(k.namespaced, `${ns}.${f.name}`, arity);
    else if (f.receiverType) add(k.methods, f.name, arity);
    else add(k.globals, f.name, arity);
  }
  return (known = k);
}

interface Node {
  op: string;
  args: unknown;
  start: number;
  pos?: number;
}

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && 'op' in v && 'args' in v;

const arities = (set: Set<number>) => {
  const list = [...set].sort((a, b) => a - b);
  const text = list.length === 1 ? `${list[0]}` : `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
  return `${text} argument${list.length === 1 && list[0] === 1 ? '' : 's'}`;
};

/** The first unknown call in the tree: its message and offset. */
function findUnknownCall(node: unknown, k: Known, source: string): { message: string; offset: number } | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findUnknownCall(item, k, source);
      if (found) return found;
    }
    return undefined;
  }
  if (!isNode(node)) return undefined;
  const args = Array.isArray(node.args) ? (node.args as unknown[]) : [];
  if (node.op === 'call' || node.op === 'rcall') {
    const name = String(args[0]);
    const receiver = node.op === 'rcall' ? args[1] : undefined;
    const callArgs = args[node.op === 'rcall' ? 2 : 1];
    const count = Array.isArray(callArgs) ? callArgs.length : 0;
    let arity: Set<number> | undefined;
    let shown: string;
    let namespace: string | undefined;
    if (isNode(receiver) && receiver.op === 'id' && k.namespaced.has(`${String(receiver.args)}.${name}`)) {
      namespace = String(receiver.args);
    } else if (isNode(receiver) && receiver.op === 'id' && [...CEL_NAMESPACES.keys()].includes(String(receiver.args))) {
      namespace = String(receiver.args);
    }
    if (namespace) {
      shown = `${namespace}.${name}`;
      arity = k.namespaced.get(shown);
    } else if (receiver !== undefined) {
      shown = name;
      arity = k.methods.get(name);
    } else {
      shown = name;
      arity = k.globals.get(name);
    }
    // A method call starts at its receiver: point at the name after it.
    const from = isNode(receiver) ? ((receiver as Node & { end?: number }).end ?? node.start) : node.start;
    const at = source.indexOf(name, from);
    const offset = at >= 0 ? at : node.start;
    if (!arity) {
      const hint =
        receiver !== undefined && !namespace && k.globals.has(name)
          ? ` as a method (call it as ${name}(...))`
          : receiver === undefined && k.methods.has(name)
            ? ` (it is a method: value.${name}(...))`
            : '';
      return { message: `unknown function '${shown}'${hint}`, offset };
    }
    if (!arity.has(count)) return { message: `function '${shown}' takes ${arities(arity)}, got ${count}`, offset };
  }
  return findUnknownCall(args, k, source);
}

/**
 * Check `expr` as apply does: throws an ExpressionError for a syntax error or an unknown
 * function (with the line and column within the expression); returns nothing when it is fine.
 */
export function checkCel(expr: string): void {
  const program = compileCel(expr);
  const found = findUnknownCall(program.ast, knownFunctions(), expr);
  if (found) throw errorAt('cel', 'CEL error', found.message, expr, found.offset) as ExpressionError;
}
