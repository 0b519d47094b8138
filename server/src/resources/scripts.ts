// Apply-time checking of the scripts a resource carries, so a mistake is a 400 at apply rather than
// a check that fails at every run: CEL (`expr`: syntax, unknown functions, argument counts), Go
// templates (`template`: syntax, unknown functions) and JavaScript (`javascript`: syntax, compiled
// in the sandbox's engine without running). Each problem names the field path, the line and column
// of the field in the document, and the line and column within the script.
//
// Where scripts are: a check's (or component's) `test`, `display` and `transform` ({expr |
// template | javascript | jsonPath}), and its `metrics[].value` / `metrics[].labels[].valueExpr`
// (CEL). CEL and templates are checked synchronously (scriptErrors); JavaScript needs the engine
// loaded (javascriptErrors, async).

import { checkCel } from '../expr/celCheck.js';
import { ExpressionError } from '../expr/errors.js';
import { checkJavascript } from '../expr/javascript.js';
import { parseTemplate } from '../expr/template.js';
import { formatPath, ResourceError, type Path, type ResourceDocument } from './yaml.js';

export type ScriptKind = 'expr' | 'template' | 'javascript';

export interface ScriptField {
  path: Path;
  kind: ScriptKind;
  source: string;
}

const SCRIPT_KEYS = ['test', 'display', 'transform'] as const;
const KINDS: ScriptKind[] = ['expr', 'template', 'javascript'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The scripts of one check or component entry (at `path` in the document). */
export function scriptFields(entry: unknown, path: Path): ScriptField[] {
  if (!isObject(entry)) return [];
  const out: ScriptField[] = [];
  const add = (p: Path, kind: ScriptKind, source: unknown) => {
    if (typeof source === 'string' && source.trim() !== '') out.push({ path: p, kind, source });
  };
  for (const key of SCRIPT_KEYS) {
    const script = entry[key];
    if (!isObject(script)) continue;
    for (const kind of KINDS) add([...path, key, kind], kind, script[kind]);
  }
  if (Array.isArray(entry.metrics)) {
    entry.metrics.forEach((metric, i) => {
      if (!isObject(metric)) return;
      add([...path, 'metrics', i, 'value'], 'expr', metric.value);
      if (Array.isArray(metric.labels))
        metric.labels.forEach((label, j) => {
          if (isObject(label)) add([...path, 'metrics', i, 'labels', j, 'valueExpr'], 'expr', label.valueExpr);
        });
    });
  }
  return out;
}

/** "CEL error at line 1, column 5: unknown function 'foo'" → its parts. */
function splitMessage(error: ExpressionError): { what: string; detail: string } {
  const first = error.message.split('\n', 1)[0] ?? error.message;
  const m = /^(.*?) at line \d+, column \d+: (.*)$/.exec(first) ?? /^(.*?): (.*)$/.exec(first);
  return m ? { what: m[1]!, detail: m[2]! } : { what: 'error', detail: first };
}

function toResourceError(doc: ResourceDocument, field: ScriptField, error: unknown): ResourceError {
  const where = formatPath(field.path);
  if (!(error instanceof ExpressionError))
    return new ResourceError(`${where}: ${String(error)}`, doc.locate(field.path), where);
  const { what, detail } = splitMessage(error);
  const at = error.position;
  const inScript = at
    ? ` (at line ${at.line}, column ${at.column} of the ${field.kind === 'expr' ? 'expression' : field.kind})`
    : '';
  // The document position of the problem itself when it can be told, else of the field's value.
  const exact = at && doc.locateIn?.(field.path, { line: at.line, column: at.column });
  return new ResourceError(
    `${where}: ${what}: ${detail}${inScript}`,
    exact ?? doc.locate(field.path),
    where,
    at ? { line: at.line, column: at.column } : undefined,
  );
}

/** Problems of the CEL expressions and templates among `fields`. */
export function scriptErrors(doc: ResourceDocument, fields: ScriptField[]): ResourceError[] {
  const errors: ResourceError[] = [];
  for (const field of fields) {
    try {
      if (field.kind === 'expr') checkCel(field.source);
      else if (field.kind === 'template') parseTemplate(field.source);
    } catch (error) {
      errors.push(toResourceError(doc, field, error));
    }
  }
  return errors;
}

/** Problems of the JavaScript among `fields` (compiled, never run). */
export async function javascriptErrors(doc: ResourceDocument, fields: ScriptField[]): Promise<ResourceError[]> {
  const errors: ResourceError[] = [];
  for (const field of fields) {
    if (field.kind !== 'javascript') continue;
    try {
      await checkJavascript(field.source);
    } catch (error) {
      errors.push(toResourceError(doc, field, error));
    }
  }
  return errors;
}
