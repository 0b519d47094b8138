// Kubernetes-style label selectors, pure and shared by the engines ("app=web,env!=prod,tier in (a,b),
// !legacy,team"): parsed once, matched against a resource's labels or tags.

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
