// The rules of the playbook run form (spec/1 §3, §5; spec/3 §3), free of React: which resource a
// playbook runs on (resourceRef.ts, re-exported here), the starting values (rendered defaults, or a
// re-run's parameters), field validation, the form's state changes, and turning field values into
// the run request's params.
import { describeProblem, formatEditorDocument, parseEditorDocument } from '../../ui/code-editor/document';
import type { PlaybookParameter } from './types';

export * from './resourceRef';

export const REQUIRED_MESSAGE = 'This field is required';
export const NOT_A_NUMBER_MESSAGE = 'This field must be a number';
export const DNS1123_MESSAGE =
  'Must consist of lowercase letters, digits, hyphens and dots, and start and end with a letter or digit';

// ---- values ------------------------------------------------------------------------------------

/** A field's value: checkboxes hold booleans, every other field text (ids for pickers). */
export type ParamValue = string | boolean;
export type FormValues = Record<string, ParamValue>;

export function codeLanguage(param: PlaybookParameter): 'yaml' | 'json' {
  return param.properties?.language?.toLowerCase() === 'json' ? 'json' : 'yaml';
}

function truthy(v: unknown): boolean {
  return v === true || (typeof v === 'string' && v.trim().toLowerCase() === 'true');
}

/**
 * A code parameter's text parsed in its language and written back out in it, so a default given as
 * a quoted YAML string or one-line JSON shows as an editable document. Text that does not parse is
 * kept as it is (validation then says where it breaks).
 */
export function normaliseCode(text: string, language: 'yaml' | 'json'): string {
  if (!text.trim()) return '';
  const unquoted = language === 'yaml' ? text.replace(/^'([\s\S]+)'$/, '$1') : text;
  const parsed = parseEditorDocument(unquoted, language);
  if (parsed.problems.length || parsed.value === undefined) return text;
  // A YAML scalar (the text was not a document) stays the text itself.
  if (typeof parsed.value === 'string') return parsed.value;
  return formatEditorDocument(parsed.value, language);
}

/** A value from a stored run (any JSON) as the field holds it. */
export function fieldValue(param: PlaybookParameter, value: unknown): ParamValue {
  if (param.type === 'checkbox') return truthy(value);
  if (value === undefined || value === null) return '';
  if (param.type === 'code') {
    return typeof value === 'string'
      ? normaliseCode(value, codeLanguage(param))
      : formatEditorDocument(value, codeLanguage(param));
  }
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * The values the form starts from: the (rendered) defaults, unless this is a re-run, which starts
 * from the earlier run's parameters instead (spec/1 §5).
 */
export function initialValues(params: readonly PlaybookParameter[], rerunParams?: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const p of params) values[p.name] = fieldValue(p, rerunParams ? rerunParams[p.name] : p.default);
  return values;
}

// ---- validation --------------------------------------------------------------------------------

const DNS1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** "512Mi" ↔ {amount: "512", unit: "Mi"} for memory fields (spec/1 §5: Mi, Gi or Ti, default Mi). */
export const MEMORY_UNITS = ['Mi', 'Gi', 'Ti'] as const;
export type MemoryUnit = (typeof MEMORY_UNITS)[number];

export function splitMemory(value: string): { amount: string; unit: MemoryUnit } {
  const m = /^\s*([^A-Za-z]*?)\s*(Mi|Gi|Ti)?\s*$/.exec(value);
  return { amount: m?.[1] ?? value, unit: (m?.[2] as MemoryUnit | undefined) ?? 'Mi' };
}

export function joinMemory(amount: string, unit: MemoryUnit): string {
  return amount.trim() ? `${amount.trim()}${unit}` : '';
}

/** Cpu fields store a number of millicores with an m suffix: "250" ↔ "250m". */
export function millicoresAmount(value: string): string {
  return value.replace(/m\s*$/, '');
}

export function joinMillicores(amount: string): string {
  return amount.trim() ? `${amount.trim()}m` : '';
}

/** Formats whose value is a number (memory and cpu: the amount before the unit). */
export const NUMERIC_FORMATS = new Set(['number', 'integer', 'float', 'bytes', 'millicores']);

const isNumber = (text: string) => text.trim() !== '' && Number.isFinite(Number(text));

/** The number a field's bounds apply to: the amount of a memory or cpu field, else the text. */
function numericPart(param: PlaybookParameter, text: string): string {
  const format = param.properties?.format;
  if (format === 'bytes') return splitMemory(text).amount;
  if (format === 'millicores') return millicoresAmount(text);
  return text;
}

/** How the server shows a secret parameter back; a re-run sending it reuses the parent run's value. */
export const SECRET_MASK = '••••';

/** What is wrong with one field's value, or undefined. */
export function validateParam(param: PlaybookParameter, value: ParamValue | undefined): string | undefined {
  if (param.type === 'checkbox') return undefined;
  const text = typeof value === 'string' ? value : '';
  if (!text.trim()) return param.required ? REQUIRED_MESSAGE : undefined;

  if (param.type === 'code') {
    const problem = parseEditorDocument(text, codeLanguage(param)).problems[0];
    return problem ? describeProblem(problem) : undefined;
  }
  if (param.type && param.type !== 'text' && param.type !== 'secret') return undefined; // picked from a list
  if (param.type === 'secret' && text === SECRET_MASK) return undefined; // a re-run reuses the parent's value

  const p = param.properties ?? {};
  if (p.minLength !== undefined && text.length < p.minLength) return `Must be at least ${p.minLength} characters`;
  if (p.maxLength !== undefined && text.length > p.maxLength) return `Must be at most ${p.maxLength} characters`;
  if (p.regex) {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(p.regex);
    } catch {
      pattern = undefined; // a broken pattern in the spec is the author's problem; the server checks too
    }
    if (pattern && !pattern.test(text)) return `Must match the pattern ${p.regex}`;
  }
  if (p.format === 'dns1123' && (text.length > 253 || !DNS1123.test(text))) return DNS1123_MESSAGE;
  const numeric = p.min !== undefined || p.max !== undefined || NUMERIC_FORMATS.has(p.format ?? '');
  if (numeric) {
    const amount = numericPart(param, text);
    if (!isNumber(amount)) return NOT_A_NUMBER_MESSAGE;
    const n = Number(amount);
    if (p.format === 'integer' && !Number.isInteger(n)) return 'Must be a whole number';
    if (p.min !== undefined && n < p.min) return `Must be at least ${p.min}`;
    if (p.max !== undefined && n > p.max) return `Must be at most ${p.max}`;
  }
  return undefined;
}

export function validateForm(params: readonly PlaybookParameter[], values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const p of params) {
    const error = validateParam(p, values[p.name]);
    if (error) errors[p.name] = error;
  }
  return errors;
}

// ---- form state --------------------------------------------------------------------------------

export interface RunFormState {
  /** Which parameters (for which resource) the values belong to; a new key starts over. */
  key: string;
  values: FormValues;
  /** Fields the user has changed: their errors show; others only disable Run. */
  touched: Record<string, true>;
}

export type RunFormAction =
  { type: 'reset'; key: string; values: FormValues } | { type: 'set'; name: string; value: ParamValue };

export function runFormReducer(state: RunFormState, action: RunFormAction): RunFormState {
  switch (action.type) {
    case 'reset':
      return { key: action.key, values: action.values, touched: {} };
    case 'set':
      return {
        ...state,
        values: { ...state.values, [action.name]: action.value },
        touched: { ...state.touched, [action.name]: true },
      };
  }
}

/** Run is offered once the form is valid, the playbook is known and no run is being started (spec/1 §5). */
export function canSubmit(o: {
  playbookId: string | undefined;
  loaded: boolean;
  errors: Record<string, string>;
  running: boolean;
}): boolean {
  return !!o.playbookId && o.loaded && Object.keys(o.errors).length === 0 && !o.running;
}

// ---- the request -------------------------------------------------------------------------------

/**
 * The params of the run request: checkboxes as booleans (a Go template's `if` reads "false" as
 * true), text as typed, empty optional fields left out so the action sees no value rather than "".
 */
export function toRunParams(params: readonly PlaybookParameter[], values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params) {
    const v = values[p.name];
    if (p.type === 'checkbox') out[p.name] = v === true;
    else if (typeof v === 'string' && v.trim() !== '') out[p.name] = v;
  }
  return out;
}
