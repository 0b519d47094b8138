// forEach templating, pure: every string of a forEach block is rendered as a Go template with the
// component it is applied to (`{{.component.name}}`, or `$(.component.name)` / `$(index .x "k")` as
// canary-checker also writes it). Scripts (`test`, `display`, `transform`) are left alone: the
// health engine evaluates them later with their own variables; so are nested forEach blocks, and
// `$(name)` alone (secret interpolation in URLs).
import { renderTemplate } from '../expr/index.js';

/**
 * Keys left as written: scripts evaluated later, and nested forEach blocks (templated with their
 * own components when they are applied).
 */
const SCRIPT_KEYS = new Set(['test', 'display', 'transform', 'forEach']);

/** Where a `$(` template starts: `$(.field` or `$(func arg...`; `$(name)` (a secret) is not one. */
const DOLLAR_TEMPLATE = /\$\((?=\.|[A-Za-z_]\w*\s)/g;

/** `$(.x)` → `{{.x}}`, with nested parentheses and quoted strings inside the expression kept. */
export function dollarToBraces(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    DOLLAR_TEMPLATE.lastIndex = i;
    const found = DOLLAR_TEMPLATE.exec(text);
    if (!found) break;
    const start = found.index;
    let depth = 1;
    let j = start + 2;
    let quote: string | null = null;
    for (; j < text.length && depth > 0; j++) {
      const ch = text[j]!;
      if (quote) {
        if (ch === '\\') j++;
        else if (ch === quote) quote = null;
      } else if (ch === '"' || ch === '`') quote = ch;
      else if (ch === '(') depth++;
      else if (ch === ')') depth--;
    }
    if (depth !== 0) break; // unbalanced: leave the rest as written
    out += `${text.slice(i, start)}{{${text.slice(start + 2, j - 1)}}}`;
    i = j;
  }
  return out + text.slice(i);
}

/**
 * Renders every templated string in a value (objects and lists walked, script keys skipped).
 * A string that fails to render stays as written and the error is reported with its path.
 */
export function templateValue<T>(
  value: T,
  vars: Record<string, unknown>,
  onError: (path: string, message: string) => void,
  path = '',
): T {
  if (typeof value === 'string') {
    if (!value.includes('{{') && !/\$\((?=\.|[A-Za-z_]\w*\s)/.test(value)) return value;
    try {
      return renderTemplate(dollarToBraces(value), vars) as T;
    } catch (e) {
      onError(path, (e as Error).message);
      return value;
    }
  }
  if (Array.isArray(value)) return value.map((v, i) => templateValue(v, vars, onError, `${path}[${i}]`)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = SCRIPT_KEYS.has(k) ? v : templateValue(v, vars, onError, path ? `${path}.${k}` : k);
    }
    return out as T;
  }
  return value;
}
