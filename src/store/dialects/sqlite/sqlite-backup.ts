import { closeSync, existsSync, openSync, renameSync, rmSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';

/** A backup or restore that cannot go ahead: the reason, for the operator. */
export class BackupRefusedError extends Error {
  override name = 'BackupRefusedError';
}

/** The file of a `sqlite:<path>` URL; refused for any other database. */
export function sqlitePath(databaseUrl: string, command: string): string {
  if (!databaseUrl.startsWith('sqlite:') || databaseUrl === 'sqlite::memory:') {
    throw new BackupRefusedError(
      `${command} works on a SQLite file; on PostgreSQL use pg_dump and pg_restore (README: "Backups and upgrades")`,
    );
  }
  return databaseUrl.slice('sqlite:'.length);
}

/** `ok`, or what is wrong with the file as a gatehouse database. */
function integrityOf(file: string): string {
  const database = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = String(database.pragma('integrity_check', { simple: true }));
    if (integrity !== 'ok') return integrity;
    const migrations = database
      .prepare("select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get() as { n: number };
    return migrations.n === 1 ? 'ok' : 'not a gatehouse database: it has no migrations';
  } finally {
    database.close();
  }
}

/**
 * A consistent copy of a SQLite database while processes serve it, through `VACUUM INTO`: the copy is the database
 * as of one read transaction (every transaction committed before it began is in it, none half-way), writers are
 * never stopped (WAL), and only live rows are copied, so nothing deleted (an erased member's data) survives in free
 * pages. The file is made readable by its owner only (it holds webhook secrets and the pseudonym key) before a byte
 * is written, and is checked before it is kept.
 */
export async function backupSqlite(source: string, destination: string): Promise<{ pages: number }> {
  if (!existsSync(source)) throw new BackupRefusedError(`no database at ${source}`);
  if (existsSync(destination)) {
    throw new BackupRefusedError(`${destination} exists: choose a new file (a backup never overwrites one)`);
  }
  // VACUUM INTO writes into an empty file: made here with mode 0600 (umask can only narrow it).
  closeSync(openSync(destination, 'wx', 0o600));
  const database = new SqliteDatabase(source, { fileMustExist: true, timeout: 5000 });
  try {
    database.prepare('vacuum into ?').run(destination);
  } catch (error) {
    rmSync(destination, { force: true });
    throw error;
  } finally {
    database.close();
  }
  const integrity = integrityOf(destination);
  if (integrity !== 'ok') {
    rmSync(destination, { force: true });
    throw new BackupRefusedError(`the copy failed its integrity check (${integrity}); nothing was kept`);
  }
  return { pages: pageCount(destination) };
}

function pageCount(file: string): number {
  const database = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return Number(database.pragma('page_count', { simple: true }));
  } finally {
    database.close();
  }
}

/** Whether any connection (a serving process, a running command) holds the database open. */
function assertUnused(file: string): void {
  if (!existsSync(file)) return;
  const database = new SqliteDatabase(file, { fileMustExist: true, timeout: 0 });
  try {
    // An exclusive lock is refused while any other connection has the database open in WAL mode.
    database.pragma('locking_mode = EXCLUSIVE');
    database.exec('begin exclusive');
    database.exec('rollback');
  } catch {
    throw new BackupRefusedError(
      `${file} is in use by a running gatehouse process: stop it before restoring`,
    );
  } finally {
    database.close();
  }
}

/**
 * Puts a backup back in place of the database: checked first, copied beside the database, then moved over it in
 * one rename, and the old database's write-ahead log removed with it. Refused while a process holds the database.
 */
export async function restoreSqlite(backup: string, target: string): Promise<void> {
  if (!existsSync(backup)) throw new BackupRefusedError(`no backup at ${backup}`);
  const integrity = (() => {
    try {
      return integrityOf(backup);
    } catch {
      return 'not a SQLite database';
    }
  })();
  if (integrity !== 'ok') throw new BackupRefusedError(`${backup} is not a sound backup (${integrity})`);
  assertUnused(target);
  const staging = `${target}.restoring`;
  rmSync(staging, { force: true });
  const source = new SqliteDatabase(backup, { readonly: true, fileMustExist: true });
  try {
    await source.backup(staging);
  } finally {
    source.close();
  }
  assertUnused(target);
  for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
  renameSync(staging, target);
}
