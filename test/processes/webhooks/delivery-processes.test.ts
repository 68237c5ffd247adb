import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { Store } from '../../../src/store/store.js';
import { arrangePartner } from '../../fixtures/factories.js';
import { createCheckins, openOperator } from '../../fixtures/processes/arrange.js';
import { createPgSchema, pgAvailable } from '../../fixtures/postgres.js';
import { eventually, startReceiver, type Receiver } from '../../fixtures/webhook-receiver.js';
import { useServeProcesses } from '../../fixtures/processes/serve-process.js';

const ENV = {
  GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true',
  GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2,0.2,0.2',
};

async function eventIds(store: Store, partnerId: number): Promise<string[]> {
  const rows = await store.db
    .selectFrom('events')
    .select('id')
    .where('partner_id', '=', partnerId)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.id);
}

const idsOf = (received: Receiver['received']) => received.map((r) => String(r.headers['webhook-id']));

interface Database {
  url: string;
  drop(): Promise<void>;
}
async function sqliteDatabase(): Promise<Database> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-webhooks-'));
  return {
    url: `sqlite:${join(dir, 'gatehouse.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

const databases: [string, () => Promise<Database>][] = [['sqlite', sqliteDatabase]];
if (pgAvailable) databases.push(['postgres', createPgSchema]);

describe.each(databases)('webhook delivery across gatehouse processes (%s)', (_dialect, open) => {
  const start = useServeProcesses();
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  test('when gatehouse is killed with SIGKILL with a delivery in flight and others pending, then after a restart every event is delivered, the in-flight one again with the same webhook-id', async () => {
    const database = await open();
    cleanups.push(() => database.drop());
    const operator = openOperator(database.url, ENV);
    cleanups.push(() => operator.store.close());
    await operator.store.migrate();
    let answering = false;
    const hook = await startReceiver(() => (answering ? { status: 200 } : 'hang'));
    cleanups.push(() => hook.close());
    const arranged = await arrangePartner(operator.services);
    const endpoint = await operator.services.webhooks.endpoints.create(arranged.partner.id, {
      url: hook.url,
      timeoutMs: 3000,
    });
    await createCheckins(operator.services, arranged, 3);

    const first = await start({ GATEHOUSE_DATABASE_URL: database.url, ...ENV });
    await eventually(() => hook.received.length >= 1);
    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const inFlight = idsOf(hook.received);
    await createCheckins(operator.services, arranged, 3);
    answering = true;
    await start({ GATEHOUSE_DATABASE_URL: database.url, ...ENV });

    const all = await eventIds(operator.store, arranged.partner.id);
    await eventually(async () => {
      const log = await operator.services.webhooks.deliveries.list(
        endpoint.endpoint.id,
        { status: 'delivered' },
        { afterId: 0, limit: 100 },
      );
      return log.items.length === all.length;
    }, 30_000);
    const answered = hook.received.slice(inFlight.length);
    expect(idsOf(answered).sort()).toEqual([...all].sort());
    expect(inFlight.every((id) => all.includes(id))).toBe(true);
  });

  test.skipIf(_dialect !== 'postgres')(
    'when two processes dispatch on one PostgreSQL, then each attempt is made by one process: the receiver gets exactly the attempts the log records',
    async () => {
      const database = await open();
      cleanups.push(() => database.drop());
      const operator = openOperator(database.url, ENV);
      cleanups.push(() => operator.store.close());
      await operator.store.migrate();
      const firstSeen = new Set<string>();
      // Every event fails once (500), then succeeds: two attempts each, whichever process makes them.
      const hook = await startReceiver((n) => {
        const id = String(hook.received[n]?.headers['webhook-id']);
        if (firstSeen.has(id)) return { status: 200 };
        firstSeen.add(id);
        return { status: 500 };
      });
      cleanups.push(() => hook.close());
      const arranged = await arrangePartner(operator.services);
      const endpoint = await operator.services.webhooks.endpoints.create(arranged.partner.id, {
        url: hook.url,
      });
      await Promise.all([
        start({ GATEHOUSE_DATABASE_URL: database.url, ...ENV }),
        start({ GATEHOUSE_DATABASE_URL: database.url, ...ENV }),
      ]);
      await createCheckins(operator.services, arranged, 60);

      const all = await eventIds(operator.store, arranged.partner.id);
      const delivered = async () =>
        (
          await operator.services.webhooks.deliveries.list(
            endpoint.endpoint.id,
            {},
            { afterId: 0, limit: 1000 },
          )
        ).items;
      await eventually(
        async () => (await delivered()).filter((d) => d.status === 'delivered').length === all.length,
        30_000,
      );

      const log = await delivered();
      expect(log.map((d) => [d.eventId, d.attempts])).toEqual(all.map((id) => [id, 2]));
      const counts = new Map<string, number>();
      for (const id of idsOf(hook.received)) counts.set(id, (counts.get(id) ?? 0) + 1);
      expect([...counts.entries()].sort()).toEqual(all.map((id) => [id, 2]).sort());
    },
  );
});
