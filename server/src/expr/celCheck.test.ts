import { describe, expect, it } from 'vitest';
import { evaluateCel } from './cel.js';
import { checkCel } from './celCheck.js';
import { ExpressionError } from './errors.js';

function checkError(expr: string): ExpressionError {
  try {
    checkCel(expr);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`expected ${expr} to be refused`);
}

describe('checkCel: what apply refuses without running the expression', () => {
  it('an unknown global function, at its position', () => {
    const e = checkError('code == 200 && foo(1)');
    expect(e.message).toContain("unknown function 'foo'");
    expect(e.position).toMatchObject({ line: 1, column: 16 });
  });

  it('an unknown method and an unknown namespaced function, at the name', () => {
    const m = checkError('results.stdout.fooBar("x")');
    expect(m.message).toContain("unknown function 'fooBar'");
    expect(m.position?.column).toBe(16);
    const n = checkError('1 +\n  math.Foo(1)');
    expect(n.message).toContain("unknown function 'math.Foo'");
    expect(n.position).toMatchObject({ line: 2, column: 8 });
  });

  it('a known function with a number of arguments no overload takes', () => {
    expect(checkError('"x".replace("a")').message).toContain("function 'replace' takes 2 or 3 arguments, got 1");
    expect(checkError('math.Abs(1, 2)').message).toContain("function 'math.Abs' takes 1 argument, got 2");
  });

  it('a method called as a function says so', () => {
    expect(checkError('startsWith("x")').message).toContain('it is a method');
  });

  it('a syntax error, with line and column within the expression', () => {
    const e = checkError('code in [200,\n 201');
    expect(e.message).toMatch(/CEL syntax error at line 2/);
    expect(e.position?.line).toBe(2);
  });

  it('accepts what canary-checker fixtures write (macros, optionals, namespaces, extension functions)', () => {
    for (const expr of [
      "code in [200,201,301] && sslAge > Duration('7d')",
      'dyn(results).map(i, i.Object).filter(i, !k8s.isHealthy(i)).map(i, "%s/%s".format([i.metadata.namespace, i.metadata.name])).join("\\n")',
      'results.?files.orValue([]).map(i, i.name).join(", ")',
      'json.headers.keys().size() > 0 && has(json.a) && cel.bind(x, 1, x + 1) == 2',
      'HumanDuration(time.Now() - timestamp("1986-12-18T10:00:20.021-05:00")) + crypto.SHA384("x") + time.ZoneName()',
      '[1, 2].map(x, x > 0, x * 2).exists_one(y, y == 2) && [1].all(z, z > 0)',
      "fromAWSMap(d).merge({'arn': a}).toJSON() + string(uuid.IsValid(uuid.V4())) + string(time.Parse('2006-01-02', '2023-09-26'))",
      'optional.of(1).hasValue() && sets.contains([1], [1]) && math.greatest([1, 2]) == 2',
    ])
      expect(() => checkCel(expr), expr).not.toThrow();
  });

  it('does not evaluate: a function that would fail at run time passes the check', () => {
    expect(() => checkCel('fromJSON("not json")')).not.toThrow();
    expect(() => evaluateCel('fromJSON("not json")', {})).toThrow(/invalid JSON/);
  });
});

describe('namespaced names in evaluation errors', () => {
  it('shows math.foo, not the internal type name', () => {
    expect(() => evaluateCel('math.foo(1)', {})).toThrow(/'math\.foo\(int\)'/);
  });
});
