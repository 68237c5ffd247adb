import { setTimeout as sleep } from 'node:timers/promises';
import type SqliteDatabase from 'better-sqlite3';

/**
 * How long a write waits before it tries again for a write lock another process holds: 1 ms, then twice as long
 * each time up to 8 ms. SQLite's own busy handler would hold the event loop (every other request of the process
 * with it) for up to the busy timeout, in sleeps of up to 100 ms. Five processes on one file at full load (10
 * connections each, 2 cores), the group commit retrying so against the busy handler: p99 59-80 ms against 94-135,
 * none of the requests past the busy timeout against 50-70 in 10 s, the processes' shares even, and 5,600-5,700
 * validations a second against 6,000-6,150 (a busy handler that holds the event loop also lets the batches grow).
 * Retrying every 1 ms: p99 37-41 ms, 4,900-5,400 a second (smaller batches, more commits); up to 4 ms: p99 46-64 ms,
 * 5,500-5,700 a second.
 */
const LOCK_RETRY_MS = 1;
const LOCK_RETRY_MAX_MS = 8;

/**
 * Tries `attempt` (which takes the lock with a `writeLockTrier` and does its work, or returns the busy error) until
 * it is done: after each busy try, `keepWaiting` says whether to go on (it fails what has waited the busy timeout),
 * and the next try comes after 1, 2, 4, then every 8 ms, off the event loop.
 */
export async function whileLockBusy(
  attempt: () => Promise<Error | undefined>,
  keepWaiting: (busy: Error) => boolean,
): Promise<void> {
  for (let retry = 0; ; retry += 1) {
    const busy = await attempt();
    if (busy === undefined || !keepWaiting(busy)) return;
    await sleep(Math.min(LOCK_RETRY_MS * 2 ** retry, LOCK_RETRY_MAX_MS));
  }
}

/**
 * BEGIN IMMEDIATE without waiting, for a connection whose busy timeout is `busyTimeoutMs`: the function returns
 * undefined once the write lock is this connection's, SQLite's busy error while another connection holds it; any
 * other failure is thrown. The caller tries again through `whileLockBusy`.
 */
export function writeLockTrier(
  database: SqliteDatabase.Database,
  busyTimeoutMs: number,
): () => Error | undefined {
  let statements:
    | {
        noWaiting: SqliteDatabase.Statement;
        waiting: SqliteDatabase.Statement;
        begin: SqliteDatabase.Statement;
      }
    | undefined;
  return () => {
    statements ??= {
      noWaiting: database.prepare('pragma busy_timeout = 0'),
      waiting: database.prepare(`pragma busy_timeout = ${Math.trunc(busyTimeoutMs)}`),
      begin: database.prepare('begin immediate'),
    };
    statements.noWaiting.get();
    try {
      statements.begin.run();
      return undefined;
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY') === true) return error as Error;
      throw error;
    } finally {
      statements.waiting.get();
    }
  };
}
