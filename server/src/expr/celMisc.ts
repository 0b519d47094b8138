// Smaller groups of gomplate's CEL exports: net.* (IP checks), test.* (assertions in expressions)
// and the collection helpers named as in gomplate's templates (Has, Dict, Append, Prepend, sortBy,
// first, last).

import { isIP } from 'node:net';
import { type CelRegistrar, entriesOf, listOf, typeName } from './celFunctions.js';
import { fromCelValue } from './celValues.js';
import { toDisplayString } from './values.js';

/** An IP address as a number and its bit width; undefined when it is not one. */
function ipValue(text: string): { value: bigint; bits: number } | undefined {
  const kind = isIP(text);
  if (kind === 4) return { value: text.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n), bits: 32 };
  if (kind !== 6) return undefined;
  let address = text;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (v4) {
    const n = ipValue(v4[1]!)!.value;
    address = address.replace(v4[1]!, `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`);
  }
  const [head, tail] = address.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return { value: groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g || '0', 16)), 0n), bits: 128 };
}

/** Whether `ip` is inside `cidr` ("10.0.0.0/8", "fd00::/8"). */
export function containsCidr(cidr: string, ip: string): boolean {
  const [base, prefixText] = cidr.split('/');
  const net = ipValue(base ?? '');
  const addr = ipValue(ip);
  const prefix = Number(prefixText ?? NaN);
  if (!net || !Number.isInteger(prefix) || prefix < 0 || prefix > net.bits)
    throw new RangeError(`net.ContainsCIDR(): "${cidr}" is not a CIDR`);
  if (!addr || addr.bits !== net.bits) return false;
  const shift = BigInt(net.bits - prefix);
  return net.value >> shift === addr.value >> shift;
}

/** gomplate's test.Kind: Go's reflect kind names. */
function kindOf(value: unknown): string {
  const name = typeName(value);
  return { int: 'int64', double: 'float64', list: 'slice', null: 'invalid' }[name] ?? name;
}

const truthy = (v: unknown) =>
  !(v === null || v === false || v === 0n || v === 0 || v === '' || (Array.isArray(v) && v.length === 0));

export function registerMiscFunctions({ fn, ns }: CelRegistrar): void {
  ns('net', 'ContainsCIDR(string, string): bool', containsCidr);
  ns('net', 'IsValidIP(string): bool', (ip: string) => isIP(ip) !== 0);

  ns('test', 'Assert(dyn): bool', (v: unknown) => {
    if (!truthy(v)) throw new Error('assertion failed');
    return true;
  });
  ns('test', 'Assert(string, dyn): bool', (message: string, v: unknown) => {
    if (!truthy(v)) throw new Error(`assertion failed: ${message}`);
    return true;
  });
  ns('test', 'Fail(dyn): bool', (message: unknown) => {
    throw new Error(`failed: ${toDisplayString(fromCelValue(message))}`);
  });
  ns('test', 'Required(dyn): dyn', (v: unknown) => {
    if (v === null || v === '') throw new Error('a required value is missing');
    return v;
  });
  ns('test', 'Ternary(dyn, dyn, dyn): dyn', (a: unknown, b: unknown, cond: unknown) => (truthy(cond) ? a : b));
  ns('test', 'Kind(dyn): string', kindOf);
  ns('test', 'IsKind(string, dyn): bool', (kind: string, v: unknown) =>
    kind === 'number' ? typeof v === 'bigint' || typeof v === 'number' : kindOf(v) === kind,
  );

  fn('first(list): dyn', (l: unknown[]) => l[0] ?? null);
  fn('last(list): dyn', (l: unknown[]) => l.at(-1) ?? null);
  fn('Has(dyn, string): bool', (m: unknown, key: string) => {
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return false;
    return entriesOf(m).some(([k]) => k === key);
  });
  fn('Dict(list): map', (l: unknown[]) => {
    if (l.length % 2 !== 0) throw new RangeError('Dict(): give keys and values in pairs');
    const out: Record<string, unknown> = {};
    for (let i = 0; i < l.length; i += 2) out[toDisplayString(fromCelValue(l[i]))] = l[i + 1];
    return out;
  });
  fn('Append(dyn, list): list', (v: unknown, l: unknown) => [...listOf(l), v]);
  fn('Prepend(dyn, list): list', (v: unknown, l: unknown) => [v, ...listOf(l)]);
  fn('list.sortBy(string): list', (l: unknown[], key: string) => {
    const valueOf = (item: unknown) => {
      let v: unknown = item;
      for (const part of key.split('.'))
        v = v && typeof v === 'object' ? Object.fromEntries(entriesOf(v))[part] : undefined;
      return typeof v === 'bigint' ? Number(v) : v;
    };
    return [...l].sort((a, b) => {
      const [x, y] = [valueOf(a), valueOf(b)] as [number | string, number | string];
      return x < y ? -1 : x > y ? 1 : 0;
    });
  });
}
