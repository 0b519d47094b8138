// Topology selectors, pure: name globs ("web-*") as SQL LIKE patterns and the stable id a selector is
// stored under; Kubernetes-style label selectors come from the shared ../selectors/labelSelector.ts.
import crypto from 'node:crypto';

// Label selectors are shared plumbing (../selectors/labelSelector.ts); re-exported for this engine's modules.
export {
  matchesLabels,
  parseLabelSelector,
  requiredLabels,
  stringList,
  type LabelRequirement,
} from '../selectors/labelSelector.js';

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
