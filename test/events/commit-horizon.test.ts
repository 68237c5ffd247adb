import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { pgAvailable } from '../fixtures/postgres.js';
import type { TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { lastEventPosition } from '../fixtures/store-state.js';

interface EventsPage {
  items: { position: number; id: string; type: string }[];
  next_after: number;
  has_more: boolean;
}

async function events(t: TestApp, after: number): Promise<EventsPage> {
  const response = await op.admin(t, 'GET', `/events?after=${after}`);
  expect(response.statusCode, response.body).toBe(200);
  return JSON.parse(response.body) as EventsPage;
}

/**
 * PostgreSQL only: SQLite has one writer, so a row can never commit behind another. Here a write transaction that
 * began first and commits last stands for a slow process of the fleet.
 */
describe.skipIf(!pgAvailable)('the horizon readers follow on PostgreSQL', () => {
  const app = op.operatorApp({ dialect: 'postgres' });

  test('when an older write transaction of this schema is still open, then later rows wait behind it, and once it commits its row comes first and nothing is skipped', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const after = await lastEventPosition(t.store);
    const feedBefore = await op.partnerTransactions(t, n.key.key, n.gym.id);
    expect(feedBefore.statusCode).toBe(200);

    const slow = new pg.Client({ connectionString: t.databaseUrl });
    await slow.connect();
    try {
      await slow.query('begin');
      await slow.query(
        `insert into events (id, type, occurred_at, partner_id, gym_id, data)
         values ('evt_00000000000000000000000000000abc', 'checkin.created', 0, $1, $2, '{}')`,
        [n.partner.id, n.gym.id],
      );
      const visit = await op.createCheckin(t, n.product);
      expect((await op.validate(t, n.key.key, n.gym.id, visit.platform_id)).statusCode).toBe(200);

      // Committed and acknowledged, but an older transaction could still write below them: not shown yet, and the
      // readers' cursors do not move past them.
      expect(await events(t, after)).toEqual({ items: [], next_after: after, has_more: false });
      const held = await op.partnerTransactions(t, n.key.key, n.gym.id);
      expect(JSON.parse(held.body)).toEqual(JSON.parse(feedBefore.body));

      await slow.query('commit');

      const page = await events(t, after);
      expect(page.items.map((event) => [event.id, event.type])).toEqual([
        ['evt_00000000000000000000000000000abc', 'checkin.created'],
        [expect.stringMatching(/^evt_/), 'checkin.created'],
        [expect.stringMatching(/^evt_/), 'checkin.validated'],
      ]);
      const positions = page.items.map((event) => event.position);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(page.next_after).toBe(positions.at(-1));
      const feed = JSON.parse((await op.partnerTransactions(t, n.key.key, n.gym.id)).body) as {
        results: { checkin_id: number }[];
        has_more: boolean;
      };
      expect(feed.results.map((row) => row.checkin_id)).toEqual([visit.id]);
      expect(feed.has_more).toBe(false);
    } finally {
      await slow.query('rollback').catch(() => undefined);
      await slow.end();
    }
  });

  test('when a change is acknowledged while other transactions are in flight, then the very next read shows it', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const after = await lastEventPosition(t.store);
    // Other write transactions keep starting and ending around the reads, as on a busy fleet.
    const busy = new pg.Client({ connectionString: t.databaseUrl });
    await busy.connect();
    let stop = false;
    const churn = (async () => {
      while (!stop) {
        await busy.query('begin');
        await busy.query('select pg_current_xact_id()');
        await new Promise((resolve) => setTimeout(resolve, 5));
        await busy.query('commit');
      }
    })();
    try {
      const created: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        created.push((await op.createCheckin(t, n.product)).id);
        const page = await events(t, after);
        expect(page.items.map((event) => event.type)).toEqual(created.map(() => 'checkin.created'));
      }
    } finally {
      stop = true;
      await churn;
      await busy.end();
    }
  });

  test('when a transaction that never touched this schema stays open (another schema, a psql session), then it holds no reader back: the very next reads show the change', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const after = await lastEventPosition(t.store);
    const feedBefore = JSON.parse((await op.partnerTransactions(t, n.key.key, n.gym.id)).body) as {
      results: unknown[];
    };
    const elsewhere = new pg.Client({ connectionString: t.databaseUrl });
    await elsewhere.connect();
    try {
      // An older transaction with an id, writing only outside gatehouse's tables.
      await elsewhere.query('begin');
      await elsewhere.query('create temporary table elsewhere (n int)');
      await elsewhere.query('insert into elsewhere values (1)');
      const visit = await op.createCheckin(t, n.product);
      expect((await op.validate(t, n.key.key, n.gym.id, visit.platform_id)).statusCode).toBe(200);

      const page = await events(t, after);
      expect(page.items.map((event) => event.type)).toEqual(['checkin.created', 'checkin.validated']);
      expect(page.next_after).toBe(page.items.at(-1)?.position);
      expect(page.has_more).toBe(false);
      const feed = JSON.parse((await op.partnerTransactions(t, n.key.key, n.gym.id)).body) as {
        results: { checkin_id: number }[];
      };
      expect(feed.results.map((row) => row.checkin_id)).toEqual([
        ...feedBefore.results.map((row) => (row as { checkin_id: number }).checkin_id),
        visit.id,
      ]);
    } finally {
      await elsewhere.query('rollback').catch(() => undefined);
      await elsewhere.end();
    }
  });
});
