import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  FANNED_OUT_BEFORE_REFRESH,
  REFRESH_INTERVAL_MS,
  createDueStatistics,
} from '../../src/services/webhooks/due-statistics.js';
import { pgAvailable } from '../fixtures/postgres.js';
import { useApp, type TestApp } from '../fixtures/test-app.js';

/** How many times the delivery table's statistics were refreshed (PostgreSQL counts every ANALYZE of a table). */
async function analyses(t: TestApp): Promise<number> {
  const { rows } = await sql<{ count: string | number }>`
    select analyze_count as count from pg_stat_user_tables where relid = 'webhook_deliveries'::regclass`.execute(
    t.store.db,
  );
  return Number(rows[0]?.count ?? Number.NaN);
}

/** A log that keeps what it was told. */
function keptLog() {
  const lines: { details: object; message: string }[] = [];
  return { lines, warn: (details: object, message: string) => void lines.push({ details, message }) };
}

/**
 * A queue filled faster than the database's own maintenance looks at it is planned as empty: the delivery loop
 * refreshes its statistics once enough deliveries were fanned out, at most once a minute.
 */
describe.runIf(pgAvailable)("the delivery queue's statistics (PostgreSQL; SQLite's plan needs none)", () => {
  let t: TestApp;
  const shared = useApp({ dialect: 'postgres' });
  beforeAll(() => {
    t = shared();
  });

  test('when enough deliveries were fanned out, then they are refreshed once, and again only after the interval and as many more', async () => {
    let now = 1_800_000_000_000;
    const log = keptLog();
    const statistics = createDueStatistics(t.store, { now: () => now }, log);
    const before = await analyses(t);

    statistics.wrote(FANNED_OUT_BEFORE_REFRESH - 1);
    await statistics.settled();
    expect(await analyses(t)).toBe(before);

    statistics.wrote(1);
    await statistics.settled();
    expect(await analyses(t)).toBe(before + 1);

    now += REFRESH_INTERVAL_MS - 1;
    statistics.wrote(10 * FANNED_OUT_BEFORE_REFRESH);
    await statistics.settled();
    expect(await analyses(t)).toBe(before + 1);

    now += 1;
    statistics.wrote(0);
    await statistics.settled();
    expect(await analyses(t)).toBe(before + 2);

    now += REFRESH_INTERVAL_MS;
    statistics.wrote(FANNED_OUT_BEFORE_REFRESH - 1);
    await statistics.settled();
    expect(await analyses(t)).toBe(before + 2);
    expect(log.lines).toEqual([]);
  });

  test('when the database user may not refresh them, then one warning says so and they are not tried again', async () => {
    const role = `gatehouse_reader_${process.pid}`;
    await sql.raw(`drop role if exists ${role}`).execute(t.store.db);
    await sql.raw(`create role ${role}`).execute(t.store.db);
    const log = keptLog();
    try {
      await t.store.db.connection().execute(async (connection) => {
        await sql.raw(`set role ${role}`).execute(connection);
        try {
          const statistics = createDueStatistics(
            { ...t.store, db: connection },
            { now: () => 1_800_000_000_000 },
            log,
          );
          const before = await analyses(t);
          statistics.wrote(FANNED_OUT_BEFORE_REFRESH);
          await statistics.settled();
          statistics.wrote(10 * FANNED_OUT_BEFORE_REFRESH);
          await statistics.settled();
          expect(await analyses(t)).toBe(before);
        } finally {
          await sql`reset role`.execute(connection);
        }
      });
    } finally {
      await sql.raw(`drop role if exists ${role}`).execute(t.store.db);
    }
    expect(log.lines).toEqual([
      {
        details: { error: expect.stringContaining('webhook_deliveries') as string },
        message: 'webhook queue statistics could not be refreshed',
      },
    ]);
  });
});
