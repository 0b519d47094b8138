// Script evaluation shared by the engines (health checks, catalog scrapers, topology,
// notifications): a `Script` from a spec sets exactly one of expr (CEL), template (Go template),
// javascript (sandboxed) or jsonPath, and is evaluated against a set of variables.
//
//   evaluateScript(script, vars, opts?)  → the raw result (CEL value, rendered text, JS value, matches)
//   evaluateBoolean(script, vars, opts?) → for `test`: CEL must give a boolean; templates,
//                                          JavaScript and JSONPath may give "true"/"false" text
//   evaluateString(script, vars, opts?)  → for `display`: text, non-strings JSON-encoded
//
// Every failure is an ExpressionError. Durations in variables: see duration.ts (use
// `durationFromMs` for `elapsed`, `sslAge`, ...).

import { evaluateCel } from './cel.js';
import { ExpressionError } from './errors.js';
import { goTypeName } from './gofmt.js';
import { runJavascript, type JavascriptOptions } from './javascript.js';
import { evaluateJsonPath } from './jsonpath.js';
import { renderTemplate } from './template.js';
import type { Script } from './types.js';
import { toDisplayString } from './values.js';

export { ExpressionError } from './errors.js';
export type { ExpressionErrorOptions, ExpressionLanguage, SourcePosition } from './errors.js';
export { evaluateCel, compileCel, CEL_MAX_EXPRESSION_LENGTH } from './cel.js';
export { checkCel } from './celCheck.js';
export { renderTemplate, parseTemplate } from './template.js';
export { runJavascript } from './javascript.js';
export type { JavascriptOptions } from './javascript.js';
export { evaluateJsonPath } from './jsonpath.js';
export { Duration, durationFromMs, durationToMs, formatDuration, isDuration, parseDuration } from './duration.js';
export { toDisplayString, toJsonText } from './values.js';
export type { Script } from './types.js';

/** Options for evaluation; only JavaScript has limits to tune. */
export type EvaluateOptions = JavascriptOptions;

type ScriptKind = 'expr' | 'template' | 'javascript' | 'jsonPath';
const KINDS: ScriptKind[] = ['expr', 'template', 'javascript', 'jsonPath'];

/** Which field of the script is set; exactly one must be (empty strings count as unset). */
function scriptKind(script: Script): { kind: ScriptKind; source: string } {
  if (typeof script !== 'object' || script === null) {
    throw new ExpressionError('a script must be an object with one of expr, template, javascript or jsonPath', {
      language: 'script',
    });
  }
  const set: Array<{ kind: ScriptKind; source: string }> = [];
  for (const kind of KINDS) {
    const source: unknown = script[kind];
    if (source === undefined || source === null || source === '') continue;
    if (typeof source !== 'string') {
      throw new ExpressionError(`script field ${kind} must be a string, got ${goTypeName(source)}`, {
        language: 'script',
      });
    }
    set.push({ kind, source });
  }
  const [only, second] = set;
  if (!only)
    throw new ExpressionError('the script is empty: set one of expr, template, javascript or jsonPath', {
      language: 'script',
    });
  if (second) {
    throw new ExpressionError(
      `the script sets ${set.map((s) => s.kind).join(' and ')}: set exactly one of expr, template, javascript or jsonPath`,
      { language: 'script' },
    );
  }
  return only;
}

/** Evaluate a script with `vars` and return its raw result. */
export async function evaluateScript(
  script: Script,
  vars: Record<string, unknown>,
  opts: EvaluateOptions = {},
): Promise<unknown> {
  const { kind, source } = scriptKind(script);
  switch (kind) {
    case 'expr':
      return evaluateCel(source, vars);
    case 'template':
      return renderTemplate(source, vars);
    case 'javascript':
      return runJavascript(source, vars, opts);
    case 'jsonPath':
      return evaluateJsonPath(source, vars);
  }
}

/**
 * Evaluate a `test`: a CEL expression must return a boolean; a template, script or JSONPath may
 * also produce the text "true" or "false" (any case, surrounding whitespace ignored), as in
 * canary-checker.
 */
export async function evaluateBoolean(
  script: Script,
  vars: Record<string, unknown>,
  opts: EvaluateOptions = {},
): Promise<boolean> {
  const { kind, source } = scriptKind(script);
  const result = await evaluateScript(script, vars, opts);
  if (typeof result === 'boolean') return result;
  const shown = toDisplayString(result);
  const excerpt = shown.length > 100 ? `${shown.slice(0, 100)}…` : shown;
  if (kind !== 'expr' && typeof result === 'string') {
    const text = result.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
    throw new ExpressionError(`the test must produce "true" or "false", got ${JSON.stringify(excerpt)}`, {
      language: languageOf(kind),
      expression: source,
    });
  }
  const type = result === undefined ? 'nothing' : `${goTypeName(result)} ${JSON.stringify(excerpt)}`;
  throw new ExpressionError(`the test must return a boolean, got ${type}`, {
    language: languageOf(kind),
    expression: source,
  });
}

/** Evaluate a `display`: strings as they are, null/undefined as "", anything else as text/JSON. */
export async function evaluateString(
  script: Script,
  vars: Record<string, unknown>,
  opts: EvaluateOptions = {},
): Promise<string> {
  return toDisplayString(await evaluateScript(script, vars, opts));
}

function languageOf(kind: ScriptKind): 'cel' | 'template' | 'javascript' | 'jsonpath' {
  return kind === 'expr' ? 'cel' : kind === 'jsonPath' ? 'jsonpath' : kind;
}
