import SqliteDatabase from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, onTestFinished, test } from 'vitest';
import * as partner from '../fixtures/partner-api.js';
import { startTestApp, type TestApp } from '../fixtures/test-app.js';
import { TestClock } from '../fixtures/test-clock.js';

/** The statistics tables of a SQLite file and their row counts, read from a connection of the test's own. */
function statistics(url: string) {
  const database = new SqliteDatabase(url.slice('sqlite:'.length));
  try {
    const tables = database
      .prepare("select name from sqlite_master where name like 'sqlite_stat%' order by name")
      .pluck()
      .all() as string[];
    const stat1 = tables.includes('sqlite_stat1')
      ? database.prepare('select tbl, idx, stat from sqlite_stat1 order by tbl, idx').all()
      : [];
    return { tables, stat1 };
  } finally {
    database.close();
  }
}

/**
 * An ANALYZE run on gatehouse's SQLite file leaves per-value samples in sqlite_stat4, which make SQLite compile a
 * statement again whenever its parameters change: gatehouse drops them as it opens the file, and keeps the row
 * counts of sqlite_stat1.
 */
describe('SQLite statistics with per-value samples', () => {
  const opened: TestApp[] = [];
  afterEach(async () => {
    for (const t of opened.splice(0).reverse()) await t.close();
  });

  /** ANALYZE on a connection of the test's own; the statistics it left. */
  function analyse(url: string) {
    const analysed = new SqliteDatabase(url.slice('sqlite:'.length));
    analysed.exec('analyze');
    const samples = analysed.prepare('select count(*) from sqlite_stat4').pluck().get();
    analysed.close();
    expect(samples).toBeGreaterThan(0);
    return statistics(url);
  }

  test('when the file was analysed by hand while no process served, then a process that opens it drops the samples, keeps the row counts, and validates', async () => {
    const clock = new TestClock();
    const first = await startTestApp({ clock });
    opened.push(first);
    const { a, checkin } = await partner.arrangeWithCheckin(first);
    // A copy of the file that no process serves.
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-samples-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const copy = `sqlite:${join(dir, 'copy.db')}`;
    const source = new SqliteDatabase(first.databaseUrl.slice('sqlite:'.length));
    source.prepare('vacuum into ?').run(copy.slice('sqlite:'.length));
    source.close();
    const counted = analyse(copy);
    expect(counted.tables).toEqual(['sqlite_stat1', 'sqlite_stat4']);
    expect(counted.stat1.length).toBeGreaterThan(0);

    const second = await startTestApp({ clock, databaseUrl: copy });
    opened.push(second);

    expect(statistics(copy)).toEqual({ tables: ['sqlite_stat1'], stat1: counted.stat1 });
    const response = await partner.postValidate(second, a.headers, { platform_id: checkin.platformId });
    partner.expectValidatedNow(second, a, response, { platform_id: checkin.platformId });
  });

  test('when the file is analysed while a process serves, then that process drops the samples within a moment, keeps the row counts, and validates', async () => {
    const clock = new TestClock();
    const serving = await startTestApp({ clock });
    opened.push(serving);
    const { a, checkin } = await partner.arrangeWithCheckin(serving);

    const counted = analyse(serving.databaseUrl);

    expect(counted.stat1.length).toBeGreaterThan(0);
    await expect
      .poll(() => statistics(serving.databaseUrl), { timeout: 5_000 })
      .toEqual({ tables: ['sqlite_stat1'], stat1: counted.stat1 });
    const response = await partner.postValidate(serving, a.headers, { platform_id: checkin.platformId });
    partner.expectValidatedNow(serving, a, response, { platform_id: checkin.platformId });
  });

  test('when the file holds no samples, then opening it leaves its statistics as they are', async () => {
    const first = await startTestApp();
    opened.push(first);
    await partner.arrangeWithCheckin(first);
    const analysed = new SqliteDatabase(first.databaseUrl.slice('sqlite:'.length));
    analysed.exec('analyze; drop table sqlite_stat4');
    analysed.close();
    const before = statistics(first.databaseUrl);

    const second = await startTestApp({ databaseUrl: first.databaseUrl });
    opened.push(second);

    expect(before.tables).toEqual(['sqlite_stat1']);
    expect(statistics(first.databaseUrl)).toEqual(before);
  });
});
