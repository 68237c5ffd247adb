import { describe, expect, test } from 'vitest';
import { PG_TEST_URL, pgAvailable } from './fixtures/postgres.js';
import { dialects } from './fixtures/test-app.js';

describe('PostgreSQL half of the suite', () => {
  test.skipIf(!pgAvailable)(
    `when a server answers at ${PG_TEST_URL}, then every component test runs on it`,
    () => {
      expect(dialects).toEqual(['sqlite', 'postgres']);
    },
  );

  test.skipIf(pgAvailable)(
    `SKIPPED: no PostgreSQL server answers at ${PG_TEST_URL}; the PostgreSQL half of the suite did not run`,
    () => {
      process.stderr.write(`\n\n*** PostgreSQL tests SKIPPED: no server at ${PG_TEST_URL} ***\n\n`);
      expect(dialects).toEqual(['sqlite']);
    },
  );
});
