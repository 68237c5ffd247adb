import { describe, expect, test } from 'vitest';
import { dialects } from '../fixtures/test-app.js';
import { arrangeNetwork, createCheckin } from '../fixtures/operator-api.js';
import { eventually, useReceivers } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, register, startWebhookApp } from '../fixtures/webhook-app.js';

const startReceiver = useReceivers();

describe.each(dialects)('payload retention, GATEHOUSE_EVENT_RETENTION_DAYS (%s)', (dialect) => {
  test('when delivered events are older than the retention period, then their payloads are purged and the log keeps its rows; a payload still waiting is kept', async () => {
    const t = await startWebhookApp({
      dialect,
      env: { GATEHOUSE_EVENT_RETENTION_DAYS: '2', GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '3600,3600,3600' },
    });
    try {
      const ok = await startReceiver();
      const down = await startReceiver(() => ({ status: 503 }));
      const n = await arrangeNetwork(t);
      const other = await arrangeNetwork(t);
      const delivered = await register(t, n.partner.id, { url: ok.url });
      const waiting = await register(t, other.partner.id, { url: down.url });
      await createCheckin(t, n.product);
      await createCheckin(t, other.product);
      await eventually(async () => (await deliveriesOf(t, delivered.id))[0]?.status === 'delivered');
      await eventually(async () => (await deliveriesOf(t, waiting.id))[0]?.attempts === 1);
      const before = await deliveriesOf(t, delivered.id);

      t.clock.advance(3 * 86_400_000);
      const payload = (partnerId: number) =>
        t.store.db
          .selectFrom('events')
          .select('data')
          .where('partner_id', '=', partnerId)
          .executeTakeFirstOrThrow();
      // The one retention purge (serve runs it daily) does this job too.
      await t.services.retention.purge();
      expect((await payload(n.partner.id)).data).toBeNull();

      expect((await payload(other.partner.id)).data).not.toBeNull();
      expect(await deliveriesOf(t, delivered.id)).toEqual(before);
    } finally {
      await t.close();
    }
  });
});
