import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpointing thread copies what the log holds back into the database file. */
export const CHECKPOINT_INTERVAL_MS = 250;

/**
 * The thread's code. It opens a connection of its own and, on a timer, runs a passive checkpoint: it copies the
 * committed pages from the log into the database file and syncs that file, without taking the write lock, so
 * writers (this process's and any other's) go on meanwhile. It answers a message by stopping.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const database = new Database(workerData.path, { timeout: 0 });
const timer = setInterval(() => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy or locked file is tried again at the next tick.
  }
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  database.close();
  parentPort.close();
});
`;

/**
 * Checkpoints of a SQLite file taken off the event loop: a checkpoint writes pages back into the database file and
 * syncs it (tens of milliseconds at full load), which the serving connection would otherwise do inside the commit
 * that crossed the threshold, holding every request meanwhile. The serving connection keeps a higher threshold of
 * its own, so the log stays bounded if the thread ever falls behind.
 */
export function startCheckpointer(path: string, onFailure: () => void): () => Promise<void> {
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: {
      module: createRequire(import.meta.url).resolve('better-sqlite3'),
      path,
      intervalMs: CHECKPOINT_INTERVAL_MS,
    },
  });
  worker.unref();
  let running = true;
  const exited = new Promise((resolve) => worker.once('exit', resolve)).then(() => {
    running = false;
  });
  // A thread that could not start (or died) hands checkpoints back to the serving connection.
  worker.once('error', () => {
    if (running) onFailure();
  });
  return async () => {
    // Referenced while it stops: a process with nothing else left to do (a start that failed) would otherwise end
    // here with the stop unfinished, its exit code and last words unwritten.
    if (running) {
      worker.ref();
      worker.postMessage('stop');
    }
    await exited;
  };
}
