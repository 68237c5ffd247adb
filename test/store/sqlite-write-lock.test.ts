import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import { describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { systemClock } from '../../src/domain/clock.js';
import { createServices } from '../../src/services/index.js';
import { createStore } from '../../src/store/create-store.js';
import { arrangePartner, platformId } from '../fixtures/factories.js';

const BUSY_TIMEOUT_MS = 1_000;

/** A migrated SQLite file with a partner's gym, served by a store whose changes go through the group commit. */
async function servedFile() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-write-lock-'));
  const path = join(dir, 'gatehouse.db');
  const config = loadConfig({
    GATEHOUSE_DATABASE_URL: `sqlite:${path}`,
    GATEHOUSE_SQLITE_BUSY_TIMEOUT_MS: String(BUSY_TIMEOUT_MS),
  });
  const store = createStore(config);
  onTestFinished(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await store.migrate();
  const services = createServices({ store, clock: systemClock, config });
  const arranged = await arrangePartner(services);
  return { path, store, services, gymId: arranged.gym.id };
}

/** Another process's connection to the file, holding its write lock until it commits. */
function lockFile(path: string) {
  const locker = new SqliteDatabase(path);
  locker.exec('BEGIN IMMEDIATE');
  onTestFinished(() => {
    if (locker.inTransaction) locker.exec('ROLLBACK');
    locker.close();
  });
  return () => locker.exec('COMMIT');
}

describe("SQLite's group commit and another process's write lock", () => {
  test('when another connection holds the write lock, then changes wait for it off the event loop, reads go on, and each change fails only once it has itself waited the busy timeout', async () => {
    const { path, store, services, gymId } = await servedFile();
    const early = platformId();
    const late = platformId();
    const outcome = (written: Promise<void>) =>
      written.then(
        () => 'written',
        (error: unknown) => (error as { code?: string }).code ?? String(error),
      );
    const release = lockFile(path);
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 10);
    onTestFinished(() => clearInterval(ticking));

    const first = outcome(services.customCodes.create({ gymId, platformId: early }, 'EARLY-1'));
    await sleep(BUSY_TIMEOUT_MS / 2);
    const second = outcome(services.customCodes.create({ gymId, platformId: late }, 'LATE-1'));
    // The connection is not held while the changes wait: a read answers at once.
    const read = await store.db.selectFrom('custom_codes').select('platform_id').execute();
    expect(read).toEqual([]);
    await sleep(BUSY_TIMEOUT_MS * 0.8);
    // The first has waited past the busy timeout; the second, queued half a timeout later, has not.
    release();

    expect(await first).toBe('SQLITE_BUSY');
    expect(await second).toBe('written');
    expect(ticks, 'the event loop ran its timers while the changes waited').toBeGreaterThan(40);
    const codes = await store.db.selectFrom('custom_codes').select(['platform_id', 'code']).execute();
    expect(codes).toEqual([{ platform_id: late, code: 'LATE-1' }]);
  });

  test('when another connection holds the write lock, then a query-builder transaction waits for it off the event loop: past the busy timeout it fails with the busy error and writes nothing; released in time, it commits', async () => {
    const { path, store, services } = await servedFile();
    const release = lockFile(path);
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 10);
    onTestFinished(() => clearInterval(ticking));
    const outcome = (written: Promise<unknown>) =>
      written.then(
        () => 'written',
        (error: unknown) => (error as { code?: string }).code ?? String(error),
      );

    const refused = await outcome(services.catalog.createPartner('Refused partner'));
    expect(refused).toBe('SQLITE_BUSY');
    expect(ticks, 'the event loop ran its timers while the transaction waited').toBeGreaterThan(40);

    const waiting = outcome(services.catalog.createPartner('Waiting partner'));
    await sleep(BUSY_TIMEOUT_MS / 2);
    release();
    expect(await waiting).toBe('written');
    const names = await store.db.selectFrom('partners').select('name').orderBy('id').execute();
    expect(names.map((row) => row.name)).not.toContain('Refused partner');
    expect(names.map((row) => row.name)).toContain('Waiting partner');
  });
});
