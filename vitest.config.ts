// Test projects: `unit` (pure modules, tests beside the code), `integration` (server/test: real
// databases, sockets and child processes, hence the long timeouts and process isolation) and
// `e2e` (web/e2e: the built console in headless Chromium against a real server started in-process;
// two files at a time like the rest: each starts its own server on a free port and its own browser).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one, on a two-core machine. Many
    // integration files mostly wait (replica, crash, agent and deployment tests run child processes
    // for minutes), so two files at a time keep the suite's wall time down.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['common/src/**/*.test.ts', 'server/src/**/*.test.ts', 'web/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['server/test/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          // In-process servers log warnings only (the access log of thousands of requests is noise
          // here); server and agent processes the tests spawn log at info (helpers/processes.ts).
          env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
          globalSetup: ['server/test/helpers/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.e2e.ts'],
          environment: 'node',
          pool: 'forks',
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
