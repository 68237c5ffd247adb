import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { ChangeKind, ChangeOutcome, ChangeRequest } from '../domain/changes.js';

export type Dialect = 'sqlite' | 'postgres';

/** A write transaction of `store.write`, as services hand it to repositories. */
export type StoreTransaction = Kysely<Database>;

/** The database behind gatehouse, whichever dialect: built by createStore (src/store/create-store.ts). */
export interface Store {
  readonly dialect: Dialect;
  readonly db: Kysely<Database>;
  /**
   * Runs `work` in one write transaction and commits it. On SQLite it begins IMMEDIATE, so concurrent writers
   * (the CLI, another process) queue on the busy timeout instead of failing a lock upgrade half-way.
   */
  write<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * As `write`, but its commit does not wait for the disk (SQLite: synchronous=NORMAL for this transaction;
   * PostgreSQL: synchronous_commit off): the next durable commit carries it to disk. A crash of the process or the
   * server keeps it; a power cut may lose it, never corrupts anything. For bookkeeping that is safe to redo — the
   * webhook delivery loop's rounds: a lost round sends its deliveries again, with the same webhook-id.
   */
  writeWithoutFlush<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * Inside `write`: serialises every transaction that names the same key until commit (an advisory lock on
   * PostgreSQL; SQLite's single writer already does).
   */
  serialize(trx: Kysely<Database>, key: string): Promise<void>;
  /**
   * Calls `onChange` whenever another process (or connection) may have revoked a key: PostgreSQL LISTEN/NOTIFY,
   * or, on SQLite, a count of announced changes looked at after each commit of another connection
   * (`data_version`). Also called when the feed itself is interrupted, since changes may be missed.
   */
  watchKeyChanges(onChange: () => void): void;
  /** Inside `write`: tells every other process, on commit, that keys changed (NOTIFY; SQLite bumps the count). */
  announceKeyChange(trx: Kysely<Database>): Promise<void>;
  /**
   * Carries out one state change atomically: reads what it is decided from (under the member's lock), lets the
   * domain decide (src/domain/changes.ts), writes what the decision says, events included, and commits before it
   * answers. Dialects batch the changes that arrive together where they can; each change's failure stays its own.
   */
  apply<K extends ChangeKind>(kind: K, request: ChangeRequest<K>): Promise<ChangeOutcome<K>>;
  /**
   * After an erasure, on SQLite: copies the write-ahead log into the database file and empties it, so the erased
   * bytes survive in neither (deleted content is zeroed: `secure_delete`). False when a reader in another process
   * kept part of the log, which then empties at a later checkpoint. PostgreSQL's WAL is its operator's: false.
   */
  truncateWriteAheadLog(): Promise<boolean>;
  /**
   * Applies pending migrations under the migrator's lock; then, on PostgreSQL, makes a database restored into another
   * server continue after its restored rows (src/store/dialects/postgres/restored-database.ts). Answers a line for
   * the log for each thing a restore made it do, and none otherwise.
   */
  migrate(): Promise<string[]>;
  /** True when the store answers and every migration is applied. */
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

/** Settings every dialect reads from; unset ones take the defaults documented in the README. */
export interface StoreOptions {
  readonly databaseUrl: string;
  readonly sqliteSynchronous?: 'full' | 'normal';
  readonly sqliteBusyTimeoutMs?: number;
  /** Group commit for every state change on SQLite (default true); false runs the query-builder unit of work. */
  readonly sqliteGroupCommit?: boolean;
  /**
   * SQLite files: checkpoints taken by a thread of their own rather than by the commit that fills the log (a
   * serving process's choice; a short-lived command keeps SQLite's own).
   */
  readonly sqliteCheckpointThread?: boolean;
  /** Batched state changes on PostgreSQL (default true); false runs the query-builder unit of work. */
  readonly pgBatchedChanges?: boolean;
  readonly pgPoolSize?: number;
  readonly pgConnectTimeoutMs?: number;
  readonly pgStatementTimeoutMs?: number;
  readonly pgIdleTimeoutMs?: number;
  /** Errors of idle pooled connections (a restarted server): reported here, never thrown. */
  readonly onBackgroundError?: (error: Error) => void;
}
