// canary-compat cases for the cross-check features and the variables every check type binds:
// dependsOn/outputs (run as a whole canary, judged on one check), apply-time refusals (unknown
// name, cycle), transform creating checks, metrics[], the common variables, and TLS (a self-signed
// loopback server: sslAge, maxSSLExpiry, tlsConfig.ca, tlsConfig.insecureSkipVerify).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Files these cases read, beside the suite's folder (not in it: its folder cases count files): <dir>-junit/{pass,fail}/results.xml. */
export async function makeDepsFiles(dir: string): Promise<void> {
  const suite = (failed: boolean) =>
    `<testsuite name="api" tests="2" time="1.5"><testcase name="a" time="0.5"/><testcase name="b" time="1">${failed ? '<failure>boom</failure>' : ''}</testcase></testsuite>`;
  for (const [name, failed] of [
    ['pass', false],
    ['fail', true],
  ] as const) {
    await mkdir(path.join(`${dir}-junit`, name), { recursive: true });
    await writeFile(path.join(`${dir}-junit`, name, 'results.xml'), suite(failed));
  }
}

export interface DepsEnv {
  url: string;
  dir: string;
  tls: { url: string; cert: string };
}

export interface DepsCase {
  name: string;
  yaml: (env: DepsEnv) => string;
  /** 'refused': the apply answers 400 naming `refusedAt` with its line and column. */
  expected: 'pass' | 'fail' | 'refused';
  /** Run the whole canary (dependencies first) and judge this check; else the canary's one check. */
  judge?: string;
  refusedAt?: string;
}

const q = JSON.stringify;

/** One exec check (indented under `exec:`), with dependsOn, test and extra lines. */
const execItem = (name: string, script: string, opts: { dependsOn?: string[]; test?: string; extra?: string } = {}) =>
  `    - name: ${name}\n      script: ${q(script)}\n` +
  (opts.dependsOn ? `      dependsOn: [${opts.dependsOn.join(', ')}]\n` : '') +
  (opts.test ? `      test:\n        expr: ${q(opts.test)}\n` : '') +
  (opts.extra ?? '');

const httpItem = (name: string, url: string, extra = '') => `    - name: ${name}\n      url: ${url}\n${extra}`;

const test = (expr: string) => `      test:\n        expr: ${q(expr)}\n`;

/** tlsConfig.ca with the certificate's PEM as a block scalar. */
const caBlock = (pem: string) =>
  `      tlsConfig:\n        ca:\n          value: |\n${pem
    .trim()
    .split('\n')
    .map((l) => `            ${l}`)
    .join('\n')}\n`;

export const depsCases: DepsCase[] = [
  // dependsOn: the dependent runs after the checks it names and sees outputs.<name>.
  {
    name: 'dependsOn: outputs.<exec>.results.stdout',
    judge: 'consumer',
    yaml: () =>
      `  exec:\n${execItem('consumer', 'echo ok', { dependsOn: ['producer'], test: 'outputs.producer.results.stdout == "42"' })}${execItem('producer', 'echo 42')}`,
    expected: 'pass',
  },
  {
    name: 'dependsOn: exec sees an http check’s outputs.json',
    judge: 'consumer',
    yaml: (e) =>
      `  exec:\n${execItem('consumer', 'true', { dependsOn: ['getStatus'], test: "outputs.getStatus.json.status == 'ok' && outputs.getStatus.code == 200" })}  http:\n${httpItem('getStatus', `${e.url}/json`)}`,
    expected: 'pass',
  },
  {
    name: 'dependsOn: http outputs keep elapsed as a duration',
    judge: 'consumer',
    yaml: (e) =>
      `  exec:\n${execItem('consumer', 'true', { dependsOn: ['src'], test: "outputs.src.elapsed < Duration('30s') && outputs.src.pass" })}  http:\n${httpItem('src', `${e.url}/text`)}`,
    expected: 'pass',
  },
  {
    name: 'dependsOn: http → http as in canary-checker’s fixture',
    judge: 'useStatus',
    yaml: (e) =>
      `  http:\n${httpItem('useStatus', `${e.url}/text`, `      dependsOn: [getStatus]\n${test("code == 200 && outputs.getStatus.json.status != ''")}`)}${httpItem('getStatus', `${e.url}/json`, test('code == 200'))}`,
    expected: 'pass',
  },
  {
    name: 'dependsOn: a chain a → b → c',
    judge: 'c',
    yaml: () =>
      `  exec:\n${execItem('c', 'echo c', { dependsOn: ['b'], test: 'outputs.b.results.stdout == "b"' })}${execItem('b', 'echo b', { dependsOn: ['a'], test: 'outputs.a.results.stdout == "a"' })}${execItem('a', 'echo a')}`,
    expected: 'pass',
  },
  {
    name: 'dependsOn: outputs of two dependencies',
    judge: 'sum',
    yaml: () =>
      `  exec:\n${execItem('sum', 'true', { dependsOn: ['one', 'two'], test: 'int(outputs.one.results.stdout) + int(outputs.two.results.stdout) == 3' })}${execItem('one', 'echo 1')}${execItem('two', 'echo 2')}`,
    expected: 'pass',
  },
  {
    name: 'dependsOn: a failed dependency is left out of outputs',
    judge: 'consumer',
    yaml: () =>
      `  exec:\n${execItem('consumer', 'true', { dependsOn: ['producer'], test: 'outputs.producer.results.stdout == ""' })}${execItem('producer', 'echo half; exit 1')}`,
    expected: 'fail',
  },
  {
    name: 'dependsOn: outputs is empty when the dependency failed',
    judge: 'consumer',
    yaml: () =>
      `  exec:\n${execItem('consumer', 'true', { dependsOn: ['producer'], test: 'size(outputs) == 0' })}${execItem('producer', 'exit 3')}`,
    expected: 'pass',
  },
  {
    name: 'dependsOn: the dependent still runs when its dependency fails',
    judge: 'consumer',
    yaml: () =>
      `  exec:\n${execItem('consumer', 'echo ran', { dependsOn: ['producer'] })}${execItem('producer', 'exit 1')}`,
    expected: 'pass',
  },
  {
    name: 'dependsOn: display template reads outputs',
    judge: 'consumer',
    yaml: () =>
      `  exec:\n${execItem('consumer', 'true', { dependsOn: ['producer'], extra: '      display:\n        template: "got {{.outputs.producer.results.stdout}}"\n' })}${execItem('producer', 'echo 7')}`,
    expected: 'pass',
  },
  {
    name: 'dependsOn: an unknown check name is refused at apply',
    yaml: () => `  exec:\n${execItem('consumer', 'true', { dependsOn: ['nowhere'] })}`,
    expected: 'refused',
    refusedAt: 'spec.exec[0].dependsOn[0]',
  },
  {
    name: 'dependsOn: a cycle is refused at apply',
    yaml: () => `  exec:\n${execItem('a', 'true', { dependsOn: ['b'] })}${execItem('b', 'true', { dependsOn: ['a'] })}`,
    expected: 'refused',
    refusedAt: 'spec.exec[1].dependsOn[0]',
  },
  {
    name: 'dependsOn: a check depending on itself is refused',
    yaml: () => `  exec:\n${execItem('a', 'true', { dependsOn: ['a'] })}`,
    expected: 'refused',
    refusedAt: 'spec.exec[0].dependsOn[0]',
  },
  // The variables canary-checker binds for every type (canary, check, duration, pass, message, ...).
  {
    name: 'common variables: check, canary, pass, duration',
    yaml: () =>
      `  exec:\n${execItem('c', 'echo hi', { test: "check.name == 'c' && canary.name.startsWith('compat-') && pass && duration >= 0 && errorType == ''" })}`,
    expected: 'pass',
  },
  {
    name: 'folder results.size and results.newest',
    yaml: (e) =>
      `  folder:\n    - name: c\n      path: ${q(`${e.dir}/logs`)}\n${test("results.size > 0 && results.newest.name != ''")}`,
    expected: 'pass',
  },
  // junit: results {passed, failed, skipped, error, duration, suites} as canary-checker's fixtures read them.
  {
    name: 'junit results.failed == 0 && results.passed > 0',
    yaml: (e) =>
      `  junit:\n    - name: c\n      testResults: ${q(`${e.dir}-junit/pass`)}\n${test('results.failed == 0 && results.passed > 0')}`,
    expected: 'pass',
  },
  {
    name: 'junit failed tests: a test expression judges',
    yaml: (e) =>
      `  junit:\n    - name: c\n      testResults: ${q(`${e.dir}-junit/fail`)}\n${test("results.failed == 1 && results.suites[0].name == 'api'")}`,
    expected: 'pass',
  },
  {
    name: 'junit failed tests without a test expression fail',
    yaml: (e) => `  junit:\n    - name: c\n      testResults: ${q(`${e.dir}-junit/fail`)}\n`,
    expected: 'fail',
  },
  {
    name: 'junit test expression false on failed tests',
    yaml: (e) =>
      `  junit:\n    - name: c\n      testResults: ${q(`${e.dir}-junit/fail`)}\n${test('results.failed == 0')}`,
    expected: 'fail',
  },
  // transform: a list of results becomes checks of their own.
  {
    name: 'transform creates a passing check',
    judge: 'made-ok',
    yaml: () =>
      `  exec:\n${execItem('src', 'echo 1', { extra: `      transform:\n        expr: ${q("[{'name': 'made-ok', 'pass': true, 'message': results.stdout}, {'name': 'made-bad', 'pass': false, 'error': 'bad'}]")}\n` })}`,
    expected: 'pass',
  },
  {
    name: 'transform creates a failing check',
    judge: 'made-bad',
    yaml: () =>
      `  exec:\n${execItem('src', 'echo 1', { extra: `      transform:\n        expr: ${q("[{'name': 'made-ok', 'pass': true}, {'name': 'made-bad', 'pass': false, 'error': 'bad'}]")}\n` })}`,
    expected: 'fail',
  },
  {
    name: 'transform in-line: one unnamed result fails the check itself',
    yaml: () =>
      `  exec:\n${execItem('c', 'echo 1', { extra: `      transform:\n        expr: ${q("{'pass': false, 'error': 'made to fail'}")}\n` })}`,
    expected: 'fail',
  },
  {
    name: 'transform in-line: pass overrides a failed script',
    yaml: () =>
      `  exec:\n${execItem('c', 'echo down; exit 1', { extra: `      transform:\n        expr: ${q("{'pass': results.stdout == 'down', 'message': 'known'}")}\n` })}`,
    expected: 'pass',
  },
  {
    name: 'transform empty list creates nothing',
    yaml: () => `  exec:\n${execItem('c', 'echo 1', { extra: '      transform:\n        expr: "[]"\n' })}`,
    expected: 'pass',
  },
  {
    name: 'transform empty list with markFailOnEmpty fails',
    yaml: () =>
      `  exec:\n${execItem('c', 'echo 1', { extra: '      markFailOnEmpty: true\n      transform:\n        expr: "[]"\n' })}`,
    expected: 'fail',
  },
  // metrics[]: value and label expressions see the check's variables.
  {
    name: 'metrics: counter from code, labels by valueExpr',
    yaml: (e) =>
      `  http:\n${httpItem('c', `${e.url}/json`, `      metrics:\n        - name: compat_http_2xx\n          type: counter\n          value: "code == 200 ? 1 : 0"\n          labels:\n            - name: check_name\n              valueExpr: check.name\n            - name: fixed\n              value: x\n`)}`,
    expected: 'pass',
  },
  {
    name: 'metrics: a value that is not a number fails the check',
    yaml: () =>
      `  exec:\n${execItem('c', 'echo abc', { extra: '      metrics:\n        - name: compat_exec_value\n          type: gauge\n          value: results.stdout\n' })}`,
    expected: 'fail',
  },
  {
    name: 'metrics: an unknown type is refused at apply',
    yaml: () =>
      `  exec:\n${execItem('c', 'true', { extra: '      metrics:\n        - name: compat_x\n          type: summary\n          value: "1"\n' })}`,
    expected: 'refused',
    refusedAt: 'spec.exec[0].metrics[0].type',
  },
  // TLS: a self-signed certificate valid for 30 days on a loopback HTTPS server.
  {
    name: 'tls: self-signed refused without a CA',
    yaml: (e) => `  http:\n${httpItem('c', `${e.tls.url}/json`)}`,
    expected: 'fail',
  },
  {
    name: 'tls: tlsConfig.insecureSkipVerify',
    yaml: (e) =>
      `  http:\n${httpItem('c', `${e.tls.url}/json`, '      tlsConfig:\n        insecureSkipVerify: true\n')}`,
    expected: 'pass',
  },
  {
    name: 'tls: tlsConfig.ca trusts the certificate',
    yaml: (e) => `  http:\n${httpItem('c', `${e.tls.url}/json`, caBlock(e.tls.cert) + test("json.status == 'ok'"))}`,
    expected: 'pass',
  },
  {
    name: 'tls: maxSSLExpiry 10 days met',
    yaml: (e) => `  http:\n${httpItem('c', `${e.tls.url}/json`, `${caBlock(e.tls.cert)}      maxSSLExpiry: 10\n`)}`,
    expected: 'pass',
  },
  {
    name: 'tls: maxSSLExpiry 60 days not met',
    yaml: (e) => `  http:\n${httpItem('c', `${e.tls.url}/json`, `${caBlock(e.tls.cert)}      maxSSLExpiry: 60\n`)}`,
    expected: 'fail',
  },
  {
    name: "tls: sslAge > Duration('20d')",
    yaml: (e) =>
      `  http:\n${httpItem('c', `${e.tls.url}/json`, caBlock(e.tls.cert) + test("sslAge > Duration('20d')"))}`,
    expected: 'pass',
  },
  {
    name: "tls: sslAge < Duration('7d') fails",
    yaml: (e) =>
      `  http:\n${httpItem('c', `${e.tls.url}/json`, caBlock(e.tls.cert) + test("sslAge < Duration('7d')"))}`,
    expected: 'fail',
  },
  {
    name: 'tls: insecureSkipVerify with sslAge in test',
    yaml: (e) =>
      `  http:\n${httpItem('c', `${e.tls.url}/json`, `      tlsConfig:\n        insecureSkipVerify: true\n${test("code == 200 && sslAge > Duration('29d') && sslAge <= Duration('30d')")}`)}`,
    expected: 'pass',
  },
];
