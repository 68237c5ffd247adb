import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/store/database.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { dialects, useApp, type TestApp } from '../fixtures/test-app.js';

/**
 * The delivery loop's rounds commit without waiting for the disk. What they write is committed like any other
 * write, and only that transaction is relaxed: the next ones are durable again (SQLite synchronous=FULL,
 * PostgreSQL synchronous_commit on).
 */
describe.each(dialects)('a write that does not wait for the disk (%s)', (dialect) => {
  let t: TestApp;
  const shared = useApp({ dialect });
  beforeAll(() => {
    t = shared();
  });

  /** How durable a commit is now, as the connection (or transaction) `db` sees it. */
  const durability = async (db: Kysely<Database> = t.store.db) => {
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      return String(rows[0]?.synchronous);
    }
    const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db);
    return rows[0]?.synchronous_commit;
  };
  const durable = dialect === 'sqlite' ? '2' : 'on';
  const relaxed = dialect === 'sqlite' ? '1' : 'off';

  test('when it commits, then its rows are there, it ran relaxed, and the next write is durable again', async () => {
    const before = await t.store.db
      .selectFrom('webhook_dispatch')
      .select('position')
      .executeTakeFirstOrThrow();
    const inside = await t.store.writeWithoutFlush(async (trx) => {
      await trx
        .updateTable('webhook_dispatch')
        .set({ position: Number(before.position) + 5 })
        .where('id', '=', 1)
        .execute();
      return durability(trx);
    });
    expect(inside).toBe(relaxed);
    expect(await durability()).toBe(durable);
    expect(await t.store.write((trx) => durability(trx))).toBe(durable);
    const after = await t.store.db.selectFrom('webhook_dispatch').selectAll().execute();
    expect(after.map((row) => ({ ...row, position: Number(row.position) }))).toEqual([
      { id: 1, position: Number(before.position) + 5, purged_position: expect.any(Number) as number },
    ]);
  });

  test('when its work fails, then nothing is kept and the next write is durable', async () => {
    const before = await t.store.db.selectFrom('webhook_dispatch').selectAll().execute();
    await expect(
      t.store.writeWithoutFlush(async (trx) => {
        await trx.updateTable('webhook_dispatch').set({ position: 999_999 }).where('id', '=', 1).execute();
        throw new Error('round failed');
      }),
    ).rejects.toThrow('round failed');
    expect(await t.store.db.selectFrom('webhook_dispatch').selectAll().execute()).toEqual(before);
    expect(await durability()).toBe(durable);
  });
});
