// Macros: cel-go's `list.sortBy(e, key)`, and gomplate's `fold` macro: `[1, 2, 3].fold(e, acc, acc + e)` (6) and
// `{"a": "apple", "b": "banana"}.fold(k, v, acc, acc + v)` ("applebanana", keys in sorted order).
// The accumulator starts at the zero value of the first element's type (0, 0.0, "", b"", {}, [])
// or null for an empty collection, as upstream. Written as a cel-js macro (like `cel.bind`): the
// variables are bound in overlay contexts, the step expression is evaluated once per element.

import type { Environment } from '@marcbachmann/cel-js';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { entriesOf, listOf } from './celFunctions.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- cel-js's macro API is untyped. */
type Ast = any;
type Ctx = any;

function identifier(node: Ast, what: string): string {
  if (node?.op !== 'id' || typeof node.args !== 'string') throw new Error(`fold(): the ${what} must be a name`);
  return node.args;
}

function zeroOf(value: unknown): unknown {
  if (typeof value === 'bigint') return 0n;
  if (value instanceof UnsignedInt) return new UnsignedInt(0n);
  if (typeof value === 'number') return 0;
  if (typeof value === 'string') return '';
  if (value instanceof Uint8Array) return new Uint8Array();
  if (Array.isArray(value)) return [];
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) return {};
  return null;
}

interface FoldMacro {
  receiver: Ast;
  names: string[];
  step: Ast;
  dyn: unknown;
  contexts: Ctx[];
}

function expand({ args, receiver, parser }: { args: Ast[]; receiver: Ast; parser: Ast }, map: boolean) {
  const names = args.slice(0, -1).map((a, i) => identifier(a, i === args.length - 2 ? 'accumulator' : 'variable'));
  if (new Set(names).size !== names.length) throw new Error('fold(): the variable names must differ');
  const macro: FoldMacro & Record<string, unknown> = {
    receiver,
    names,
    step: args.at(-1),
    dyn: parser.registry.getType('dyn'),
    contexts: [],
    typeCheck(checker: Ast, m: FoldMacro, ctx: Ctx) {
      checker.check(m.receiver, ctx);
      let c = ctx;
      m.contexts = m.names.map((name) => (c = c.forkWithVariable(name, m.dyn)));
      checker.check(m.step, c);
      return m.dyn;
    },
    evaluate(ev: Ast, m: FoldMacro, ctx: Ctx) {
      const collection: unknown = ev.run(m.receiver, ctx);
      if (collection instanceof Promise) throw new Error('fold(): asynchronous values are not supported');
      const rows: unknown[][] = map
        ? entriesOf(collection, 'fold() with key, value and accumulator: the receiver').sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          )
        : listOf(collection, 'fold() with an element and an accumulator: the receiver').map((item) => [item]);
      let acc = rows.length ? zeroOf(rows[0]!.at(-1)) : null;
      for (const row of rows) {
        let c = ctx;
        [...row, acc].forEach((value, i) => (c = m.contexts[i].reuse(c).setIterValue(value, ev)));
        acc = ev.run(m.step, c);
      }
      return acc;
    },
  };
  return macro;
}

/** cel-go's `list.sortBy(e, e.key)`: the list ordered by the key expression (stable). */
function expandSortBy({ args, receiver, parser }: { args: Ast[]; receiver: Ast; parser: Ast }) {
  return {
    receiver,
    name: identifier(args[0], 'variable'),
    key: args[1],
    dyn: parser.registry.getType('dyn'),
    context: undefined as Ctx,
    typeCheck(checker: Ast, m: Ast, ctx: Ctx) {
      checker.check(m.receiver, ctx);
      m.context = ctx.forkWithVariable(m.name, m.dyn);
      checker.check(m.key, m.context);
      return parser.registry.getType('list');
    },
    evaluate(ev: Ast, m: Ast, ctx: Ctx) {
      const list = listOf(ev.run(m.receiver, ctx), 'sortBy(): the receiver');
      const keyed = list.map((item) => {
        const k: unknown = ev.run(m.key, m.context.reuse(ctx).setIterValue(item, ev));
        return { item, k: typeof k === 'bigint' ? Number(k) : k instanceof Date ? k.getTime() : k };
      });
      keyed.sort((a, b) => ((a.k as number) < (b.k as number) ? -1 : (a.k as number) > (b.k as number) ? 1 : 0));
      return keyed.map((e) => e.item);
    },
  };
}

export function registerFoldMacro(env: Environment): void {
  env.registerFunction('list.fold(ast, ast, ast): dyn', (opts: any) => expand(opts, false));
  env.registerFunction('map.fold(ast, ast, ast, ast): dyn', (opts: any) => expand(opts, true));
  env.registerFunction('list.sortBy(ast, ast): list', (opts: any) => expandSortBy(opts));
}
