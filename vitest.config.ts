import { defineConfig } from 'vitest/config';

/**
 * Most tests wait on a database, a child process or a socket rather than on the CPU, so even a 2-core machine runs
 * several files at once (Vitest's default there would be one). The few that load the machine on purpose or time
 * what they see run alone, after the rest.
 */
const WORKERS = 3;
const ALONE = [
  'test/processes/pg-feed-storm.test.ts',
  'test/processes/pg-paused.test.ts',
  'test/processes/pg-restart-storm.test.ts',
  'test/processes/pg-failover.test.ts',
  'test/processes/hardening/sigterm.test.ts',
  'test/processes/hardening/slow-client.test.ts',
  'test/processes/console/stream-drain.test.ts',
];

/** Files that replace a module (vi.mock) get modules of their own. */
const OWN_MODULES = ['test/docs/openapi.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'component',
          // Unit tests of pure domain code sit next to it in src/.
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: ['test/processes/**', ...OWN_MODULES],
          maxWorkers: WORKERS,
          // The files of a worker share its modules (each builds its own apps and stores): loaded once, not per file.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: OWN_MODULES, maxWorkers: WORKERS },
      },
      {
        // Real `gatehouse serve` processes and real database faults, on the built CLI and console.
        extends: true,
        test: {
          name: 'processes',
          include: ['test/processes/**/*.test.ts'],
          exclude: ALONE,
          globalSetup: ['test/processes/build.global-setup.ts'],
          maxWorkers: WORKERS,
          isolate: false,
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: ALONE,
          globalSetup: ['test/processes/build.global-setup.ts'],
          maxWorkers: 1,
          testTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
