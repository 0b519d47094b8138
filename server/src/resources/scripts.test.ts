import { describe, expect, it } from 'vitest';
import { javascriptErrors, scriptErrors, scriptFields } from './scripts.js';
import { parseDocuments } from './yaml.js';

const doc = parseDocuments(
  [
    'spec:',
    '  exec:',
    '    - name: c',
    '      test: {expr: "code == foo(1)"}',
    '      display: {template: "{{ .x }"}',
    '      transform: {javascript: "var x = {;"}',
    '      metrics:',
    '        - name: m',
    '          value: "results.count"',
    '          labels: [{name: l, valueExpr: "bar()"}]',
  ].join('\n'),
)[0]!;
const entry = (doc.data as { spec: { exec: unknown[] } }).spec.exec[0];
const fields = scriptFields(entry, ['spec', 'exec', 0]);

describe('apply-time script checks', () => {
  it('finds test/display/transform scripts and metrics expressions', () => {
    expect(fields.map((f) => [f.path.join('.'), f.kind])).toEqual([
      ['spec.exec.0.test.expr', 'expr'],
      ['spec.exec.0.display.template', 'template'],
      ['spec.exec.0.transform.javascript', 'javascript'],
      ['spec.exec.0.metrics.0.value', 'expr'],
      ['spec.exec.0.metrics.0.labels.0.valueExpr', 'expr'],
    ]);
    expect(scriptFields('not an object', [])).toEqual([]);
  });

  it('reports CEL and template problems with the field, the document position and the script position', () => {
    const errors = scriptErrors(doc, fields).map((e) => e.toJSON());
    expect(errors).toEqual([
      {
        path: 'spec.exec[0].test.expr',
        message: expect.stringContaining("CEL error: unknown function 'foo' (at line 1, column 9 of the expression)"),
        line: 4,
        column: 29,
        script: { line: 1, column: 9 },
      },
      {
        path: 'spec.exec[0].display.template',
        message: expect.stringContaining('Template syntax error: unexpected "}" in action'),
        line: 5,
        column: 34,
        script: { line: 1, column: 7 },
      },
      {
        path: 'spec.exec[0].metrics[0].labels[0].valueExpr',
        message: expect.stringContaining("unknown function 'bar'"),
        line: 10,
        column: 42,
        script: { line: 1, column: 1 },
      },
    ]);
  });

  it('compiles JavaScript without running it', async () => {
    const errors = (await javascriptErrors(doc, fields)).map((e) => e.toJSON());
    expect(errors).toEqual([
      expect.objectContaining({
        path: 'spec.exec[0].transform.javascript',
        message: expect.stringContaining('JavaScript SyntaxError: invalid property name'),
        script: { line: 1, column: 10 },
      }),
    ]);
    const ok = scriptFields({ display: { javascript: 'while (true) {}' } }, ['x']);
    expect(await javascriptErrors(doc, ok)).toEqual([]); // an endless loop compiles, and is not run here
  });
});
