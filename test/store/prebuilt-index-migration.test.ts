import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createStore } from '../../src/store/create-store.js';
import { migrateTo, migrateToLatest } from '../../src/store/migrator.js';
import { createPgSchema } from '../fixtures/postgres.js';
import { dialects } from '../fixtures/test-app.js';

type Store = ReturnType<typeof createStore>;

/** The check-ins table's indexes by member, as the database lists them. */
async function memberIndexes(store: Store, dialect: string): Promise<string[]> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master
          where type = 'index' and tbl_name = 'checkins' and sql is not null order by name`.execute(store.db)
      : await sql<{ name: string }>`select indexname as name from pg_indexes
          where tablename = 'checkins' and schemaname = current_schema() order by indexname`.execute(
          store.db,
        );
  return rows.map((row) => row.name).filter((name) => name.startsWith('checkins_member'));
}

/** A fresh database of the dialect migrated up to `migration`, dropped by `cleanups`. */
async function storeMigratedTo(
  dialect: string,
  migration: string,
  cleanups: (() => Promise<void> | void)[],
): Promise<Store> {
  let url: string;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-index-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    url = `sqlite:${join(dir, 'gatehouse.db')}`;
  } else {
    const schema = await createPgSchema();
    cleanups.push(schema.drop);
    url = schema.url;
  }
  const store = createStore(loadConfig({ GATEHOUSE_DATABASE_URL: url }));
  cleanups.push(() => store.close());
  await migrateTo(store.db, migration);
  return store;
}

/**
 * An index a migration builds can be built by the operator first (on PostgreSQL without holding writes, with
 * `create index concurrently`): the migration then keeps it.
 */
describe.each(dialects)('the member-by-expiry index built before its migration (%s)', (dialect) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const storeBefore0018 = () => storeMigratedTo(dialect, '0017-audit-named-entries', cleanups);

  test('when the operator built it by hand, then the migration keeps it, drops the index by member alone, and is recorded', async () => {
    const store = await storeBefore0018();
    const concurrently = dialect === 'postgres' ? sql`concurrently` : sql``;
    await sql`create index ${concurrently} checkins_member_expiry on checkins (platform_id, expires_at)`.execute(
      store.db,
    );
    expect(await memberIndexes(store, dialect)).toEqual([
      'checkins_member',
      'checkins_member_expiry',
      'checkins_member_latest',
    ]);

    await migrateToLatest(store.db);

    expect(await memberIndexes(store, dialect)).toEqual(['checkins_member_expiry', 'checkins_member_latest']);
    expect(await applied(store, '0018-member-checkins-by-expiry')).toEqual([
      { name: '0018-member-checkins-by-expiry' },
    ]);
  });
});

/** The migration's row in Kysely's record of what has been applied (none while it has not). */
async function applied(store: Store, migration: string): Promise<{ name: string }[]> {
  return store.db
    .selectFrom('kysely_migration' as never)
    .select(sql<string>`name`.as('name'))
    .where(sql`name`, '=', migration)
    .execute();
}

/** The deliveries table's indexes, each with its definition as the database keeps it. */
async function deliveryIndexes(
  store: Store,
  dialect: string,
): Promise<{ name: string; definition: string }[]> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ name: string; definition: string }>`select name, sql as definition from sqlite_master
          where type = 'index' and tbl_name = 'webhook_deliveries' and sql is not null order by name`.execute(
          store.db,
        )
      : await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition
          from pg_indexes where tablename = 'webhook_deliveries' and schemaname = current_schema()
            and indexname <> 'webhook_deliveries_pkey' order by indexname`.execute(store.db);
  return rows;
}

/**
 * The indexes of pending deliveries (0020) replace the two by status; an operator may build them first, as the
 * README says for a large table.
 */
describe.each(dialects)('the pending-delivery indexes built before their migration (%s)', (dialect) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  test('when the operator built one by hand, then the migration keeps it, builds the other, drops the two by status, and only pending deliveries are indexed', async () => {
    const store = await storeMigratedTo(dialect, '0019-visit-marks', cleanups);
    const concurrently = dialect === 'postgres' ? sql`concurrently` : sql``;
    await sql`create index ${concurrently} webhook_deliveries_pending_due on webhook_deliveries (next_attempt_at)
      where status = 'pending'`.execute(store.db);

    await migrateToLatest(store.db);

    const indexes = await deliveryIndexes(store, dialect);
    expect(indexes.map((index) => index.name)).toEqual([
      'webhook_deliveries_endpoint',
      'webhook_deliveries_event',
      'webhook_deliveries_pending_due',
      'webhook_deliveries_pending_member',
    ]);
    const pendingOnly =
      dialect === 'sqlite' ? "where status = 'pending'" : "WHERE (status = 'pending'::text)";
    expect(
      indexes.filter((index) => index.definition.includes(pendingOnly)).map((index) => index.name),
    ).toEqual(['webhook_deliveries_pending_due', 'webhook_deliveries_pending_member']);
    expect(await applied(store, '0020-pending-deliveries')).toEqual([{ name: '0020-pending-deliveries' }]);
  });
});
