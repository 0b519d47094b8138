// A small JSON Schema (draft 2020-12 subset) validator for spec editors: the keywords that
// resource schemas generated from zod (z.toJSONSchema) and hand-written chart schemas use.
// Each error carries the path of the offending value so an editor can point at its line.

export type JsonSchema = boolean | JsonSchemaObject;

export interface JsonSchemaObject {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  type?: JsonType | JsonType[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema;
  propertyNames?: JsonSchema;
  required?: string[];
  minProperties?: number;
  maxProperties?: number;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  not?: JsonSchema;
  description?: string;
  [keyword: string]: unknown;
}

export type JsonType = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'integer' | 'string';
export type JsonPath = Array<string | number>;

export interface SchemaError {
  path: JsonPath;
  message: string;
}

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

function matchesType(value: unknown, type: JsonType): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const show = (v: unknown) => JSON.stringify(v);

/** Renders a path the way people read it: spec.notifications[0].url */
export function formatJsonPath(path: JsonPath): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out;
}

class Validator {
  constructor(private readonly root: JsonSchema) {}

  private resolve(ref: string): JsonSchema {
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const root = this.root;
    if (ref === '#') return root;
    if (m && typeof root === 'object') {
      const defs = root[m[1] as '$defs' | 'definitions'];
      const key = decodeURIComponent(m[2]).replace(/~1/g, '/').replace(/~0/g, '~');
      if (defs && key in defs) return defs[key];
    }
    throw new Error(`Unsupported or unknown $ref ${ref}`);
  }

  validate(schema: JsonSchema, value: unknown, path: JsonPath, errors: SchemaError[]): void {
    if (schema === true) return;
    if (schema === false) {
      errors.push({ path, message: 'is not allowed' });
      return;
    }
    if (schema.$ref) this.validate(this.resolve(schema.$ref), value, path, errors);

    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.some((t) => matchesType(value, t))) {
        errors.push({ path, message: `must be ${types.map(article).join(' or ')}` });
        return; // the other keywords would only repeat the mismatch
      }
    }
    if (schema.enum && !schema.enum.some((e) => deepEqual(e, value))) {
      errors.push({ path, message: `must be one of ${schema.enum.map(show).join(', ')}` });
    }
    if ('const' in schema && !deepEqual(schema.const, value)) {
      errors.push({ path, message: `must be ${show(schema.const)}` });
    }

    if (typeof value === 'string') this.validateString(schema, value, path, errors);
    if (typeof value === 'number') this.validateNumber(schema, value, path, errors);
    if (Array.isArray(value)) this.validateArray(schema, value, path, errors);
    else if (value !== null && typeof value === 'object') {
      this.validateObject(schema, value as Record<string, unknown>, path, errors);
    }

    if (schema.allOf) for (const s of schema.allOf) this.validate(s, value, path, errors);
    if (schema.anyOf && !schema.anyOf.some((s) => this.passes(s, value))) {
      errors.push(...this.bestBranchErrors(schema.anyOf, value, path, 'must match one of the allowed shapes'));
    }
    if (schema.oneOf) {
      const matching = schema.oneOf.filter((s) => this.passes(s, value)).length;
      if (matching === 0) {
        errors.push(
          ...this.bestBranchErrors(schema.oneOf, value, path, 'must match exactly one of the allowed shapes'),
        );
      } else if (matching > 1) {
        errors.push({ path, message: 'must match exactly one of the allowed shapes' });
      }
    }
    if (schema.not !== undefined && this.passes(schema.not, value)) errors.push({ path, message: 'is not allowed' });
  }

  private passes(schema: JsonSchema, value: unknown): boolean {
    const errors: SchemaError[] = [];
    this.validate(schema, value, [], errors);
    return errors.length === 0;
  }

  /** The errors of the branch that got furthest (fewest errors), which is usually the intended one. */
  private bestBranchErrors(branches: JsonSchema[], value: unknown, path: JsonPath, fallback: string): SchemaError[] {
    let best: SchemaError[] | undefined;
    for (const branch of branches) {
      const errors: SchemaError[] = [];
      this.validate(branch, value, path, errors);
      const typeMismatch = errors.length === 1 && errors[0].path === path && errors[0].message.startsWith('must be ');
      if (typeMismatch) continue;
      if (!best || errors.length < best.length) best = errors;
    }
    return best && best.length ? best : [{ path, message: fallback }];
  }

  private validateString(schema: JsonSchemaObject, value: string, path: JsonPath, errors: SchemaError[]) {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) {
      errors.push({
        path,
        message: schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`,
      });
    }
    if (schema.maxLength !== undefined && length > schema.maxLength) {
      errors.push({ path, message: `must be at most ${schema.maxLength} characters` });
    }
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
      errors.push({ path, message: `must match the pattern ${schema.pattern}` });
    }
  }

  private validateNumber(schema: JsonSchemaObject, value: number, path: JsonPath, errors: SchemaError[]) {
    if (schema.minimum !== undefined && value < schema.minimum)
      errors.push({ path, message: `must be >= ${schema.minimum}` });
    if (schema.maximum !== undefined && value > schema.maximum)
      errors.push({ path, message: `must be <= ${schema.maximum}` });
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
      errors.push({ path, message: `must be > ${schema.exclusiveMinimum}` });
    }
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) {
      errors.push({ path, message: `must be < ${schema.exclusiveMaximum}` });
    }
    if (
      schema.multipleOf !== undefined &&
      Math.abs(value / schema.multipleOf - Math.round(value / schema.multipleOf)) > 1e-9
    ) {
      errors.push({ path, message: `must be a multiple of ${schema.multipleOf}` });
    }
  }

  private validateArray(schema: JsonSchemaObject, value: unknown[], path: JsonPath, errors: SchemaError[]) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      errors.push({ path, message: `must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}` });
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      errors.push({ path, message: `must have at most ${schema.maxItems} items` });
    }
    const prefix = schema.prefixItems ?? [];
    value.forEach((item, i) => {
      const itemSchema = i < prefix.length ? prefix[i] : schema.items;
      if (itemSchema !== undefined) this.validate(itemSchema, item, [...path, i], errors);
    });
    if (schema.uniqueItems) {
      for (let i = 0; i < value.length; i++) {
        if (value.slice(0, i).some((v) => deepEqual(v, value[i]))) {
          errors.push({ path: [...path, i], message: 'must be unique' });
        }
      }
    }
  }

  private validateObject(
    schema: JsonSchemaObject,
    value: Record<string, unknown>,
    path: JsonPath,
    errors: SchemaError[],
  ) {
    for (const key of schema.required ?? []) {
      if (!(key in value) || value[key] === undefined)
        errors.push({ path, message: `missing required property '${key}'` });
    }
    const count = Object.keys(value).length;
    if (schema.minProperties !== undefined && count < schema.minProperties) {
      errors.push({ path, message: `must have at least ${schema.minProperties} properties` });
    }
    if (schema.maxProperties !== undefined && count > schema.maxProperties) {
      errors.push({ path, message: `must have at most ${schema.maxProperties} properties` });
    }
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined) continue;
      const childPath = [...path, key];
      if (schema.propertyNames !== undefined && !this.passes(schema.propertyNames, key)) {
        errors.push({ path: childPath, message: `'${key}' is not an allowed property name` });
      }
      let matched = false;
      if (schema.properties && Object.hasOwn(schema.properties, key)) {
        matched = true;
        this.validate(schema.properties[key], child, childPath, errors);
      }
      for (const [pattern, s] of Object.entries(schema.patternProperties ?? {})) {
        if (new RegExp(pattern, 'u').test(key)) {
          matched = true;
          this.validate(s, child, childPath, errors);
        }
      }
      if (!matched && schema.additionalProperties !== undefined) {
        if (schema.additionalProperties === false) errors.push({ path: childPath, message: 'unknown property' });
        else this.validate(schema.additionalProperties, child, childPath, errors);
      }
    }
  }
}

function article(type: JsonType): string {
  return type === 'array' || type === 'object' || type === 'integer'
    ? `an ${type}`
    : type === 'null'
      ? 'null'
      : `a ${type}`;
}

/** Validates `value` against `schema`; an empty list means valid. */
export function validateJsonSchema(schema: JsonSchema, value: unknown): SchemaError[] {
  const errors: SchemaError[] = [];
  new Validator(schema).validate(schema, value, [], errors);
  return errors;
}

/** One line per error: "spec.url: must be a string" (or just the message at the top level). */
export function describeSchemaError(error: SchemaError): string {
  const where = formatJsonPath(error.path);
  return where ? `${where}: ${error.message}` : error.message;
}
