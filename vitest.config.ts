// Test projects: `unit` (pure modules, tests beside the code), `integration` (server/test: real
// databases, sockets and child processes, hence the long timeouts; files one after the other in a
// worker's process, except those that measure their own process: `integration-own-process`) and
// `e2e` (web/e2e: the built console in headless Chromium against a real server started in-process;
// two files at a time, before the others: each starts its own server on a free port and its own
// browser, and they are CPU-bound). Then unit and integration together, three files at a time.
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take minutes (child processes run for a fixed time, SIGKILL loops, the fuzzer):
 * started first, so that the other worker runs the short files beside them instead of waiting for
 * one of them at the end. Vitest orders by the last run's durations only when it has a cache,
 * which a fresh clone (CI) does not.
 */
const SLOW_FIRST = [
  'server/test/replicas.test.ts',
  'server/test/crash-pglite.test.ts',
  'server/test/fuzz.test.ts',
  'server/test/agents-process.test.ts',
  'server/test/deploy-dockerfile.test.ts',
  'web/e2e/health.e2e.ts',
  'web/e2e/agents.e2e.ts',
  'web/e2e/incidents.e2e.ts',
];

/** Files that measure their own process (RSS): each runs in a fresh process of its own. */
const OWN_PROCESS = ['server/test/logs-file.test.ts'];

/** The integration files' settings (real databases, sockets and child processes). */
const integration = {
  environment: 'node' as const,
  pool: 'forks' as const,
  // After the browser tests, three files at a time: most of these wait on child processes,
  // timers and leases, and two workers left a third of the CPU idle.
  sequence: { groupOrder: 1 },
  maxWorkers: 3,
  // In-process servers log warnings only (the access log of thousands of requests is noise
  // here); server and agent processes the tests spawn log at info (helpers/processes.ts).
  env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  globalSetup: ['server/test/helpers/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((s) => f.moduleId.endsWith(s));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep the base order (project by project).
    return sorted.sort((a, b) => (a.project.name === b.project.name ? rank(a) - rank(b) : 0));
  }
}

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one, on a two-core machine. Two for the
    // browser tests (group 0); unit and integration (group 1) set their own.
    maxWorkers: 2,
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['common/src/**/*.test.ts', 'server/src/**/*.test.ts', 'web/src/**/*.test.ts'],
          environment: 'node',
          // Pure modules: one module graph per worker instead of one per file (a third of the time
          // was spent importing the same modules again for each of ~140 files).
          isolate: false,
          sequence: { groupOrder: 1 },
          maxWorkers: 3,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['server/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OWN_PROCESS],
          ...integration,
          // Files run one after the other in a worker's process (each file still starts its own
          // servers and databases and stops them): importing the server's modules once per worker
          // instead of once per file took ~400 s of CPU off the suite (import 459 s → 37 s).
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration-own-process',
          include: OWN_PROCESS,
          ...integration,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.e2e.ts'],
          environment: 'node',
          pool: 'forks',
          // As for integration: each file starts its own server and browser, and the server's
          // modules are imported once per worker (8 s of CPU per file otherwise).
          isolate: false,
          env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
          globalSetup: ['web/e2e/global-setup.ts'],
          // expect.poll's default of 1 s is shorter than a loaded machine takes to render a change
          // the server made (hundreds of polls in the e2e files wait for exactly that).
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
