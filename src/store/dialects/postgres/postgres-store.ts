import { Kysely, sql } from 'kysely';
import pg from 'pg';
import {
  isBatched,
  type BatchedChangeKind,
  type ChangeOutcome,
  type ChangeRequest,
} from '../../../domain/changes.js';
import type { Database } from '../../database.js';
import { isMigrated, migrateToLatest } from '../../migrator.js';
import type { Store, StoreOptions } from '../../store.js';
import { runChange } from '../../changes/unit-of-work.js';
import { createBatchedChanges } from './postgres-batched-changes.js';
import { sharedWatch } from '../../shared-watch.js';
import { KEY_CHANNEL, listenForKeyChanges } from './postgres-change-feed.js';
import { CurrentSchemaPostgresDialect } from './postgres-introspector.js';
import { continueAfterRestore } from './restored-database.js';

const INT8_OID = 20;

/** bigint columns (ids, epoch-millisecond times, cents) stay below 2^53: read them as numbers. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** PostgreSQL through a node-postgres pool; every invariant is held by the database, none in memory. */
export function createPostgresStore(options: StoreOptions): Store {
  const statementTimeout = options.pgStatementTimeoutMs ?? 5000;
  const poolSize = options.pgPoolSize ?? 10;
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: poolSize,
    connectionTimeoutMillis: options.pgConnectTimeoutMs ?? 2000,
    idleTimeoutMillis: options.pgIdleTimeoutMs ?? 10_000,
    statement_timeout: statementTimeout,
    // A paused or unreachable server must not hang a request: the client gives up shortly after the server would.
    query_timeout: statementTimeout + 1000,
    types,
  });
  // An idle connection that dies (server restart, pg_terminate_backend) must not crash the process.
  pool.on('error', (error) => options.onBackgroundError?.(error));
  // The pool listens for errors only on idle clients. A checked-out client whose connection dies (a restart,
  // pg_terminate_backend mid-request) emits 'error' too; unheard, that would crash the process. Its own query
  // fails with that error (→ 503) and the pool drops it on release, so there is nothing more to do here.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  const unlisten: (() => Promise<void>)[] = [];
  const write: Store['write'] = (work) => db.transaction().execute(work);
  const writeWithoutFlush: Store['writeWithoutFlush'] = (work) =>
    db.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      return work(trx);
    });
  const serialize: Store['serialize'] = async (trx, key) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  };
  const builder: Store['apply'] = (kind, request) =>
    runChange({ write, serialize, dialect: 'postgres' }, kind, request);
  const batched =
    options.pgBatchedChanges === false
      ? undefined
      : createBatchedChanges({
          pool,
          fallback: builder,
          isUnavailable: (error) =>
            error instanceof Error && isPostgresUnavailable(codeOf(error), error.message),
          // One connection always stays free for everything else.
          batchesInFlight: Math.min(2, Math.max(1, poolSize - 1)),
        });

  /** A change joins a batch on the member·gym it locks; a cancellation's is its check-in's, read first. */
  async function batch<K extends BatchedChangeKind>(
    changes: NonNullable<typeof batched>,
    kind: K,
    request: ChangeRequest<K>,
  ): Promise<ChangeOutcome<K>> {
    if (kind !== 'cancel-checkin') return changes.apply(kind, request, request as ChangeRequest<'validate'>);
    const { checkinId } = request as ChangeRequest<'cancel-checkin'>;
    // A check-in's gym and member never change: read outside the batch, they still hold inside it.
    const member = await db
      .selectFrom('checkins')
      .select(['gym_id as gymId', 'platform_id as platformId'])
      .where('id', '=', checkinId)
      .executeTakeFirst();
    return member === undefined ? builder(kind, request) : changes.apply(kind, request, member);
  }

  return {
    dialect: 'postgres',
    db,
    write,
    writeWithoutFlush,
    serialize,
    apply: (kind, request) =>
      batched === undefined || !isBatched(kind)
        ? builder(kind, request)
        : batch(batched, kind, request as ChangeRequest<typeof kind>),
    watchKeyChanges: sharedWatch((notify) =>
      unlisten.push(
        listenForKeyChanges(options.databaseUrl, options.pgConnectTimeoutMs ?? 2000, notify, (error) =>
          options.onBackgroundError?.(error),
        ),
      ),
    ),
    announceKeyChange: async (trx) => {
      await sql`select pg_notify(${KEY_CHANNEL}, '')`.execute(trx);
    },
    truncateWriteAheadLog: () => Promise.resolve(false),
    migrate: async () => {
      await migrateToLatest(db);
      return continueAfterRestore(db);
    },
    isReady: () => isMigrated(db),
    close: async () => {
      await Promise.all(unlisten.map((stop) => stop()));
      await db.destroy();
    },
  };
}

function codeOf(error: Error): string | undefined {
  const { code } = error as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
}

/**
 * SQLSTATE classes and codes that mean "the server cannot serve now", not "the request is wrong". 25006
 * (read_only_sql_transaction): the address reached a standby still in recovery, as in a failover before the
 * promotion (README, "High availability on PostgreSQL").
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57014', '53300', '40001', '40P01', '25006']);
const UNAVAILABLE_MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|query read timeout|connection refused|server closed the connection|Client has encountered a connection error/i;

export function isPostgresUnavailable(code: string | undefined, message: string): boolean {
  if (code !== undefined && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ETIMEDOUT' || code === 'EPIPE')
    return true;
  return UNAVAILABLE_MESSAGES.test(message);
}
