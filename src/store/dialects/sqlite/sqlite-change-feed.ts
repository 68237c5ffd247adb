import type SqliteDatabase from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../../database.js';
import { KEY_ANNOUNCEMENTS_MIGRATION, keyAnnouncementsVersion } from '../../access/key-announcements.js';
import { LIVE_WITHIN_MS, olderReleaseAlive } from '../../fleet/process-registry.js';

const POLL_MS = 250;

/**
 * SQLite's `data_version` changes when another connection (the CLI, another process) commits. Polled on a timer
 * off the request path.
 */
export function watchDataVersion(database: SqliteDatabase.Database, onChange: () => void): () => void {
  const read = () => database.pragma('data_version', { simple: true }) as number;
  let seen = read();
  const timer = setInterval(() => {
    if (!database.open) return;
    const current = read();
    if (current !== seen) {
      seen = current;
      onChange();
    }
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Key changes made by another connection: after each commit of another one (`data_version`), whether the count of
 * announced changes moved (migration 0022, bumped in the transaction of every change that announces itself). Other
 * commits — validations, above all, in a file several processes share — leave the caches alone. While a live
 * process runs a release from before the count (it changes keys without bumping it), or the count cannot be read,
 * every commit counts as a change, as before. The count is first read as the watch starts, before anything is
 * cached under it.
 */
export function watchKeyAnnouncements(
  database: SqliteDatabase.Database,
  db: Kysely<Database>,
  onChange: () => void,
): () => void {
  let seen: number | undefined;
  let looking = false;
  let missed = false;

  async function look(): Promise<void> {
    const version = await keyAnnouncementsVersion(db);
    const moved = version === undefined || version !== seen;
    seen = version;
    if (moved) return onChange();
    const older = await olderReleaseAlive(db, KEY_ANNOUNCEMENTS_MIGRATION, Date.now() - LIVE_WITHIN_MS).catch(
      () => true,
    );
    if (older) onChange();
  }

  /**
   * Reads through the query builder, which waits for a transaction of this connection to end rather than reading
   * inside it (and serves reads in turn: what is cached after the first read is read after it). A commit seen
   * while a look is under way is looked at once it is over.
   */
  function run(work: () => Promise<void>): void {
    looking = true;
    void work()
      .catch(() => onChange())
      .finally(() => {
        looking = false;
        if (!missed) return;
        missed = false;
        run(look);
      });
  }

  run(async () => {
    seen = await keyAnnouncementsVersion(db);
  });
  return watchDataVersion(database, () => {
    if (looking) missed = true;
    else run(look);
  });
}
