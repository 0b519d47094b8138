// Differential conformance: the real PostgREST 12.0.2 and Opsdeck's /api/db, each on its own
// copy of fixture.sql, must give the same status, JSON body and Content-Range to every request
// of corpus.yaml. Needs TEST_DATABASE_URL (a PostgreSQL server where databases can be created).
// Debug a subset with CONFORMANCE_ONLY="name part,other part", or outside vitest with run.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  filterCorpus,
  formatReport,
  loadCorpus,
  runCorpus,
  startEnvironment,
  summaryLine,
  type ConformanceEnvironment,
} from './harness.js';

const adminUrl = process.env.TEST_DATABASE_URL;

describe('PostgREST conformance corpus', () => {
  it('holds at least 150 uniquely named requests covering reads, writes, rpc and errors', () => {
    const corpus = loadCorpus();
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    const methods = new Set(corpus.map((e) => e.method));
    expect([...methods].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH', 'POST']);
    expect(corpus.some((e) => e.path.startsWith('/rpc/'))).toBe(true);
  });
});

if (!adminUrl) {
  describe.skip('PostgREST conformance (skipped: set TEST_DATABASE_URL to a PostgreSQL 15 server to run it)', () => {
    it('matches PostgREST 12.0.2 on every corpus request', () => undefined);
  });
} else {
  describe('PostgREST conformance', () => {
    let env: ConformanceEnvironment | undefined;

    beforeAll(async () => {
      env = await startEnvironment(adminUrl);
    });

    afterAll(async () => {
      await env?.close();
    });

    it('matches PostgREST 12.0.2 on every corpus request', async () => {
      expect(env!.postgrest.version).toBe('PostgREST 12.0.2');
      const entries = filterCorpus(loadCorpus());
      expect(entries.length, 'CONFORMANCE_ONLY matched no corpus entry').toBeGreaterThan(0);
      const outcomes = await runCorpus(env!, entries);
      const report = formatReport(outcomes, env!.postgrest.version);
      console.log(report);
      const mismatched = outcomes.filter((o) => o.differences.length > 0).map((o) => o.entry.name);
      expect(mismatched, summaryLine(outcomes, env!.postgrest.version)).toEqual([]);
    }, 180_000);
  });
}
