// Cases for canary-expressions.test.ts (and the compatibility suite): canaries in canary-checker's
// YAML whose scripts are refused at apply (with where: the field path, the field's line and column
// in the document, the position within the script), and canaries using canary-checker's CEL
// extension functions that apply and run. Each YAML body is what follows `spec:`'s `schedule:`
// line, which is line 6 of the document, so a body's first line is line 7.

const q = JSON.stringify;

export interface CelRefusal {
  name: string;
  yaml: string;
  path: string;
  message: string;
  /** Line and column of the problem in the document (of the field's value when it cannot be told). */
  at: { line: number; column: number };
  /** Line and column of the problem within the script. */
  script?: { line: number; column: number };
}

export interface CelCase {
  name: string;
  yaml: (env: { url: string }) => string;
  expected: 'pass' | 'fail';
  /** What the check's message (display) must match. */
  message?: RegExp;
}

/** One exec check whose line 10 (and on) are `lines`. */
const exec = (lines: string) => `  exec:\n    - name: c\n      script: "echo hello"\n${lines}`;
const script = (key: string, kind: string, source: string) => `      ${key}:\n        ${kind}: ${q(source)}\n`;

export const celRefusals: CelRefusal[] = [
  {
    name: 'test.expr with a CEL syntax error',
    yaml: exec(script('test', 'expr', 'code in [200,')),
    path: 'spec.exec[0].test.expr',
    message: 'CEL syntax error',
    at: { line: 11, column: 29 },
    script: { line: 1, column: 14 },
  },
  {
    name: 'display.expr calling an unknown function',
    yaml: exec(script('display', 'expr', 'code == 200 && foo(1)')),
    path: 'spec.exec[0].display.expr',
    message: "unknown function 'foo'",
    at: { line: 11, column: 31 },
    script: { line: 1, column: 16 },
  },
  {
    name: 'transform.expr (block scalar) calling an unknown method',
    yaml: exec('      transform:\n        expr: |\n          results.stdout\n            .shout()\n'),
    path: 'spec.exec[0].transform.expr',
    message: "unknown function 'shout'",
    at: { line: 13, column: 14 },
    script: { line: 2, column: 4 },
  },
  {
    name: 'test.expr with an unknown namespaced function',
    yaml: exec(script('test', 'expr', 'math.Foo(1) > 0')),
    path: 'spec.exec[0].test.expr',
    message: "unknown function 'math.Foo'",
    at: { line: 11, column: 21 },
    script: { line: 1, column: 6 },
  },
  {
    name: 'http test.expr with a wrong number of arguments',
    yaml: `  http:\n    - name: c\n      url: http://127.0.0.1:1/\n${script('test', 'expr', 'headers["A"].replace("a")')}`,
    path: 'spec.http[0].test.expr',
    message: "function 'replace' takes 2 or 3 arguments, got 1",
    // Escaped quotes precede the call in the YAML text: the field's own position is given.
    at: { line: 11, column: 15 },
    script: { line: 1, column: 14 },
  },
  {
    name: 'test.template with a Go template syntax error',
    yaml: exec(script('test', 'template', '{{ .code }')),
    path: 'spec.exec[0].test.template',
    message: 'unexpected "}" in action',
    at: { line: 11, column: 29 },
    script: { line: 1, column: 10 },
  },
  {
    name: 'display.template calling an unknown function',
    yaml: exec(script('display', 'template', '{{ foo .x }}')),
    path: 'spec.exec[0].display.template',
    message: 'function "foo" not defined',
    at: { line: 11, column: 23 },
    script: { line: 1, column: 4 },
  },
  {
    name: 'display.javascript with a syntax error',
    yaml: exec(script('display', 'javascript', 'var x = {;')),
    path: 'spec.exec[0].display.javascript',
    message: 'JavaScript SyntaxError',
    at: { line: 11, column: 31 },
    script: { line: 1, column: 10 },
  },
  {
    name: 'metrics value calling an unknown function',
    yaml: exec('      metrics:\n        - name: m\n          type: gauge\n          value: "bar(1)"\n'),
    path: 'spec.exec[0].metrics[0].value',
    message: "unknown function 'bar'",
    at: { line: 13, column: 19 },
    script: { line: 1, column: 1 },
  },
];

const execTest = (expr: string, extra = '') => exec(`${script('test', 'expr', expr)}${extra}`);
const all = (...parts: string[]) => parts.join(' && ');

export const celCases: CelCase[] = [
  {
    name: 'string functions',
    yaml: () =>
      execTest(
        all(
          'results.stdout.title() == "Hello"',
          '"a,b".split(",").join("-") == "a-b"',
          '"%s=%d".format(["x", 1]) == "x=1"',
          'strings.Title("a b") == "A B"',
          '"hello".replace("l", "L") == "heLLo"',
          '"  x ".trim() == "x" && "X".lower() == "x" && "x".upper() == "X"',
          'strings.TrimSpace(" y ") == "y" && "a-b".trimPrefix("a-") == "b"',
          'HumanSize(1048576) == "1M" && strings.HumanBytes(2048) == "2K"',
          'HumanDuration(duration("90m")) == "1h30m0s" && humanizeBytes(1536) == "1.5 KiB"',
          'SemverCompare(">=1.0", "1.2.0") && results.stdout.startsWith("he") && results.stdout.contains("ll")',
        ),
      ),
    expected: 'pass',
  },
  {
    name: 'collections, sets and math',
    yaml: () =>
      execTest(
        all(
          '{"b": 1, "a": 2}.keys().sort() == ["a", "b"] && {"a": 1}.values() == [1]',
          'dyn(results).keys().size() == 3',
          '[[1], [2]].flatten() == [1, 2] && [3, 1].sort() == [1, 3] && [1, 1].distinct() == [1]',
          '["a", "b", "c"].slice(1, 3) == ["b", "c"] && [1, 2].reverse() == [2, 1]',
          'sets.contains([1, 2], [2]) && sets.intersects([1], [1, 3])',
          'math.greatest([1, 5]) == 5 && math.Add([1, 2]) == 3 && math.Abs(-2) == 2',
          'range(3) == [0, 1, 2] && {"a": 1}.merge({"b": 2}).omit(["a"]) == {"b": 2}',
        ),
      ),
    expected: 'pass',
  },
  {
    name: 'JSON, YAML, jsonpath, encodings, hashes, uuid, regexp, filepath, random',
    yaml: () =>
      execTest(
        all(
          'toJSON({"a": 1}) == "{\\"a\\":1}" && fromJSON("[1]")[0] == 1 && "{\\"k\\": 2}".JSON().k == 2',
          'toYAML({"a": 1}) == "a: 1\\n" && fromYAML("a: 1").a == 1',
          'jsonpath("$.a.b", {"a": {"b": "x"}}) == "x"',
          'base64.encode("hi") == "aGk=" && string(base64.decode("aGk=")) == "hi"',
          'crypto.SHA256("x").size() == 64 && uuid.IsValid(uuid.V4())',
          'regexp.Match("^h", results.stdout) && regexp.Replace("l+", "L", results.stdout) == "heLo"',
          'filepath.Base("/a/b") == "b" && urlencode("a b") == "a+b" && random.AlphaNum(4).size() == 4',
        ),
      ),
    expected: 'pass',
  },
  {
    name: 'time functions and durations',
    yaml: () =>
      execTest(
        all(
          'time.Since(timestamp("2020-01-01T00:00:00Z")) > Duration("7d")',
          'time.Parse("2006-01-02", "2023-09-26").getFullYear() == 2023',
          'time.Now() > timestamp("2020-01-01T00:00:00Z") && now() > timestamp("2020-01-01T00:00:00Z")',
          'age("2020-01-01T00:00:00Z") > duration("1h") && time.ParseDuration("1d") == duration("24h")',
        ),
      ),
    expected: 'pass',
  },
  {
    name: 'matchQuery, matchLabel, aws and k8s helpers',
    yaml: () =>
      execTest(
        all(
          'matchQuery({"name": "api", "type": "Kubernetes::Pod", "tags": {"cluster": "homelab"}}, "type=Kubernetes::Pod tags.cluster=homelab")',
          'matchLabel({"env": "prod"}, "env", "prod,staging") && fromAWSMap([{"Name": "a", "Value": "b"}]).a == "b"',
          'k8s.isHealthy({"kind": "Pod", "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}})',
          'k8s.memoryAsBytes("1Ki") == 1024',
        ),
      ),
    expected: 'pass',
  },
  {
    name: 'fold and sortBy macros, net.*, test.*, Dict',
    yaml: () =>
      execTest(
        all(
          '[1, 2, 3].fold(e, acc, acc + e) == 6 && {"b": "x", "a": "y"}.fold(k, v, acc, acc + k) == "ab"',
          '[{"n": 2}, {"n": 1}].sortBy(i, i.n)[0].n == 1 && [{"n": 2}, {"n": 1}].sortBy("n")[0].n == 1',
          'net.ContainsCIDR("10.0.0.0/8", "10.1.2.3") && net.IsValidIP("::1")',
          'test.Ternary("a", "b", true) == "a" && Dict(["k", 1]).k == 1 && first([5]) == 5',
        ),
      ),
    expected: 'pass',
  },
  {
    name: 'http: json.keys(), jsonpath on the body, format in display',
    yaml: (e) =>
      `  http:\n    - name: c\n      url: ${e.url}/json\n` +
      script(
        'test',
        'expr',
        'json.keys().sort() == ["items", "nested", "status"] && jsonpath("$.nested.name", json) == "opsdeck"',
      ) +
      script(
        'display',
        'expr',
        '"%s has %d items, sum %d".format([json.nested.name, json.items.size(), json.items.sum()])',
      ),
    expected: 'pass',
    message: /^opsdeck has 3 items, sum 6$/,
  },
  {
    name: "canary-checker's cel.yaml fixture display",
    yaml: () =>
      exec(
        script(
          'display',
          'expr',
          `'3 in [1, 2, 4] = ' + string(3 in [1, 2, 4]) + '\\n' + ['a', 'b', 'c', 'd'].slice(1, 3).join(',') + '\\n' +
 string("apple".matches("^a.*e$")) + " " + 'TacoCat'.lowerAscii() + '\\n' +
 'duration("30m") = ' + string(duration("30m").getSeconds()) + '\\n' +
 'HumanSize(1048576) = ' + HumanSize(1048576) + '\\n' +
 'SemverCompare = ' + string(SemverCompare("1.2.3", "1.2.4")) + '\\n' +
 string(timestamp("1986-12-18T10:00:20.021-05:00").getDayOfMonth()) + '\\n' +
 HumanDuration(time.Now() - timestamp("1986-12-18T10:00:20.021-05:00")) + '\\n' +
 string(uuid.IsValid(uuid.V4())) + '\\n' + crypto.SHA384("hello world") + '\\n' +
 time.ZoneName() + '\\n' + string(time.ZoneOffset()) + '\\n' + string(time.Parse("2006-01-02", "2023-09-26"))`,
        ),
      ),
    expected: 'pass',
    message: /HumanSize\(1048576\) = 1M[\s\S]*SemverCompare = false[\s\S]*2023-09-26T00:00:00/,
  },
  {
    name: 'an extension function giving false fails the check',
    yaml: () => execTest('results.stdout.reverse() == results.stdout'),
    expected: 'fail',
  },
  {
    name: 'a run-time error in an extension function fails the check (applies: not a syntax problem)',
    yaml: () => execTest('fromJSON(results.stdout).a == 1'),
    expected: 'fail',
  },
  {
    name: 'JavaScript display that compiles runs',
    yaml: () => exec(`${script('display', 'javascript', '"exit=" + results.exitCode')}`),
    expected: 'pass',
    message: /^exit=0$/,
  },
];
