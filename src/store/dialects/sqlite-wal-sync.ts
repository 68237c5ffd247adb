import { closeSync, fdatasync, openSync } from 'node:fs';
import { promisify } from 'node:util';

const dataSync = promisify(fdatasync);

/** Makes every commit so far durable: resolves once it is on disk. */
export type Durable = () => Promise<void>;

/**
 * `synchronous=FULL` without stopping the event loop. SQLite at FULL syncs the write-ahead log inside COMMIT, on
 * the calling thread: for better-sqlite3 that is the only JavaScript thread, so nothing else runs while the disk
 * works (about a sixth of the time under load). The database runs at `synchronous=NORMAL` instead (a commit writes
 * its WAL frames to the operating system, and checkpoints sync as at FULL), and this syncs the WAL on libuv's
 * thread pool after each commit; callers answer only once it resolves. fdatasync covers every byte written to the
 * file before it, so an acknowledged commit, and everything committed before it, survives a power cut as at FULL.
 *
 * The callers hold the only connection until it resolves, so nothing in this process (a request, a feed, the
 * webhook dispatcher) reads a commit before it is durable. The WAL file lives as long as a connection is open, so
 * the descriptor opened on first use stays valid.
 */
export function walSync(databasePath: string): { durable: Durable; close(): void } {
  let fd: number | undefined;
  return {
    async durable() {
      if (fd === undefined) {
        try {
          fd = openSync(`${databasePath}-wal`, 'r');
        } catch (error) {
          // No log yet: nothing was ever committed to it, so nothing waits to be made durable.
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
          throw error;
        }
      }
      await dataSync(fd);
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** Nothing to wait for: `GATEHOUSE_SQLITE_SYNCHRONOUS=normal` (chosen for speed), or an in-memory database. */
export const noWait: Durable = () => Promise.resolve();
