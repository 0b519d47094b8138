// A check's `transform` result read as canary-checker reads it: a list of results (or one result, or
// the JSON text of either). Results named other than the check become checks of their own
// (transformed_by the check); a single result without a name changes the check's own result in
// place (pass, message, error, duration, invalid, detail — "$delete" drops it — and data). An empty
// list creates nothing, and fails the check when it has markFailOnEmpty.
import type { TransformedResult } from './runner.js';

/** Changes a single unnamed transform result makes to the check's own result. */
export interface InlineTransform {
  pass?: boolean;
  invalid?: boolean;
  durationMs?: number;
  message?: string;
  error?: string;
  /** `null`: the detail was deleted ("$delete"). */
  detail?: unknown;
  data?: Record<string, unknown>;
}

export interface TransformOutcome {
  created: TransformedResult[];
  inline?: InlineTransform;
}

const truthy = (v: unknown) => v === true || v === 'true';

function list(value: unknown): unknown[] {
  let v = value;
  if (typeof value === 'string') {
    try {
      v = JSON.parse(value) as unknown;
    } catch {
      throw new Error(
        `a transform must return results as a list or JSON text, got ${JSON.stringify(value.slice(0, 80))}`,
      );
    }
  }
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') return [v];
  throw new Error('a transform must return a list of results');
}

export function readTransform(
  value: unknown,
  own: { name: string; markFailOnEmpty?: boolean },
  durationMs: number,
): TransformOutcome {
  const items = list(value).map((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item))
      throw new Error(`transform result ${i} is not an object`);
    return item as Record<string, unknown>;
  });
  if (!items.length) {
    return own.markFailOnEmpty
      ? { created: [], inline: { pass: false, error: 'empty result returned from transformation' } }
      : { created: [] };
  }
  const first = items[0]!;
  const named = typeof first.name === 'string' && first.name !== '';
  if (!named) {
    if (items.length > 1) throw new Error('transformation returned more than 1 entry without a name');
    return { created: [], inline: inline(first) };
  }
  if (first.name === own.name) {
    throw new Error(`a transform result named like the check itself ("${own.name}") is not a new check`);
  }
  return { created: items.map((o, i) => created(o, i, durationMs)) };
}

function inline(o: Record<string, unknown>): InlineTransform {
  const out: InlineTransform = {};
  if (o.pass !== undefined) out.pass = truthy(o.pass);
  if (o.invalid !== undefined) out.invalid = truthy(o.invalid);
  if (typeof o.duration === 'number') out.durationMs = o.duration;
  if (typeof o.message === 'string' && o.message) out.message = o.message;
  if (typeof o.error === 'string' && o.error) out.error = o.error;
  if (o.detail !== undefined) out.detail = o.detail === '$delete' ? null : o.detail;
  if (o.data && typeof o.data === 'object' && !Array.isArray(o.data)) out.data = o.data as Record<string, unknown>;
  return out;
}

function created(o: Record<string, unknown>, i: number, durationMs: number): TransformedResult {
  if (typeof o.name !== 'string' || !o.name) throw new Error(`transform result ${i} needs a name`);
  const pass = o.pass === undefined ? true : truthy(o.pass);
  return {
    name: o.name,
    description: typeof o.description === 'string' ? o.description : undefined,
    labels:
      o.labels && typeof o.labels === 'object'
        ? Object.fromEntries(Object.entries(o.labels).map(([k, v]) => [k, String(v)]))
        : undefined,
    pass,
    invalid: false,
    durationMs: typeof o.duration === 'number' ? o.duration : durationMs,
    message: typeof o.message === 'string' ? o.message : null,
    error: typeof o.error === 'string' ? o.error : pass ? null : 'failed',
    details: o.detail ?? null,
  };
}
