// Command-line conformance run for debugging, outside vitest:
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx server/test/conformance/run.ts
//   ... run.ts --postgrest-only       what PostgREST answers to each entry (Opsdeck not started)
//   CONFORMANCE_ONLY=embed,rpc ...    only entries whose name contains one of the parts
//   ... run.ts --full                 do not truncate bodies
// Exits 1 when any request mismatches.
import { filterCorpus, formatOracleAnswers, formatReport, loadCorpus, runCorpus, startEnvironment } from './harness.js';

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error('TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)');
  process.exit(2);
}
const postgrestOnly = process.argv.includes('--postgrest-only');
const maxBody = process.argv.includes('--full') ? Number.MAX_SAFE_INTEGER : undefined;

const entries = filterCorpus(loadCorpus());
const env = await startEnvironment(adminUrl, { postgrestOnly });
let failed = false;
try {
  const outcomes = await runCorpus(env, entries);
  if (postgrestOnly) {
    console.log(formatOracleAnswers(outcomes, maxBody));
    console.log(`\n${outcomes.length} requests answered by ${env.postgrest.version}`);
  } else {
    console.log(formatReport(outcomes, env.postgrest.version, maxBody));
    failed = outcomes.some((o) => o.differences.length > 0);
  }
} finally {
  await env.close();
}
process.exit(failed ? 1 : 0);
