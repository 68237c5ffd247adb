import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openStore } from '../../fixtures/processes/cli.js';
import { useGatehouseProcesses, type GatehouseProcess } from '../../fixtures/processes/gatehouse-process.js';
import { createPgSchema, pgAvailable } from '../../fixtures/postgres.js';

interface Database {
  readonly url: string;
  drop(): Promise<void>;
}
async function sqliteDatabase(): Promise<Database> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-settings-'));
  return {
    url: `sqlite:${join(dir, 'gatehouse.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
const databases: [string, () => Promise<Database>][] = [['sqlite', sqliteDatabase]];
if (pgAvailable) databases.push(['postgres', createPgSchema]);

const SCHEDULE = { GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '5,300,1800' };
const OTHER_SCHEDULE = { GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1,2' };
const WARNING =
  'delivery settings differ from another gatehouse process on this database: ' +
  'GATEHOUSE_WEBHOOK_RETRY_SCHEDULE here 1,2, elsewhere 5,300,1800. ' +
  'Any process may send any delivery: give every process the same ones';

const warnings = (server: GatehouseProcess) =>
  server.logs().filter((line) => typeof line.level === 'number' && line.level >= 40);

describe.each(databases)(
  'serve processes on one database compare their delivery settings (%s)',
  (_name, open) => {
    const start = useGatehouseProcesses();
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    test('when a second process starts with another retry schedule, then it alone says so in one warning line; stopped, its settings leave the database, and a third process like the first says nothing', async () => {
      const database = await open();
      cleanups.push(() => database.drop());
      const env = { GATEHOUSE_DATABASE_URL: database.url };
      const first = await start({ ...env, ...SCHEDULE });

      const second = await start({ ...env, ...OTHER_SCHEDULE });

      // Logged before "migrations applied", which the start waits for.
      expect(warnings(second).map((line) => line.msg)).toEqual([WARNING]);
      const store = openStore(database.url);
      cleanups.push(() => store.close());
      const rows = () =>
        store.db
          .selectFrom('process_settings')
          .select(['fingerprint', 'settings'])
          .orderBy('started_at')
          .execute();
      const both = await rows();
      expect(both.map((row) => JSON.parse(row.settings) as unknown)).toEqual([
        {
          GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '5,300,1800',
          GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'false',
          GATEHOUSE_WEBHOOK_ENDPOINTS_PER_PARTNER: '10',
          GATEHOUSE_EVENT_RETENTION_DAYS: '30',
          GATEHOUSE_SECRET_KEY: '(unset)',
        },
        {
          GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1,2',
          GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'false',
          GATEHOUSE_WEBHOOK_ENDPOINTS_PER_PARTNER: '10',
          GATEHOUSE_EVENT_RETENTION_DAYS: '30',
          GATEHOUSE_SECRET_KEY: '(unset)',
        },
      ]);
      expect(both[0]?.fingerprint).not.toBe(both[1]?.fingerprint);

      await second.stop();
      expect(await rows()).toEqual([both[0]]);
      const third = await start({ ...env, ...SCHEDULE });
      expect(await rows()).toHaveLength(2);
      await Promise.all([first.stop(), third.stop()]);

      expect([...warnings(first), ...warnings(third)]).toEqual([]);
      expect(await rows()).toEqual([]);
    });
  },
);
