// Test projects: `unit` (pure modules, tests beside the code) and `integration` (server/test:
// real databases, sockets and child processes, hence the long timeouts and process isolation).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['common/src/**/*.test.ts', 'server/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['server/test/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          globalSetup: ['server/test/helpers/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
