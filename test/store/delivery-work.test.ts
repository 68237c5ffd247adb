import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Database } from '../../src/store/database.js';
import { deliveryWork, deliveryWorkQuery } from '../../src/store/webhooks/webhook-claim-repository.js';
import { dialects, useApp, type TestApp } from '../fixtures/test-app.js';

const EVENTS = 5_000;

/** The work is set up and read inside a transaction that is then rolled back: the app's own delivery loop sees none. */
class RolledBack extends Error {}

async function insideRolledBack(t: TestApp, work: (trx: Kysely<Database>) => Promise<void>): Promise<void> {
  await expect(
    t.store.db.transaction().execute(async (trx) => {
      await work(trx);
      throw new RolledBack();
    }),
  ).rejects.toBeInstanceOf(RolledBack);
}

/** `count` events after the greatest position, as a long log would hold them; the greatest position after them. */
async function appendEvents(trx: Kysely<Database>, count: number): Promise<number> {
  const before = await trx
    .selectFrom('events')
    .select((eb) => eb.fn.max('position').as('last'))
    .executeTakeFirst();
  const first = Number(before?.last ?? 0) + 1;
  const rows = Array.from({ length: count }, (_, index) => ({
    position: first + index,
    id: `evt_work_${first + index}`,
    type: 'checkin.created',
    occurred_at: 1_700_000_000_000,
    partner_id: 1,
    gym_id: 1,
    data: '{}',
  }));
  for (let start = 0; start < rows.length; start += 500) {
    await trx
      .insertInto('events')
      .values(rows.slice(start, start + 500))
      .execute();
  }
  return first + count - 1;
}

async function addEndpoint(trx: Kysely<Database>, fromPosition: number): Promise<void> {
  const partner = await trx
    .insertInto('partners')
    .values({ name: 'Work partner', created_at: 1_700_000_000_000 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('webhook_endpoints')
    .values({
      partner_id: partner.id,
      url: 'http://127.0.0.1:9/hooks',
      format: 'standard',
      timeout_ms: 5_000,
      secret: 'whsec_work',
      status: 'enabled',
      from_position: fromPosition,
      created_at: 1_700_000_000_000,
      updated_at: 1_700_000_000_000,
    })
    .execute();
}

const placeDispatcher = (trx: Kysely<Database>, position: number) =>
  trx.updateTable('webhook_dispatch').set({ position }).where('id', '=', 1).execute();

/**
 * The delivery loop's look before each round ("anything to fan out? anything due?") runs many times a second on every
 * process: it must answer from the ends of the event log's index, however long the log.
 */
describe.each(dialects)("the delivery loop's look for work (%s)", (dialect) => {
  let t: TestApp;
  const shared = useApp({ dialect });
  beforeAll(() => {
    t = shared();
  });

  test('when the log is long, then events count only past the dispatcher and past the earliest endpoint', async () => {
    await insideRolledBack(t, async (trx) => {
      const last = await appendEvents(trx, EVENTS);
      await placeDispatcher(trx, last - 10);
      expect(await deliveryWork(trx, 0)).toEqual({ events: false, due: false });

      await addEndpoint(trx, last);
      expect(await deliveryWork(trx, 0)).toEqual({ events: false, due: false });

      await addEndpoint(trx, last - 1);
      expect(await deliveryWork(trx, 0)).toEqual({ events: true, due: false });

      await placeDispatcher(trx, last);
      expect(await deliveryWork(trx, 0)).toEqual({ events: false, due: false });
    });
  });

  test.runIf(dialect === 'postgres')(
    'when the log is long and analysed, then PostgreSQL reads the newest position from its index, not the whole log',
    async () => {
      await insideRolledBack(t, async (trx) => {
        const last = await appendEvents(trx, EVENTS);
        await addEndpoint(trx, 0);
        await placeDispatcher(trx, last - 1);
        await sql`analyze events`.execute(trx);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${deliveryWorkQuery(0)}`.execute(trx);
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan).not.toContain('Seq Scan on events');
        expect(plan).toMatch(/Index Only Scan Backward using events_position_key on events/);
      });
    },
  );
});
