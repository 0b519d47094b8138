import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseDocuments, ResourceErrors, validate } from './yaml.js';

function errorsOf(f: () => unknown): string[] {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ResourceErrors);
    return (e as ResourceErrors).errors.map((x) => x.message);
  }
  throw new Error('expected errors');
}

describe('YAML resources', () => {
  it('reads several documents, and JSON', () => {
    expect(parseDocuments('a: 1\n---\nb: 2\n').map((d) => d.data)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(parseDocuments('{"kind": "Canary"}')[0]!.data).toEqual({ kind: 'Canary' });
    expect(parseDocuments('')).toEqual([]);
  });

  it('reports syntax errors at their line and column', () => {
    const [message] = errorsOf(() => parseDocuments('spec:\n  http:\n    - name: a\n     url: x\n'));
    expect(message).toMatch(/\(line 4, column \d+\)$/);
    expect(errorsOf(() => parseDocuments('a: 1\na: 2\n'))[0]).toMatch(/line 2/);
  });

  it('reports schema errors with the field path and the line of the field or its parent', () => {
    const schema = z.object({ spec: z.object({ http: z.array(z.object({ name: z.string(), url: z.string() })) }) });
    const doc = parseDocuments('spec:\n  http:\n    - name: a\n      url: 5\n    - name: b\n')[0]!;
    expect(errorsOf(() => validate(doc, schema))).toEqual([
      'spec.http[0].url: Invalid input: expected string, received number (line 4, column 12)',
      'spec.http[1].url: Invalid input: expected string, received undefined (line 5, column 7)',
    ]);
  });
});

describe('positions inside string values (locateIn)', () => {
  const doc = parseDocuments(
    [
      'plain: code == foo(1)',
      "single: 'a foo'",
      'double: "a foo"',
      'escaped: "\\t foo"',
      'block: |',
      '  first',
      '    second foo',
      'folded: a',
      '  foo',
    ].join('\n'),
  )[0]!;

  it('maps a column of a one-line plain or quoted scalar to the document', () => {
    expect(doc.locateIn!(['plain'], { line: 1, column: 9 })).toEqual({ line: 1, column: 16 });
    expect(doc.locateIn!(['single'], { line: 1, column: 3 })).toEqual({ line: 2, column: 12 });
    expect(doc.locateIn!(['double'], { line: 1, column: 3 })).toEqual({ line: 3, column: 12 });
  });

  it('maps a line and column of a block scalar by its indentation', () => {
    expect(doc.locateIn!(['block'], { line: 2, column: 10 })).toEqual({ line: 7, column: 12 });
  });

  it('gives up where escapes or folding shift the text', () => {
    expect(doc.locateIn!(['escaped'], { line: 1, column: 3 })).toBeUndefined();
    expect(doc.locateIn!(['folded'], { line: 1, column: 3 })).toBeUndefined();
    expect(doc.locateIn!(['missing'], { line: 1, column: 1 })).toBeUndefined();
  });
});
