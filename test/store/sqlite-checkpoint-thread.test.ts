import SqliteDatabase from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, onTestFinished, test } from 'vitest';
import { CHECKPOINT_INTERVAL_MS } from '../../src/store/dialects/sqlite/sqlite-checkpointer.js';
import { createStore } from '../../src/store/create-store.js';

/** A SQLite store on a file of its own, with 100 rows committed in a table of the test's. */
async function storeWithRows(checkpointThread: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-checkpoint-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'gatehouse.db');
  const store = createStore({ databaseUrl: `sqlite:${path}`, sqliteCheckpointThread: checkpointThread });
  await store.write(async (trx) => {
    await sql`create table visits (n integer primary key)`.execute(trx);
    for (let n = 1; n <= 100; n++) await sql`insert into visits (n) values (${n})`.execute(trx);
  });
  return { store, path, dir };
}

/** The rows the database file itself holds, without its log: what checkpoints have copied into it. */
function rowsInTheFileAlone(path: string, dir: string): number | 'no table' {
  const copy = join(dir, `copy-${Date.now()}.db`);
  copyFileSync(path, copy);
  const database = new SqliteDatabase(copy, { readonly: true });
  try {
    const table = database.prepare("select 1 from sqlite_master where name = 'visits'").get();
    return table === undefined
      ? 'no table'
      : (database.prepare('select count(*) from visits').pluck().get() as number);
  } finally {
    database.close();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SQLite checkpoints on a thread of their own', () => {
  test('when a serving store commits, then its rows reach the database file within a few intervals, none lost, and closing ends the thread', async () => {
    const { store, path, dir } = await storeWithRows(true);
    let held = rowsInTheFileAlone(path, dir);
    for (let waited = 0; held !== 100 && waited < 5000; waited += CHECKPOINT_INTERVAL_MS) {
      await pause(CHECKPOINT_INTERVAL_MS);
      held = rowsInTheFileAlone(path, dir);
    }
    expect(held).toBe(100);
    const live = await sql<{ count: number }>`select count(*) as count from visits`.execute(store.db);
    expect(live.rows).toEqual([{ count: 100 }]);

    await store.close();
    // The log is removed by the last connection to close: the thread's connection closed before the store's.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  test('when a store without the thread commits less than its threshold, then the rows stay in the log until it closes', async () => {
    const { store, path, dir } = await storeWithRows(false);
    await pause(4 * CHECKPOINT_INTERVAL_MS);
    expect(rowsInTheFileAlone(path, dir)).toBe('no table');
    await store.close();
    expect(rowsInTheFileAlone(path, dir)).toBe(100);
  });
});
