import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database } from '../../database.js';
import { isMigrated, migrateToLatest } from '../../migrator.js';
import type { Store, StoreOptions } from '../../store.js';
import { runChange } from '../../changes/unit-of-work.js';
import { isBatched, type ChangeRequest } from '../../../domain/changes.js';
import { watchDataVersion, watchKeyAnnouncements } from './sqlite-change-feed.js';
import { bumpKeyAnnouncements } from '../../access/key-announcements.js';
import { sharedWatch } from '../../shared-watch.js';
import { createGroupCommit } from './sqlite-group-commit.js';
import { whileLockBusy, writeLockTrier } from './sqlite-write-lock.js';
import { startCheckpointer } from './sqlite-checkpointer.js';

/** How long a write waits for another connection's write lock (GATEHOUSE_SQLITE_BUSY_TIMEOUT_MS's default). */
const BUSY_TIMEOUT_MS = 250;

/** The log's size, in pages, past which the serving connection checkpoints (see open). */
const WAL_PAGES = 4000;

function open(path: string, options: StoreOptions): SqliteDatabase.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const timeout = options.sqliteBusyTimeoutMs ?? BUSY_TIMEOUT_MS;
  let database = new SqliteDatabase(path, { timeout });
  // The connection that dropped the samples keeps those it had loaded: a fresh one reads the schema without them.
  if (path !== ':memory:' && droppedValueSamples(database)) {
    database.close();
    database = new SqliteDatabase(path, { timeout });
  }
  if (path !== ':memory:') {
    database.pragma('journal_mode = WAL');
    // Checkpoint every 4,000 WAL pages (16 MiB) rather than SQLite's 1,000: the index leaves that every validation
    // touches (each gym's newest entries) are written back once per checkpoint however often they changed, so
    // fewer checkpoints write far fewer pages. Measured in alternating rounds: +20% req/s at full load, and at a
    // fixed 2,000 req/s with 2M check-ins the mean 8.95 → 6.92 ms and p99 112 → 28 ms. (Turning automatic
    // checkpoints off was slower: an unbounded WAL makes every read search a growing index.)
    // With a checkpointing thread, the connection checkpoints only past four times that, should the thread lag.
    database.pragma(
      `wal_autocheckpoint = ${options.sqliteCheckpointThread === true ? 4 * WAL_PAGES : WAL_PAGES}`,
    );
  }
  database.pragma(`synchronous = ${options.sqliteSynchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  database.pragma('foreign_keys = ON');
  // Deleted and overwritten content is zeroed, not left in free space: an erased member's details must not survive
  // in the file. Measured in alternating bench rounds (README: "Members' data").
  database.pragma('secure_delete = ON');
  return database;
}

const hasValueSamples = (database: SqliteDatabase.Database): boolean =>
  database.prepare("select 1 from sqlite_master where name = 'sqlite_stat4'").get() !== undefined;

/**
 * Drops the per-value samples an ANALYZE leaves in `sqlite_stat4` (better-sqlite3 builds SQLite with STAT4), if any;
 * true when it did. While they are there, SQLite compiles a statement again each time a parameter compared with an
 * indexed column takes a new value, in case the value calls for another plan: every keyed lookup of every request
 * paid a compile (a counter row's lookup 12 µs instead of 4). gatehouse's statements are keyed lookups whose plan no
 * value changes; the row counts in `sqlite_stat1` stay. Dropping the table changes the schema: every other
 * connection, of any process, reloads it without them. A database this process may not write (read-only, or busy
 * past the timeout) keeps them.
 */
function droppedValueSamples(database: SqliteDatabase.Database): boolean {
  if (!hasValueSamples(database)) return false;
  try {
    database.exec('drop table if exists sqlite_stat4');
    return true;
  } catch (error) {
    if (!(error instanceof SqliteDatabase.SqliteError)) throw error;
    return false;
  }
}

/** Statements kept prepared, by their text: enough for every query the app builds, bounded for `in (…)` lists. */
const KEPT_STATEMENTS = 1_000;

/**
 * The connection as the query builder sees it, with its statements kept prepared: Kysely prepares every query it
 * runs, and preparing costs more than running most of them. A statement is reused only once the last use has
 * finished (the driver runs each to completion at once; the app never streams).
 */
function keepingStatements(database: SqliteDatabase.Database) {
  const kept = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => database.close(),
    prepare(text: string) {
      let statement = kept.get(text);
      if (statement === undefined) {
        statement = database.prepare(text);
        if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value ?? '');
        kept.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * An ANALYZE run by another connection while this process serves (an operator's, or `PRAGMA optimize`) brings the
 * samples back. Whenever another connection has committed, this one looks for them, and drops them from a
 * connection of its own, opened for that: this one then reloads the schema without them, as every other does.
 * Never while this connection is in a transaction (the dropping one would wait for it); a busy file is tried again
 * at the next change.
 */
function dropSamplesAnalysedLater(database: SqliteDatabase.Database, path: string): () => void {
  return watchDataVersion(database, () => {
    if (database.inTransaction || !hasValueSamples(database)) return;
    const dropping = new SqliteDatabase(path, { timeout: 0 });
    try {
      droppedValueSamples(dropping);
    } finally {
      dropping.close();
    }
  });
}

/** SQLite through better-sqlite3: one connection, WAL, synchronous=FULL unless told otherwise. */
export function createSqliteStore(options: StoreOptions): Store {
  const path = options.databaseUrl.slice('sqlite:'.length);
  const database = open(path, options);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: keepingStatements(database) }) });
  const unwatch: (() => void)[] = path === ':memory:' ? [] : [dropSamplesAnalysedLater(database, path)];
  const stopCheckpoints =
    path !== ':memory:' && options.sqliteCheckpointThread === true
      ? startCheckpointer(path, () => database.open && database.pragma(`wal_autocheckpoint = ${WAL_PAGES}`))
      : undefined;
  const busyTimeoutMs = options.sqliteBusyTimeoutMs ?? BUSY_TIMEOUT_MS;
  const tryBegin = writeLockTrier(database, busyTimeoutMs);
  // synchronous=NORMAL for one commit: the WAL is not synced, the next FULL commit syncs it with its own frames.
  const fullSync = options.sqliteSynchronous !== 'normal';
  /**
   * A write transaction on the serving connection. Its BEGIN IMMEDIATE does not wait inside SQLite for another
   * process's write lock (that would hold the event loop): it tries again a few milliseconds later
   * (sqlite-write-lock.ts), letting go of the connection in between, and fails with the busy error once it has
   * waited the busy timeout.
   */
  async function writing<T>(work: (trx: Kysely<Database>) => Promise<T>, flush: boolean): Promise<T> {
    const started = performance.now();
    let done: { readonly value: T } | undefined;
    await whileLockBusy(
      () =>
        db.connection().execute(async (connection) => {
          const unsynced = !flush && fullSync;
          if (unsynced) database.pragma('synchronous = NORMAL');
          try {
            const busy = tryBegin();
            if (busy === undefined) done = { value: await inBegunTransaction(connection, work) };
            return busy;
          } finally {
            if (unsynced) database.pragma('synchronous = FULL');
          }
        }),
      (busy) => {
        if (performance.now() - started >= busyTimeoutMs) throw busy;
        return true;
      },
    );
    if (done === undefined) throw new Error('a write transaction ended without its result');
    return done.value;
  }
  const inBegunTransaction = async <T>(
    connection: Kysely<Database>,
    work: (trx: Kysely<Database>) => Promise<T>,
  ) => {
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      if (database.inTransaction) await sql`rollback`.execute(connection);
      throw error;
    }
  };
  const write: Store['write'] = (work) => writing(work, true);
  const writeWithoutFlush: Store['writeWithoutFlush'] = (work) => writing(work, false);
  const serialize: Store['serialize'] = () => Promise.resolve();
  const groupCommit =
    options.sqliteGroupCommit === false ? undefined : createGroupCommit(database, db, busyTimeoutMs);
  return {
    dialect: 'sqlite',
    db,
    write,
    writeWithoutFlush,
    serialize,
    apply: (kind, request) =>
      groupCommit === undefined || !isBatched(kind)
        ? runChange({ write, serialize, dialect: 'sqlite' }, kind, request)
        : groupCommit.apply(kind, request as ChangeRequest<typeof kind>),
    watchKeyChanges: sharedWatch((notify) => unwatch.push(watchKeyAnnouncements(database, db, notify))),
    announceKeyChange: (trx) => bumpKeyAnnouncements(trx),
    truncateWriteAheadLog: () =>
      db.connection().execute(() => {
        const [result] = database.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
        return Promise.resolve(result?.busy === 0);
      }),
    // A copy of the file continues as it is: its positions are rowids kept in the file itself.
    migrate: async () => {
      await migrateToLatest(db);
      return [];
    },
    isReady: () => isMigrated(db),
    close: async () => {
      for (const stop of unwatch) stop();
      await stopCheckpoints?.();
      await db.destroy();
    },
  };
}

const UNAVAILABLE = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY', 'SQLITE_LOCKED']);

export function isSqliteUnavailable(code: string): boolean {
  return UNAVAILABLE.has(code);
}
