#!/usr/bin/env node
// `npm test`: runs every test stage and ends with one totals line, "N passed, N failed[, N skipped]".
// Exits non-zero when anything failed or when no test ran at all. Extra arguments go to vitest
// (e.g. `npm test -- --project unit server/src/http`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const resultsDir = path.join(root, 'test-results');
const extraArgs = process.argv.slice(2);

/** Runs vitest (all projects: unit + integration) and reads its JSON report. */
function runVitest() {
  const outputFile = path.join(resultsDir, 'vitest.json');
  fs.rmSync(outputFile, { force: true });
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const args = [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile=${outputFile}`, ...extraArgs];
  const { status, signal } = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });

  let report;
  try {
    report = JSON.parse(fs.readFileSync(outputFile, 'utf8'));
  } catch {
    console.error(`vitest wrote no report (exit ${status ?? signal})`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
  // A file that fails to load (syntax error, failing beforeAll) fails no single test; count it
  // so the totals line never says "0 failed" for a red run.
  const brokenFiles = report.testResults.filter(
    (f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'),
  );
  for (const f of brokenFiles) console.error(`failed outside any test: ${path.relative(root, f.name)}`);
  let failed = report.numFailedTests + brokenFiles.length;
  // vitest also exits 1 when no test file matched; the caller reports "no test ran" for that.
  if (status !== 0 && failed === 0 && report.numTotalTests > 0) {
    console.error(`vitest exited with ${status ?? signal} without a failed test (unhandled error?)`);
    failed = 1;
  }
  return { passed: report.numPassedTests, failed, skipped: report.numPendingTests + report.numTodoTests };
}

const stages = [
  { name: 'vitest', run: runVitest },
  // The e2e stage (Playwright against the real server in headless Chromium, web/e2e/) goes here:
  // { name: 'e2e', run: runE2e }, returning { passed, failed, skipped } like runVitest.
];

fs.mkdirSync(resultsDir, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
for (const stage of stages) {
  if (stages.length > 1) console.log(`\n── ${stage.name} ──`);
  const r = stage.run();
  totals.passed += r.passed;
  totals.failed += r.failed;
  totals.skipped += r.skipped;
}

// The totals line is the last line printed: CI and people read the result from it.
if (totals.passed + totals.failed === 0) console.error('no test ran');
console.log(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped > 0 ? `, ${totals.skipped} skipped` : ''}`,
);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
