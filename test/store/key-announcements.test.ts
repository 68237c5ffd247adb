import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { createStore } from '../../src/store/create-store.js';
import { migrateTo } from '../../src/store/migrator.js';
import { heartbeat, LIVE_WITHIN_MS } from '../../src/store/fleet/process-registry.js';
import { NEWEST_MIGRATION } from '../../src/services/release.js';
import type { Store } from '../../src/store/store.js';

/** SQLite's `data_version` is polled every 250 ms: four polls pass in this time. */
const QUIET_MS = 1_100;
const PREVIOUS_RELEASE = '0021-plan-versions-in-force';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two stores on one file, as two processes are: `watching` counts the key changes it hears of. */
async function twoConnections() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-announcements-'));
  const url = `sqlite:${join(dir, 'gatehouse.db')}`;
  const other = createStore({ databaseUrl: url });
  await other.migrate();
  const watching = createStore({ databaseUrl: url });
  onTestFinished(async () => {
    await Promise.all([watching.close(), other.close()]);
    rmSync(dir, { recursive: true, force: true });
  });
  let heard = 0;
  watching.watchKeyChanges(() => (heard += 1));
  // The watch reads the count as it starts: let that read happen before anything commits.
  await pause(50);
  return { other, watching, heard: () => heard };
}

/** A commit of another connection that announces nothing: a process of this release saying it is alive. */
const quietCommit = (store: Store, id = 'busy-process') =>
  store.write((trx) => heartbeat(trx, id, NEWEST_MIGRATION, Date.now()));

async function heardWithin(heard: () => number, count: number, withinMs = 5_000): Promise<number> {
  const until = Date.now() + withinMs;
  while (heard() < count && Date.now() < until) await pause(25);
  return heard();
}

describe('SQLite: the caches hear of announced key changes, not of every commit in the shared file', () => {
  test('when another connection commits without announcing, then nothing is heard; when it announces a change, then it is heard once', async () => {
    const { other, heard } = await twoConnections();

    await quietCommit(other);
    await pause(QUIET_MS);
    await quietCommit(other);
    await pause(QUIET_MS);
    expect(heard()).toBe(0);

    await other.write((trx) => other.announceKeyChange(trx));
    expect(await heardWithin(heard, 1)).toBe(1);
    const count = await other.db.selectFrom('key_announcements').selectAll().execute();
    expect(count).toEqual([{ id: 1, version: 1 }]);

    await pause(QUIET_MS);
    expect(heard()).toBe(1);
  });

  test('when an announcing transaction rolls back, then the count stays and nothing is heard', async () => {
    const { other, heard } = await twoConnections();

    const failed = other.write(async (trx) => {
      await other.announceKeyChange(trx);
      throw new Error('refused after announcing');
    });
    await expect(failed).rejects.toThrow('refused after announcing');
    await quietCommit(other);
    await pause(QUIET_MS);

    expect(heard()).toBe(0);
    expect(await other.db.selectFrom('key_announcements').selectAll().execute()).toEqual([
      { id: 1, version: 0 },
    ]);
  });

  test('when a live process runs the release before the count, then every commit is heard; once it is silent, quiet commits are not', async () => {
    const { other, heard } = await twoConnections();
    await other.write((trx) => heartbeat(trx, 'previous-release', PREVIOUS_RELEASE, Date.now()));
    expect(await heardWithin(heard, 1)).toBe(1);
    await quietCommit(other);
    expect(await heardWithin(heard, 2)).toBe(2);

    // Silent for longer than three heartbeats: taken as gone.
    await other.write((trx) =>
      heartbeat(trx, 'previous-release', PREVIOUS_RELEASE, Date.now() - LIVE_WITHIN_MS - 1_000),
    );
    await pause(QUIET_MS);
    const settled = heard();
    await quietCommit(other);
    await pause(QUIET_MS);
    expect(heard()).toBe(settled);
  });

  test('when the file is not migrated to the count, then every commit of another connection is heard, and announcing writes nothing', async () => {
    const { other, watching, heard } = await twoConnections();
    await migrateTo(other.db, PREVIOUS_RELEASE);
    expect(await heardWithin(heard, 1)).toBe(1);

    await quietCommit(other);
    expect(await heardWithin(heard, 2)).toBe(2);
    // A change that announces itself there commits as any other (the count it would move is not there yet).
    await other.write(async (trx) => {
      await heartbeat(trx, 'revoking-process', NEWEST_MIGRATION, Date.now());
      await other.announceKeyChange(trx);
    });
    expect(await heardWithin(heard, 3)).toBe(3);
    const tables = await watching.db.introspection.getTables();
    expect(tables.map((table) => table.name)).not.toContain('key_announcements');
  });
});
