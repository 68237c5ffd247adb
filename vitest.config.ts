import { defineConfig } from 'vitest/config';

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
          exclude: ['test/processes/**'],
        },
      },
      {
        // Real `gatehouse serve` processes and real database faults: built once, run one file at a time.
        extends: true,
        test: {
          name: 'processes',
          include: ['test/processes/**/*.test.ts'],
          globalSetup: ['test/processes/build.global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
        },
      },
    ],
  },
});
