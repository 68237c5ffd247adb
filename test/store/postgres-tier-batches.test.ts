import pg from 'pg';
import { sql } from 'kysely';
import { afterEach, describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { pgAvailable } from '../fixtures/postgres.js';
import { startTestApp, type TestApp } from '../fixtures/test-app.js';
import { TestClock } from '../fixtures/test-clock.js';
import * as op from '../fixtures/operator-api.js';
import { secondsOf, validationBody } from '../fixtures/wire-bodies.js';

/**
 * A partner's tiered visits priced by two processes on one PostgreSQL database: one validating through its batches,
 * the other through the query builder's unit of work. The test holds the partner's payout lock from a connection of
 * its own, so the order in which they take it is the test's to set, and the prices must follow it.
 */
describe.skipIf(!pgAvailable)(
  "tiered visits of one partner priced by two processes, in the order of the partner's lock",
  () => {
    const opened: { close(): Promise<void> }[] = [];
    afterEach(async () => {
      for (const closing of opened.splice(0).reverse()) await closing.close();
    });

    async function app(options: { databaseUrl?: string; groupCommit?: boolean; clock: TestClock }) {
      const t = await startTestApp({
        dialect: 'postgres',
        env: { GATEHOUSE_ADMIN_TOKEN: op.ADMIN_TOKEN, GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '0' },
        ...options,
      });
      opened.push(t);
      return t;
    }

    /** A connection of the test's that holds a partner's payout lock until released. */
    async function holdPayoutLock(t: TestApp, partnerId: number) {
      const client = new pg.Client({ connectionString: t.databaseUrl });
      await client.connect();
      opened.push({ close: () => client.end() });
      const key = `payout:${partnerId}`;
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [key]);
      return {
        /** How many sessions wait for it now, or for a session that does. */
        async waiting(): Promise<number> {
          const { rows } = await client.query<{ n: string }>(
            `with recursive blocked(pid) as (
             select pid from pg_locks where not granted and pg_backend_pid() = any(pg_blocking_pids(pid))
             union
             select l.pid from pg_locks l join blocked b on b.pid = any(pg_blocking_pids(l.pid)) where not l.granted
           )
           select count(distinct pid) as n from blocked`,
          );
          return Number(rows[0]?.n);
        },
        release: () => client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [key]),
      };
    }

    /**
     * The partner's network with tiers: the list price while the month's paid total is not above `afterCents`. Its
     * partner's id is drawn at random: advisory locks are the database's, and another test's partner of the same id
     * in a schema of its own would wait for the lock this test holds too.
     */
    async function tieredNetwork(t: TestApp, afterCents: number) {
      const id = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
      await sql`select setval(pg_get_serial_sequence('partners', 'id'), ${id})`.execute(t.store.db);
      const n = await op.arrangeNetwork(t, { payout_cents: 1250 });
      const rules = {
        monthly_paid_visits_per_member: null,
        tiers: [{ after_cents: afterCents, rate_pct: 50 }],
      };
      op.ok(await op.admin(t, 'PUT', `/partners/${n.partner.id}/payout-rules`, rules), 200);
      return n;
    }

    async function membersWaiting(t: TestApp, n: op.Network, count: number) {
      const members = Array.from({ length: count }, () => platformId());
      for (const member of members) await op.createCheckin(t, n.product, { platform_id: member });
      return members;
    }

    /** Validate's whole 200 for a member at the network's gym, now. */
    const answered = (t: TestApp, n: op.Network, member: string) =>
      validationBody(n.gym, n.product, { platform_id: member }, secondsOf(t.clock.now()));

    /** The partner's visits as priced, in commit order. */
    async function pricesInCommitOrder(t: TestApp, partnerId: number) {
      const rows = await t.store.db
        .selectFrom('transactions')
        .select(['platform_id', 'payout_cents', 'pricing_rule'])
        .where('partner_id', '=', partnerId)
        .orderBy('commit_order')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({
        member: row.platform_id,
        price: `${row.pricing_rule}:${Number(row.payout_cents)}`,
      }));
    }

    async function partnerTotal(t: TestApp, partnerId: number) {
      const row = await t.store.db
        .selectFrom('payout_counters')
        .select(['visits', 'paid_cents'])
        .where('partner_id', '=', partnerId)
        .where('gym_id', '=', 0)
        .where('platform_id', '=', '')
        .executeTakeFirstOrThrow();
      return { visits: Number(row.visits), paid_cents: Number(row.paid_cents) };
    }

    test("when another process's visit of the partner takes its lock first, then this process's batch, waiting behind it, prices its visit from the total that visit leaves", async () => {
      const clock = new TestClock(op.T0_MS);
      const t = await app({ clock });
      const other = await app({ clock, databaseUrl: t.databaseUrl, groupCommit: false });
      const n = await tieredNetwork(t, 1000);
      const [elsewhere, member] = await membersWaiting(t, n, 2);
      const lock = await holdPayoutLock(t, n.partner.id);

      // The other process's visit waits for the lock first: it will commit first, adding 1250 to the total.
      const paidElsewhere = op.validate(other, n.key.key, n.gym.id, elsewhere ?? '');
      await expect.poll(() => lock.waiting()).toBe(1);
      // This process's batch queues behind it: had it read the total of 0 now, its visit would be paid in full.
      const batched = op.validate(t, n.key.key, n.gym.id, member ?? '');
      await expect.poll(() => lock.waiting()).toBe(2);
      await lock.release();
      const replies = await Promise.all([paidElsewhere, batched]);

      expect(replies.map((reply) => [reply.statusCode, JSON.parse(reply.body) as unknown])).toEqual([
        [200, answered(t, n, elsewhere ?? '')],
        [200, answered(t, n, member ?? '')],
      ]);
      expect(await pricesInCommitOrder(t, n.partner.id)).toEqual([
        { member: elsewhere, price: 'list:1250' },
        { member, price: 'volume-tier:625' },
      ]);
      expect(await partnerTotal(t, n.partner.id)).toEqual({ visits: 2, paid_cents: 1250 + 625 });
    });

    test.each([
      ['through its batches', 'this'],
      ["through the query builder's unit of work", 'other'],
    ] as const)(
      "when a gym has a cap of its own beside its partner's tiers, then its visit %s waits for the partner's lock too, and the tiered visit queued behind it prices from the total it leaves",
      async (_path, capped) => {
        const clock = new TestClock(op.T0_MS);
        const t = await app({ clock });
        const other = await app({ clock, databaseUrl: t.databaseUrl, groupCommit: false });
        const n = await tieredNetwork(t, 1000);
        const ownGym = await op.createGym(t, n.partner.id);
        const ownProduct = await op.createProduct(t, ownGym.id, { payout_cents: 1250 });
        const cap = { monthly_paid_visits_per_member: 5, tiers: [] };
        op.ok(await op.admin(t, 'PUT', `/gyms/${ownGym.id}/payout-rules`, cap), 200);
        const atOwnGym = platformId();
        await op.createCheckin(t, ownProduct, { platform_id: atOwnGym });
        const [tiered] = await membersWaiting(t, n, 1);
        const lock = await holdPayoutLock(t, n.partner.id);
        // The next id drawn from the transactions' sequence is logged, which gives the drawing transaction its id
        // (the ledger's commit order) there and then: a visit that drew it before waiting for the lock would be
        // ordered before the visit that waited first.
        await sql`select setval(pg_get_serial_sequence('transactions', 'id'),
                                nextval(pg_get_serial_sequence('transactions', 'id')))`.execute(t.store.db);

        // The capped gym's visit adds its 1250 to the total that tiers read: it takes the partner's lock first.
        const cappedVisit = op.validate(capped === 'this' ? t : other, n.key.key, ownGym.id, atOwnGym);
        await expect.poll(() => lock.waiting()).toBe(1);
        const tieredVisit = op.validate(capped === 'this' ? other : t, n.key.key, n.gym.id, tiered ?? '');
        await expect.poll(() => lock.waiting()).toBe(2);
        await lock.release();
        const replies = await Promise.all([cappedVisit, tieredVisit]);

        const now = secondsOf(t.clock.now());
        expect(replies.map((reply) => [reply.statusCode, JSON.parse(reply.body) as unknown])).toEqual([
          [200, validationBody(ownGym, ownProduct, { platform_id: atOwnGym }, now)],
          [200, answered(t, n, tiered ?? '')],
        ]);
        expect(await pricesInCommitOrder(t, n.partner.id)).toEqual([
          { member: atOwnGym, price: 'list:1250' },
          { member: tiered, price: 'volume-tier:625' },
        ]);
        expect(await partnerTotal(t, n.partner.id)).toEqual({ visits: 2, paid_cents: 1250 + 625 });
      },
    );
  },
);
