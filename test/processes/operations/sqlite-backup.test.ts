import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { expectLedgerInvariants } from '../../fixtures/store-state.js';
import { gatehouse } from '../../fixtures/processes/cli.js';
import { useServeProcesses, useTempDir } from '../../fixtures/processes/serve-process.js';
import { arrangeSqliteStorm, useOperators } from '../../fixtures/processes/arrange.js';
import { send, statusOf, validate } from '../../fixtures/processes/http.js';

const CHECKINS = 240;
const WORKERS = 8;

function integrity(path: string): unknown {
  const database = new SqliteDatabase(path, { readonly: true });
  try {
    return database.pragma('integrity_check', { simple: true });
  } finally {
    database.close();
  }
}

describe('gatehouse backup during a SQLite validate storm, then gatehouse restore', () => {
  const dir = useTempDir('gatehouse-backup-');
  const start = useServeProcesses();
  const operatorOn = useOperators();

  test('when a backup is taken while validates are answered, then its integrity check is ok, every 200 answered before the backup began is in it, and restore puts it back', async () => {
    const { path, env, arranged, checkinOf } = await arrangeSqliteStorm(dir(), CHECKINS);
    const server = await start(env);

    // The storm: each 200 noted with the instant its answer arrived; the backup starts a third of the way in.
    const queue = [...checkinOf.keys()];
    const answered: { member: string; at: number }[] = [];
    let backup: Promise<Awaited<ReturnType<typeof gatehouse>>> | undefined;
    let backupBegan = Number.POSITIVE_INFINITY;
    const backupFile = join(dir(), 'backup.db');
    const worker = async () => {
      for (let member = queue.shift(); member !== undefined; member = queue.shift()) {
        const outcome = await validate(server.baseUrl, arranged.headers, member, 10_000);
        if (statusOf(outcome) === 200) answered.push({ member, at: performance.now() });
        if (backup === undefined && answered.length >= CHECKINS / 3) {
          backupBegan = performance.now();
          backup = gatehouse(['backup', backupFile], env);
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    const made = await backup;

    expect(made).toEqual({
      code: 0,
      stdout: expect.stringMatching(
        new RegExp(`^backup of ${path} written to ${backupFile} \\(\\d+ pages, integrity ok\\)\\n$`),
      ) as unknown,
      stderr: '',
    });
    expect(answered).toHaveLength(CHECKINS);
    expect(integrity(backupFile)).toBe('ok');
    const copy = new SqliteDatabase(backupFile, { readonly: true });
    const paidInCopy = new Set(
      (copy.prepare('select checkin_id from transactions').all() as { checkin_id: number }[]).map(
        (row) => row.checkin_id,
      ),
    );
    copy.close();
    const before = answered.filter((answer) => answer.at < backupBegan);
    expect(before.length).toBeGreaterThanOrEqual(CHECKINS / 3);
    expect(before.filter((answer) => !paidInCopy.has(checkinOf.get(answer.member)!))).toEqual([]);

    // Restore is refused while the server holds the database, then puts the copy back once it has stopped.
    const refused = await gatehouse(['restore', backupFile], env);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: `gatehouse: ${path} is in use by a running gatehouse process: stop it before restoring\n`,
    });
    server.kill('SIGTERM');
    await server.exited;
    const restored = await gatehouse(['restore', backupFile], env);
    expect(restored).toEqual({ code: 0, stdout: `${path} restored from ${backupFile}\n`, stderr: '' });
    // The old database's write-ahead log went with it: nothing of it can be replayed over the copy.
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(integrity(path)).toBe('ok');

    // The restored database serves: the ledger is the copy's, one transaction per validated check-in, none lost.
    const again = await start(env);
    expect(statusOf(await send(again.baseUrl, 'GET', '/ready'))).toBe(200);
    const operator = operatorOn(env.GATEHOUSE_DATABASE_URL);
    const paid = await operator.store.db.selectFrom('transactions').select('checkin_id').execute();
    expect(new Set(paid.map((row) => row.checkin_id))).toEqual(paidInCopy);
    await expectLedgerInvariants(operator.store);
  });

  test('when the backup file exists, or the database is PostgreSQL, or the file to restore is not a gatehouse backup, then the command refuses and changes nothing', async () => {
    const path = join(dir(), 'gatehouse.db');
    const env = { GATEHOUSE_DATABASE_URL: `sqlite:${path}` };
    expect((await gatehouse(['migrate'], env)).code).toBe(0);
    const existing = join(dir(), 'taken.db');
    writeFileSync(existing, 'keep me');
    const junk = join(dir(), 'junk.db');
    writeFileSync(junk, 'not a database');

    expect(await gatehouse(['backup', existing], env)).toEqual({
      code: 1,
      stdout: '',
      stderr: `gatehouse: ${existing} exists: choose a new file (a backup never overwrites one)\n`,
    });
    expect(
      await gatehouse(['backup', join(dir(), 'x.db')], {
        GATEHOUSE_DATABASE_URL: 'postgres://u@127.0.0.1:1/x',
      }),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'gatehouse: backup works on a SQLite file; on PostgreSQL use pg_dump and pg_restore (README: "Backups and upgrades")\n',
    });
    expect(await gatehouse(['restore', junk], env)).toEqual({
      code: 1,
      stdout: '',
      stderr: `gatehouse: ${junk} is not a sound backup (not a SQLite database)\n`,
    });
    expect(integrity(path)).toBe('ok');
  });
});
