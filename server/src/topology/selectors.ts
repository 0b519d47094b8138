// Topology selectors, pure: the stable id a selector is stored under; name globs ("web-*") as SQL LIKE
// patterns and Kubernetes-style label selectors come from the shared ../selectors/.
import crypto from 'node:crypto';

// Label selectors and name globs are shared plumbing (../selectors/); re-exported for this engine's modules.
export {
  matchesLabels,
  parseLabelSelector,
  requiredLabels,
  stringList,
  type LabelRequirement,
} from '../selectors/labelSelector.js';
export { globToLike } from '../selectors/glob.js';

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
