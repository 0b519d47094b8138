// Argument coercions and Go-style comparison shared by the template function groups (template-funcs.ts).

import { durationToMs, isDuration } from './duration.js';
import { formatValue, goTypeName } from './gofmt.js';

// ---------------------------------------------------------------- coercions

export function str(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  return formatValue(value, true);
}

export function num(value: unknown, fn: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === null || value === undefined) return 0;
  if (isDuration(value)) return durationToMs(value);
  if (typeof value === 'string') {
    const text = value.trim();
    const n = text === '' ? 0 : Number(text);
    if (!Number.isNaN(n)) return n;
  }
  throw new Error(`${fn}: cannot use ${goTypeName(value)} ${JSON.stringify(formatValue(value, true))} as a number`);
}

export function int(value: unknown, fn: string): number {
  return Math.trunc(num(value, fn));
}

export function list(value: unknown, fn: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Set) return [...value];
  if (value === null || value === undefined) return [];
  throw new Error(`${fn}: expected a list, got ${goTypeName(value)}`);
}

export function entriesOf(value: unknown): Array<[string, unknown]> | undefined {
  if (value instanceof Map) return [...value].map(([k, v]): [string, unknown] => [String(k), v]);
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !isDuration(value)
  ) {
    return Object.entries(value as Record<string, unknown>);
  }
  return undefined;
}

export function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** A time value: a Date, a number of Unix seconds, or a date string. */
export function toTime(value: unknown, fn: string): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value * 1000);
  if (typeof value === 'string') {
    const t = Date.parse(value);
    if (!Number.isNaN(t)) return new Date(t);
  }
  throw new Error(`${fn}: cannot use ${goTypeName(value)} ${JSON.stringify(formatValue(value, true))} as a time`);
}

export function roundHalfAwayFromZero(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

// ---------------------------------------------------------------- comparison (Go built-ins)

type Comparable = { kind: 'number' | 'string' | 'bool'; value: number | string | boolean };

function comparable(value: unknown): Comparable | undefined {
  if (typeof value === 'number') return { kind: 'number', value };
  if (typeof value === 'bigint') return { kind: 'number', value: Number(value) };
  if (isDuration(value)) return { kind: 'number', value: durationToMs(value) };
  if (value instanceof Date) return { kind: 'number', value: value.getTime() };
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  return undefined;
}

export function equal(a: unknown, b: unknown): boolean {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  const x = comparable(a);
  const y = comparable(b);
  if (x && y) return x.kind === y.kind && x.value === y.value;
  return a === b;
}

export function compare(a: unknown, b: unknown, fn: string): number {
  const x = comparable(a);
  const y = comparable(b);
  if (!x || !y || x.kind !== y.kind || x.kind === 'bool') {
    throw new Error(`${fn}: incompatible types for comparison (${goTypeName(a)} and ${goTypeName(b)})`);
  }
  return x.value < y.value ? -1 : x.value > y.value ? 1 : 0;
}
