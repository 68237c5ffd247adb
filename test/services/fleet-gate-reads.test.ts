import pg from 'pg';
import { describe, expect, onTestFinished, test } from 'vitest';
import { pgAvailable } from '../fixtures/postgres.js';
import * as op from '../fixtures/operator-api.js';

/**
 * The plans' gate answers from memory for a heartbeat interval; when that answer expires, every creation in flight
 * needs it at once. On PostgreSQL the test holds the plans table locked from a connection of its own, so the gate's
 * reads wait where it can count them.
 */
describe.skipIf(!pgAvailable)(
  'the plans gate reads once for the requests that ask together (postgres)',
  () => {
    const app = op.operatorApp({ dialect: 'postgres', perTest: true });

    /** The test's connection, in a transaction that holds the app's plans table locked. */
    async function lockPlans(url: string) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      onTestFinished(() => client.end());
      await client.query('begin');
      await client.query('lock table plans in access exclusive mode');
      const waiting = async () =>
        Number(
          (
            await client.query<{ n: string }>(
              "select count(*) as n from pg_locks where relation = 'plans'::regclass and not granted",
            )
          ).rows[0]?.n,
        );
      /** Waits until `count` reads wait on the lock, then a little longer, and says how many wait. */
      const settled = async (count: number) => {
        for (let tries = 0; tries < 100 && (await waiting()) < count; tries++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        await new Promise((resolve) => setTimeout(resolve, 200));
        return waiting();
      };
      return { settled, release: () => client.query('commit') };
    }

    test('when 20 creations need the answer at once, then one read of the plans table is made, and all 20 get its answer', async () => {
      const t = app();
      await t.app.ready();
      const lock = await lockPlans(t.databaseUrl);

      const answers = Promise.all(Array.from({ length: 20 }, () => t.services.fleet.plansInEffect()));
      const waitingReads = await lock.settled(1);
      await lock.release();

      expect(waitingReads).toBe(1);
      expect(await answers).toEqual(Array.from({ length: 20 }, () => false));
    });

    test('when a plan is created here while a read is in flight, then the next request reads again rather than take the answer read before the plan', async () => {
      const t = app();
      await t.app.ready();
      const lock = await lockPlans(t.databaseUrl);

      const before = t.services.fleet.plansInEffect();
      expect(await lock.settled(1)).toBe(1);
      t.services.fleet.planCreated();
      const after = t.services.fleet.plansInEffect();
      const waitingReads = await lock.settled(2);
      await lock.release();

      expect(waitingReads).toBe(2);
      expect([await before, await after]).toEqual([false, false]);
    });
  },
);
