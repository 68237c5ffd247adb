import { sql, type Kysely, type RawBuilder } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Database } from '../../src/store/database.js';
import { deliveryWork, deliveryWorkQuery } from '../../src/store/webhooks/webhook-claim-repository.js';
import { PENDING } from '../../src/store/webhooks/pending-status.js';
import { dialects, useApp, type TestApp } from '../fixtures/test-app.js';
import { inChunks, insideRolledBack } from '../fixtures/store-rows.js';

const EVENTS = 5_000;

/** The plan PostgreSQL makes for the look at `now`, one line per node. */
async function planOfLook(trx: Kysely<Database>, now: number): Promise<string> {
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${deliveryWorkQuery(now)}`.execute(trx);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
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
  await inChunks(rows, (chunk) => trx.insertInto('events').values(chunk).execute());
  return first + count - 1;
}

async function addPartner(trx: Kysely<Database>): Promise<number> {
  const partner = await trx
    .insertInto('partners')
    .values({ name: 'Work partner', created_at: 1_700_000_000_000 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(partner.id);
}

/** An enabled endpoint's row for `partnerId`, hearing the log after `fromPosition`. */
const endpointRow = (partnerId: number, fromPosition: number, url = 'http://127.0.0.1:9/hooks') => ({
  partner_id: partnerId,
  url,
  format: 'standard',
  timeout_ms: 5_000,
  secret: 'whsec_work',
  status: 'enabled',
  from_position: fromPosition,
  created_at: 1_700_000_000_000,
  updated_at: 1_700_000_000_000,
});

async function addEndpoint(trx: Kysely<Database>, fromPosition: number): Promise<number> {
  const endpoint = await trx
    .insertInto('webhook_endpoints')
    .values(endpointRow(await addPartner(trx), fromPosition))
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(endpoint.id);
}

/**
 * `count` deliveries to `endpointId`, due at `dueAt`, claimed until `claimedUntil` (null: unclaimed), pending unless
 * `status` says otherwise.
 */
async function addDeliveries(
  trx: Kysely<Database>,
  endpointId: number,
  count: number,
  dueAt: number,
  claimedUntil: number | null,
  status = 'pending',
): Promise<void> {
  const rows = Array.from({ length: count }, (_, index) => ({
    endpoint_id: endpointId,
    event_position: index + 1,
    event_id: `evt_due_${dueAt}_${index}`,
    event_type: 'checkin.created',
    member_key: `1:member-${index}`,
    status,
    next_attempt_at: dueAt,
    claimed_until: claimedUntil,
    created_at: 1_700_000_000_000,
  }));
  await inChunks(rows, (chunk) => trx.insertInto('webhook_deliveries').values(chunk).execute());
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

  test('when every due delivery is claimed, then none is due; one unclaimed is, one not yet due is not', async () => {
    const now = 1_800_000_000_000;
    await insideRolledBack(t, async (trx) => {
      const endpoint = await addEndpoint(trx, 0);
      await addDeliveries(trx, endpoint, EVENTS, now - 1_000, now + 60_000);
      expect((await deliveryWork(trx, now)).due).toBe(false);
      await addDeliveries(trx, endpoint, 1, now + 1_000, null);
      expect((await deliveryWork(trx, now)).due).toBe(false);
      await addDeliveries(trx, endpoint, 1, now, null);
      expect((await deliveryWork(trx, now)).due).toBe(true);
    });
  });

  test.runIf(dialect === 'postgres')(
    'when the log of deliveries is long, a few are in flight and it is analysed, then PostgreSQL looks for a due one through the index of due deliveries',
    async () => {
      const now = 1_800_000_000_000;
      await insideRolledBack(t, async (trx) => {
        const endpoint = await addEndpoint(trx, 0);
        await addDeliveries(trx, endpoint, EVENTS, now - 60_000, null, 'delivered');
        await addDeliveries(trx, endpoint, 200, now - 1_000, now + 60_000);
        await sql`analyze webhook_deliveries`.execute(trx);
        const plan = await planOfLook(trx, now);
        expect(plan).not.toContain('Seq Scan on webhook_deliveries');
        expect(plan).toMatch(/Index Scan using webhook_deliveries_pending_due on webhook_deliveries/);
      });
    },
  );

  test.runIf(dialect === 'postgres')(
    'when the log is long and analysed, then PostgreSQL reads the newest position from its index, not the whole log',
    async () => {
      await insideRolledBack(t, async (trx) => {
        const last = await appendEvents(trx, EVENTS);
        await addEndpoint(trx, 0);
        await placeDispatcher(trx, last - 1);
        await sql`analyze events`.execute(trx);
        const plan = await planOfLook(trx, 0);
        expect(plan).not.toContain('Seq Scan on events');
        expect(plan).toMatch(/Index Only Scan Backward using events_position_key on events/);
      });
    },
  );

  test("when the network has thousands of endpoints, then the look reads the earliest one's start from the index by start, not every endpoint", async () => {
    await insideRolledBack(t, async (trx) => {
      const last = await appendEvents(trx, 10);
      await placeDispatcher(trx, last - 5);
      const partnerId = await addPartner(trx);
      // All but one start after the log's end; the one that starts earliest is inserted last.
      const endpoints = Array.from({ length: 2_000 }, (_, index) =>
        endpointRow(
          partnerId,
          index === 1_999 ? last - 2 : last + 1 + index,
          `http://127.0.0.1:9/hooks/${index}`,
        ),
      );
      await inChunks(endpoints, (chunk) => trx.insertInto('webhook_endpoints').values(chunk).execute());
      expect(await deliveryWork(trx, 0)).toEqual({ events: true, due: false });
      if (dialect === 'postgres') await sql`analyze webhook_endpoints`.execute(trx);
      const explain = dialect === 'sqlite' ? sql`explain query plan` : sql`explain`;
      const { rows } = await sql<Record<string, string>>`${explain} ${deliveryWorkQuery(0)}`.execute(trx);
      const plan = rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
      expect(plan).toContain('webhook_endpoints_by_start');
      expect(plan).not.toMatch(/SCAN webhook_endpoints|Seq Scan on webhook_endpoints/);
    });
  });

  test('when a process of the previous release asks for due deliveries with the status as a parameter, then it finds those the literal finds, through the index of pending deliveries', async () => {
    const now = 1_800_000_000_000;
    await insideRolledBack(t, async (trx) => {
      const endpoint = await addEndpoint(trx, 0);
      await addDeliveries(trx, endpoint, EVENTS, now - 60_000, null, 'delivered');
      await addDeliveries(trx, endpoint, 4, now - 1_000, null);
      await addDeliveries(trx, endpoint, 3, now + 60_000, null);
      if (dialect === 'postgres') await sql`analyze webhook_deliveries`.execute(trx);
      const due = (status: string | RawBuilder<string>) =>
        sql<{ id: number | string; next_attempt_at: number | string }>`select id, next_attempt_at
          from webhook_deliveries where status = ${status} and next_attempt_at <= ${now} order by next_attempt_at, id`;
      const byParameter = (await due('pending').execute(trx)).rows;
      const byLiteral = (await due(PENDING).execute(trx)).rows;
      expect(byParameter.map((row) => Number(row.next_attempt_at))).toEqual(Array(4).fill(now - 1_000));
      expect(byParameter).toEqual(byLiteral);
      const explain = dialect === 'sqlite' ? sql`explain query plan` : sql`explain`;
      const { rows } = await sql<Record<string, string>>`${explain} ${due('pending')}`.execute(trx);
      const plan = rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
      expect(plan).toContain('webhook_deliveries_pending_due');
    });
  });
});
