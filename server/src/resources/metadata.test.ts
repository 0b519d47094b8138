import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { labelsSchema, resourceHeader, storedResource } from './metadata.js';
import { parseDocuments, ResourceErrors, validate } from './yaml.js';

const schema = z.looseObject({ ...resourceHeader('example.com/v1', 'Thing'), spec: z.looseObject({}) });

function errorsOf(text: string): string[] {
  try {
    validate(parseDocuments(text)[0]!, schema);
  } catch (e) {
    return (e as ResourceErrors).errors.map((x) => x.message.replace(/ \(line.*$/, ''));
  }
  return [];
}

describe('resource metadata', () => {
  it('accepts a resource of the kind, keeping unknown fields and turning labels into strings', () => {
    const doc = parseDocuments(
      'apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: a.b-c\n  labels: {n: 1, b: true}\n  x: 1\nspec: {}\n',
    )[0]!;
    const r = validate(doc, schema);
    expect(r.metadata).toEqual({ name: 'a.b-c', labels: { n: '1', b: 'true' }, x: 1 });
    expect(labelsSchema.parse({ a: 2 })).toEqual({ a: '2' });
  });

  it('names the apiVersion, kind and metadata problems', () => {
    expect(errorsOf('apiVersion: v1\nkind: Other\nmetadata: {}\nspec: {}\n')).toEqual([
      'apiVersion: apiVersion must be example.com/v1',
      'kind: kind must be Thing',
      'metadata.name: metadata.name is required',
    ]);
    expect(errorsOf('apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: -bad}\nspec: {}\n')).toEqual([
      'metadata.name: use letters, digits, "-", "_" and "." (starting and ending with a letter or digit)',
    ]);
  });
});

describe('stored resource', () => {
  it('keeps names, labels and schedule, with the default namespace and the document as written', () => {
    const doc = { data: { kind: 'Thing' }, locate: () => undefined };
    expect(storedResource(doc, { name: 'a' }, '@every 1m')).toEqual({
      name: 'a',
      namespace: 'default',
      labels: {},
      schedule: '@every 1m',
      resource: { kind: 'Thing' },
    });
    expect(storedResource(doc, { name: 'a', namespace: 'ns', labels: { x: 'y' } }, 's')).toMatchObject({
      namespace: 'ns',
      labels: { x: 'y' },
    });
  });
});
