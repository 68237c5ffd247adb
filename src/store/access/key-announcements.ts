import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/** The migration that brought the count: a process of an older release changes keys without bumping it. */
export const KEY_ANNOUNCEMENTS_MIGRATION = '0022-key-announcements';

/**
 * Inside the change's own transaction (SQLite): the count moves with it, and only if it commits. On a file not yet
 * migrated to it (a process started with GATEHOUSE_MIGRATE=false ahead of the migration) there is no count to
 * move, and no process reads one: every commit counts there.
 */
export async function bumpKeyAnnouncements(db: Db): Promise<void> {
  await db
    .updateTable('key_announcements')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute()
    .catch((error: unknown) => {
      if (!/no such table: key_announcements/.test((error as Error).message)) throw error;
    });
}

/** How many changes were announced so far; undefined before the migration (no count to read yet). */
export async function keyAnnouncementsVersion(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom('key_announcements')
    .select('version')
    .where('id', '=', 1)
    .executeTakeFirst()
    .catch(() => undefined);
  return row === undefined ? undefined : Number(row.version);
}
