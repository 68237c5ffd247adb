import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/** How often a serving process says it is alive. */
export const HEARTBEAT_MS = 5_000;
/** A process silent for three heartbeats is taken as gone. */
export const LIVE_WITHIN_MS = 3 * HEARTBEAT_MS;

/** Says the process is alive and which release it runs: inserted the first time, refreshed after. */
export async function heartbeat(db: Db, id: string, newestMigration: string, now: number): Promise<void> {
  await db
    .insertInto('processes')
    .values({ id, newest_migration: newestMigration, started_at: now, heartbeat_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: now, newest_migration: newestMigration }))
    .execute();
}

/** Rows of processes silent for a day (they crashed, or were killed): gone from the registry. */
export async function forgetSilent(db: Db, before: number): Promise<void> {
  await db.deleteFrom('processes').where('heartbeat_at', '<', before).execute();
}

/** A process that closes leaves the registry at once, rather than when its heartbeat goes stale. */
export async function deregister(db: Db, id: string): Promise<void> {
  await db.deleteFrom('processes').where('id', '=', id).execute();
}

/** Whether a process whose heartbeat is no older than `since` runs a release older than `migration`. */
export async function olderReleaseAlive(db: Db, migration: string, since: number): Promise<boolean> {
  const row = await db
    .selectFrom('processes')
    .select('id')
    .where('heartbeat_at', '>=', since)
    .where('newest_migration', '<', migration)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
