import { describe, expect, it } from 'vitest';
import { describeSchemaError, validateJsonSchema, type JsonSchema } from './jsonSchema.js';
import { teamResourceJsonSchema } from './specs/teams.js';

const messages = (schema: JsonSchema, value: unknown) => validateJsonSchema(schema, value).map(describeSchemaError);

describe('JSON Schema validation', () => {
  it('accepts a valid team', () => {
    const team = {
      name: 'sre',
      icon: 'kubernetes',
      spec: { notifications: [{ connection: 'connection://slack/sre' }] },
    };
    expect(validateJsonSchema(teamResourceJsonSchema, team)).toEqual([]);
  });

  it('reports missing required properties, wrong types and unknown properties with their paths', () => {
    expect(messages(teamResourceJsonSchema, { icon: 3, spec: { notifications: [{ url: 5 }], extra: true } })).toEqual([
      "missing required property 'name'",
      'icon: must be a string',
      'spec.notifications[0].url: must be a string',
      'spec.extra: unknown property',
    ]);
  });

  it('checks strings, numbers and arrays', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, pattern: '^[a-z-]+$' },
        port: { type: 'integer', minimum: 1, maximum: 65535 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
        mode: { enum: ['a', 'b'] },
      },
    };
    expect(messages(schema, { name: '', port: 0, tags: [], mode: 'c' })).toEqual([
      'name: must not be empty',
      'name: must match the pattern ^[a-z-]+$',
      'port: must be >= 1',
      'tags: must have at least 1 item',
      'mode: must be one of "a", "b"',
    ]);
    expect(messages(schema, { port: 1.5, tags: ['x', 'x'] })).toEqual([
      'port: must be an integer',
      'tags[1]: must be unique',
    ]);
  });

  it('follows local $refs and reports the closest anyOf branch', () => {
    const schema: JsonSchema = {
      $defs: { selector: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      type: 'object',
      properties: { target: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/selector' }] } },
    };
    expect(messages(schema, { target: 'x' })).toEqual([]);
    expect(messages(schema, { target: { name: 'x' } })).toEqual([]);
    expect(messages(schema, { target: {} })).toEqual(["target: missing required property 'name'"]);
  });

  it('checks additionalProperties schemas (maps of labels)', () => {
    const schema: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
    expect(messages(schema, { a: 'x', b: 2 })).toEqual(['b: must be a string']);
  });
});
