// Resource selectors, pure: Kubernetes-style label selectors ("app=web,env!=prod,tier in (a,b),
// !legacy"), name globs ("web-*") as SQL LIKE patterns, and the stable id a selector is stored under.
import crypto from 'node:crypto';

export type LabelRequirement =
  | { key: string; op: 'in'; values: string[] }
  | { key: string; op: 'notin'; values: string[] }
  | { key: string; op: 'exists' }
  | { key: string; op: 'notexists' };

const KEY = /^[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$/;

/** Splits on commas outside parentheses. */
function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** Parses a label selector; throws an Error naming the part it cannot read. */
export function parseLabelSelector(selector: string): LabelRequirement[] {
  const out: LabelRequirement[] = [];
  for (const part of splitTop(selector)) {
    let m: RegExpExecArray | null;
    const checkKey = (key: string) => {
      if (!KEY.test(key)) throw new Error(`label selector "${selector}": "${key}" is not a label key`);
      return key;
    };
    if ((m = /^(\S+)\s+(in|notin)\s*\((.*)\)$/i.exec(part))) {
      const values = m[3]!
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      out.push({ key: checkKey(m[1]!), op: m[2]!.toLowerCase() as 'in' | 'notin', values });
    } else if ((m = /^([^=!\s]+)\s*!=\s*(.*)$/.exec(part))) {
      out.push({ key: checkKey(m[1]!), op: 'notin', values: [m[2]!.trim()] });
    } else if ((m = /^([^=!\s]+)\s*==?\s*(.*)$/.exec(part))) {
      out.push({ key: checkKey(m[1]!), op: 'in', values: [m[2]!.trim()] });
    } else if ((m = /^!\s*(\S+)$/.exec(part))) {
      out.push({ key: checkKey(m[1]!), op: 'notexists' });
    } else if (KEY.test(part)) {
      out.push({ key: part, op: 'exists' });
    } else {
      throw new Error(
        `label selector "${selector}": cannot read "${part}" (use key=value, key!=value, key in (a,b), key or !key)`,
      );
    }
  }
  return out;
}

export function matchesLabels(labels: Record<string, string>, requirements: readonly LabelRequirement[]): boolean {
  return requirements.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(labels, r.key);
    switch (r.op) {
      case 'exists':
        return has;
      case 'notexists':
        return !has;
      case 'in':
        return has && r.values.includes(labels[r.key]!);
      case 'notin':
        return !has || !r.values.includes(labels[r.key]!);
    }
  });
}

/** The labels every match must carry exactly (for a `@>` pre-filter in SQL), or null. */
export function requiredLabels(requirements: readonly LabelRequirement[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const r of requirements) if (r.op === 'in' && r.values.length === 1) out[r.key] = r.values[0]!;
  return Object.keys(out).length ? out : null;
}

/** A name glob (`*` any run of characters) → a LIKE pattern with `\` as the escape. */
export function globToLike(glob: string): string {
  return glob.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

/** A JSON text with object keys sorted, so equal selectors give equal ids. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The id a selector's links are stored under: short, stable, the same for equal selectors. */
export function selectorId(kind: string, selector: unknown): string {
  return `${kind}:${crypto.createHash('sha256').update(canonicalJson(selector)).digest('hex').slice(0, 16)}`;
}

/** `a,b` or a list → a list of non-empty strings. */
export function stringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String).filter((v) => v !== '');
  if (typeof value === 'string')
    return value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
  return [];
}
