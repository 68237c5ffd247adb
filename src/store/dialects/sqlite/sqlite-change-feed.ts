import type SqliteDatabase from 'better-sqlite3';

const POLL_MS = 250;

/**
 * SQLite's `data_version` changes when another connection (the CLI, another process) commits. Polled on a timer
 * off the request path; any change means keys may have changed.
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
