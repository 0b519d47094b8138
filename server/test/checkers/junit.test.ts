// The junit checker on JUnit XML files the test writes: passing and failing suites, folders and
// globs, nested suites, attribute-only suites, malformed XML and missing files.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { junitChecker, junitSchema, type JunitSpec, parseJunitXml } from '../../src/health/checkers/junit.js';
import { testCheckContext } from '../helpers/checkContext.js';

let root: string;

const PASSING = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="vitest" tests="3" failures="0" errors="0" time="1.5">
  <testsuite name="api" tests="3" failures="0" errors="0" skipped="1" time="1.5">
    <testcase classname="api.users" name="lists users" time="0.5"/>
    <testcase classname="api.users" name="creates a user" time="1.0">
      <system-out>created</system-out>
    </testcase>
    <testcase classname="api.users" name="deletes a user" time="0">
      <skipped/>
    </testcase>
  </testsuite>
</testsuites>`;

const FAILING = `<testsuite name="checkout" tests="3" failures="1" errors="1" time="2.25">
  <testcase classname="shop" name="adds to cart" time="0.25"/>
  <testcase classname="shop" name="pays" time="1.5">
    <failure message="expected 200, got 502" type="AssertionError">stack trace here</failure>
  </testcase>
  <testcase classname="shop" name="ships" time="0.5">
    <error message="ECONNRESET"/>
  </testcase>
</testsuite>`;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'junit-check-'));
  await mkdir(path.join(root, 'green'), { recursive: true });
  await mkdir(path.join(root, 'red', 'nested'), { recursive: true });
  await mkdir(path.join(root, 'broken'), { recursive: true });
  await writeFile(path.join(root, 'green', 'results.xml'), PASSING);
  await writeFile(path.join(root, 'red', 'a.xml'), PASSING);
  await writeFile(path.join(root, 'red', 'nested', 'b.xml'), FAILING);
  await writeFile(path.join(root, 'red', 'notes.txt'), 'not xml');
  await writeFile(path.join(root, 'broken', 'bad.xml'), '<testsuite name="x"><testcase name="y"></testsuite>');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const run = (fields: Partial<JunitSpec>) =>
  junitChecker.run(junitSchema.parse({ name: 'junit-test', ...fields }), testCheckContext());

describe('junit', () => {
  it('passes when no test failed or errored, and totals the results', async () => {
    const r = await run({ testResults: path.join(root, 'green', 'results.xml') });
    expect(r.error).toBeUndefined();
    expect(r.pass).toBe(true);
    expect(r.results).toMatchObject({ passed: 2, failed: 0, skipped: 1, errors: 0, error: 0, duration: 1.5 });
    const suites = (r.results as { suites: unknown }).suites as Array<{
      name: string;
      tests: Array<{ name: string; status: string }>;
    }>;
    expect(suites.map((s) => s.name)).toEqual(['api']);
    expect(suites[0]!.tests.map((t) => t.status)).toEqual(['passed', 'passed', 'skipped']);
    expect(r.message).toBe('2 passed, 1 skipped (1 file)');
    expect(r.durationMs).toBe(1500);
  });

  it('fails on failures and errors, naming the broken tests', async () => {
    const r = await run({ testResults: path.join(root, 'red') });
    expect(r.pass).toBe(false);
    expect(r.results).toMatchObject({ passed: 3, failed: 1, skipped: 1, errors: 1, error: 1 });
    expect(r.error).toBe(
      '3 passed, 1 failed, 1 error, 1 skipped — checkout › pays: expected 200, got 502; checkout › ships: ECONNRESET',
    );
    expect((r.data.files as string[]).map((f) => path.relative(root, f))).toEqual([
      path.join('red', 'a.xml'),
      path.join('red', 'nested', 'b.xml'),
    ]);
  });

  it('reads the files a glob matches', async () => {
    const r = await run({ testResults: `${root}/*/results.xml` });
    expect(r.pass).toBe(true);
    expect(r.data.files).toEqual([path.join(root, 'green', 'results.xml')]);
    const all = await run({ testResults: `${root}/red/**/*.xml` });
    expect(all.results).toMatchObject({ failed: 1 });
  });

  it('fails when nothing matches', async () => {
    const r = await run({ testResults: path.join(root, 'nowhere', '*.xml') });
    expect(r.pass).toBe(false);
    expect(r.error).toBe(`no JUnit XML files match ${path.join(root, 'nowhere', '*.xml')}`);
    const missing = await run({ testResults: path.join(root, 'missing.xml') });
    expect(missing.error).toMatch(/^no JUnit XML files match/);
  });

  it('fails on malformed XML with the line', async () => {
    const r = await run({ testResults: path.join(root, 'broken') });
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/^bad\.xml is not valid XML: .* \(line 1\)$/);
  });

  it('refuses a test pod spec with a clear reason', async () => {
    const r = await run({
      testResults: '/tmp/junit-results/',
      spec: { containers: [{ name: 'jes', image: 'docker.io/tarun18/junit-test-pass' }] },
    });
    expect(r.invalid).toBe(true);
    expect(r.error).toMatch(/running a test pod \(spec\) is not supported/);
  });

  it('flattens nested suites and reads attribute-only suites', () => {
    const nested = `<testsuites><testsuite name="outer" tests="2" failures="1"><testsuite name="inner">
      <testcase name="a"/><testcase name="b"><failure>boom</failure></testcase></testsuite></testsuite></testsuites>`;
    const suites = parseJunitXml(nested, 'n.xml');
    expect(suites.map((s) => [s.name, s.passed, s.failed])).toEqual([['inner', 1, 1]]);
    expect(suites[0]!.tests[1]!.message).toBe('boom');
    const counts = parseJunitXml(
      '<testsuite name="summary" tests="10" failures="2" errors="1" skipped="3" time="4"/>',
      'c.xml',
    );
    expect(counts[0]).toMatchObject({ passed: 4, failed: 2, errors: 1, skipped: 3, duration: 4 });
  });

  it('requires testResults', () => {
    expect(junitSchema.safeParse({ name: 'j' }).error?.issues[0]?.message).toBe(
      'testResults is required (a JUnit XML file, folder or glob)',
    );
  });
});
