// The junit check: reads JUnit XML result files on this server (testResults: a file, a folder or a
// glob), totals passed/failed/skipped/errors per suite, and passes when nothing failed or errored.
// canary-checker runs a test pod first; Opsdeck reads results some other job has written.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { glob, isDynamicPattern } from 'tinyglobby';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { abortMessage, commonFields, errorText, fail, invalid } from './common.js';
import { durationSchema } from '../../connections/duration.js';
import { head } from '../../connections/text.js';

/** Result files bigger than this are refused rather than parsed. */
export const MAX_RESULT_FILE_BYTES = 50 * 1024 * 1024;
/** Above this many tests, the per-suite lists keep only failures and errors. */
const MAX_LISTED_TESTS = 1_000;
const MAX_FAILURES_IN_MESSAGE = 10;

export const junitSchema = z.looseObject({
  ...commonFields,
  testResults: z
    .string({ error: 'testResults is required (a JUnit XML file, folder or glob)' })
    .min(1, 'testResults is required (a JUnit XML file, folder or glob)'),
  /** canary-checker's test pod; not run here. */
  spec: z.looseObject({}).optional(),
  /** Minutes in canary-checker; unused when reading files. */
  timeout: durationSchema.optional(),
  artifacts: z.array(z.unknown()).optional(),
});

export type JunitSpec = z.infer<typeof junitSchema>;

export type TestStatus = 'passed' | 'failed' | 'skipped' | 'error';

export interface JunitTest {
  name: string;
  classname: string;
  duration: number;
  status: TestStatus;
  message?: string;
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
  /** Seconds. */
  duration: number;
}

export interface JunitSuite extends Totals {
  name: string;
  file: string;
  tests: JunitTest[];
}

// fast-xml-parser yields untyped trees; these are the shapes read from them.
type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: '#text',
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (name) =>
    ['testsuite', 'testcase', 'failure', 'error', 'skipped', 'system-out', 'system-err'].includes(name),
});

function asNodes(v: unknown): XmlNode[] {
  if (v === undefined || v === null) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((x) => (x && typeof x === 'object' ? (x as XmlNode) : { '#text': String(x) }));
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

function num(v: unknown): number {
  const n = Number(String(v ?? '').replace(/,/g, ''));
  return Number.isFinite(n) ? n : 0;
}

function detail(nodes: XmlNode[]): string | undefined {
  const n = nodes[0];
  if (!n) return undefined;
  const text = str(n.message) || str(n['#text']) || str(n.type);
  return text ? head(text, 500) : undefined;
}

function parseCase(tc: XmlNode): JunitTest {
  const failures = asNodes(tc.failure);
  const errors = asNodes(tc.error);
  const skipped = asNodes(tc.skipped);
  const status: TestStatus = failures.length
    ? 'failed'
    : errors.length
      ? 'error'
      : skipped.length
        ? 'skipped'
        : 'passed';
  const message =
    status === 'failed'
      ? detail(failures)
      : status === 'error'
        ? detail(errors)
        : status === 'skipped'
          ? detail(skipped)
          : undefined;
  return {
    name: str(tc.name),
    classname: str(tc.classname),
    duration: num(tc.time),
    status,
    ...(message ? { message } : {}),
  };
}

/** Suites of one document, nested suites flattened; totals from the test cases (or the attributes when there are none). */
export function parseJunitXml(xml: string, file: string): JunitSuite[] {
  const doc = parser.parse(xml) as XmlNode;
  const roots = asNodes((doc.testsuites as XmlNode | undefined)?.testsuite ?? doc.testsuite);
  const out: JunitSuite[] = [];
  const visit = (s: XmlNode) => {
    const tests = asNodes(s.testcase).map(parseCase);
    const count = (st: TestStatus) => tests.filter((t) => t.status === st).length;
    const suite: JunitSuite = tests.length
      ? {
          name: str(s.name),
          file,
          passed: count('passed'),
          failed: count('failed'),
          skipped: count('skipped'),
          errors: count('error'),
          duration: tests.reduce((sum, t) => sum + t.duration, 0) || num(s.time),
          tests,
        }
      : {
          name: str(s.name),
          file,
          failed: num(s.failures),
          errors: num(s.errors),
          skipped: num(s.skipped ?? s.disabled),
          passed: Math.max(0, num(s.tests) - num(s.failures) - num(s.errors) - num(s.skipped ?? s.disabled)),
          duration: num(s.time),
          tests: [],
        };
    const nested = asNodes(s.testsuite);
    // A suite that only wraps other suites carries their totals: count those once, from the inner ones.
    if (tests.length || !nested.length) out.push(suite);
    nested.forEach(visit);
  };
  roots.forEach(visit);
  return out;
}

/** Files named by testResults: a file, every *.xml under a folder, or a glob. */
async function resultFiles(pattern: string): Promise<string[]> {
  if (isDynamicPattern(pattern)) {
    const parts = pattern.split('/');
    const firstMagic = parts.findIndex((p) => isDynamicPattern(p));
    const base = parts.slice(0, firstMagic).join('/') || (pattern.startsWith('/') ? '/' : '.');
    const rest = parts.slice(firstMagic).join('/');
    return (await glob(rest, { cwd: base, absolute: true, onlyFiles: true })).sort();
  }
  let st;
  try {
    st = await stat(pattern);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  if (st.isDirectory()) return (await glob('**/*.xml', { cwd: pattern, absolute: true, onlyFiles: true })).sort();
  return [pattern];
}

function add(into: Totals, t: Totals): void {
  into.passed += t.passed;
  into.failed += t.failed;
  into.skipped += t.skipped;
  into.errors += t.errors;
  into.duration += t.duration;
}

function summary(t: Totals): string {
  const parts: string[] = [];
  if (t.passed) parts.push(`${t.passed} passed`);
  if (t.failed) parts.push(`${t.failed} failed`);
  if (t.errors) parts.push(`${t.errors} error${t.errors === 1 ? '' : 's'}`);
  if (t.skipped) parts.push(`${t.skipped} skipped`);
  return parts.join(', ') || 'no tests';
}

async function run(spec: JunitSpec, ctx: CheckContext): Promise<CheckResult> {
  if (spec.spec && Object.keys(spec.spec).length) {
    return invalid(
      'running a test pod (spec) is not supported here; point testResults at JUnit XML files on this server that your test job writes',
    );
  }
  const data: Record<string, unknown> = { testResults: spec.testResults };
  let files: string[];
  try {
    files = await resultFiles(spec.testResults);
  } catch (e) {
    return fail(`cannot read ${spec.testResults}: ${errorText(e)}`, data);
  }
  if (!files.length) return fail(`no JUnit XML files match ${spec.testResults}`, data);

  const suites: JunitSuite[] = [];
  for (const file of files) {
    if (ctx.signal.aborted) return fail(`${abortMessage(ctx.signal, ctx)} reading ${file}`, data);
    const name = path.basename(file);
    let xml: string;
    try {
      const st = await stat(file);
      if (st.size > MAX_RESULT_FILE_BYTES)
        return fail(`${file} is ${Math.round(st.size / 1024 / 1024)} MB, too big to read as JUnit results`, data);
      xml = await readFile(file, 'utf8');
    } catch (e) {
      return fail(`cannot read ${file}: ${errorText(e)}`, data);
    }
    // XMLParser does not reject malformed XML by itself; the validator is deprecated upstream but still the check for it.
    const valid = XMLValidator.validate(xml);
    if (valid !== true) return fail(`${name} is not valid XML: ${valid.err.msg} (line ${valid.err.line})`, data);
    let parsed: JunitSuite[];
    try {
      parsed = parseJunitXml(xml, file);
    } catch (e) {
      return fail(`${name} could not be read as JUnit XML: ${errorText(e)}`, data);
    }
    if (!parsed.length && !/<testsuites?[\s>/]/.test(xml))
      return fail(`${name} is not a JUnit result file (no <testsuite> or <testsuites>)`, data);
    suites.push(...parsed);
  }

  const totals: Totals = { passed: 0, failed: 0, skipped: 0, errors: 0, duration: 0 };
  for (const s of suites) add(totals, s);
  totals.duration = Math.round(totals.duration * 1000) / 1000;
  const testCount = suites.reduce((n, s) => n + s.tests.length, 0);
  const listed =
    testCount > MAX_LISTED_TESTS
      ? suites.map((s) => ({ ...s, tests: s.tests.filter((t) => t.status === 'failed' || t.status === 'error') }))
      : suites;
  data.files = files;
  // canary-checker's JUnit detail, bound as `results` by the runner (`error` is its name for errors).
  const results = {
    ...totals,
    error: totals.errors,
    suites: listed,
    ...(testCount > MAX_LISTED_TESTS ? { testsTruncated: true } : {}),
  };
  const durationMs = Math.round(totals.duration * 1000);

  // As canary-checker: failed tests fail the check unless it has a test expression, which then judges.
  const judged = !!(spec.test?.expr || spec.test?.template || spec.test?.javascript || spec.test?.jsonPath);
  if ((totals.failed || totals.errors) && !judged) {
    const broken = suites.flatMap((s) =>
      s.tests
        .filter((t) => t.status === 'failed' || t.status === 'error')
        .map((t) => `${s.name ? `${s.name} › ` : ''}${t.name}${t.message ? `: ${head(t.message, 120)}` : ''}`),
    );
    const shown = broken.slice(0, MAX_FAILURES_IN_MESSAGE).join('; ');
    const more = broken.length > MAX_FAILURES_IN_MESSAGE ? `; and ${broken.length - MAX_FAILURES_IN_MESSAGE} more` : '';
    return { pass: false, error: `${summary(totals)}${shown ? ` — ${shown}${more}` : ''}`, data, results, durationMs };
  }
  return {
    pass: true,
    message: `${summary(totals)} (${files.length} file${files.length === 1 ? '' : 's'})`,
    data,
    results,
    durationMs,
  };
}

export const junitChecker: Checker<JunitSpec> = {
  type: 'junit',
  schema: junitSchema,
  endpoint: (spec) => spec.description || spec.testResults,
  run,
};

export default junitChecker;
