import { describe, expect, test } from 'vitest';
import { dialects } from '../fixtures/test-app.js';
import { admin, arrangeNetwork, createCheckin } from '../fixtures/operator-api.js';
import { eventually, useReceivers } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, register, webhookApp } from '../fixtures/webhook-app.js';

const receiver = useReceivers();

const typeOf = (body: string) => (JSON.parse(body) as { type: string }).type;

describe.each(dialects)('the order of one member·gym’s deliveries (%s)', (dialect) => {
  const app = webhookApp({ dialect, deliver: false });

  test('when three events of one member·gym are fanned out in one dispatch and the first attempt hangs, then only the first is claimed and the others go out after it, in order', async () => {
    const t = app();
    const hangsFirst = await receiver((n) => (n === 0 ? 'hang' : { status: 200 }));
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: hangsFirst.url, timeout_ms: 1000 });
    const first = await createCheckin(t, n.product);
    expect((await admin(t, 'POST', `/checkins/${first.id}/cancel`)).statusCode).toBe(200);
    await createCheckin(t, n.product, { platform_id: first.platform_id });

    // The loop starts with all three events in the log: its first round writes them in one dispatch.
    t.webhookRunner.start();
    await eventually(() => hangsFirst.received.length === 1);
    const rows = await t.store.db
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'event_type', 'status', 'attempts', 'claimed_until'])
      .where('endpoint_id', '=', endpoint.id)
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.event_type, row.status, row.attempts, row.claimed_until !== null])).toEqual(
      [
        ['checkin.created', 'pending', 0, true],
        ['checkin.cancelled', 'pending', 0, false],
        ['checkin.created', 'pending', 0, false],
      ],
    );
    expect(typeOf(hangsFirst.received[0]!.body)).toBe('checkin.created');

    // The hanging attempt times out and is retried; each of the others goes out only once the one before it is in.
    await eventually(() => hangsFirst.received.length === 4);
    const [created, cancelled, again] = rows.map((row) => row.event_id);
    expect(hangsFirst.received.map((r) => [typeOf(r.body), r.headers['webhook-id']])).toEqual([
      ['checkin.created', created],
      ['checkin.created', created],
      ['checkin.cancelled', cancelled],
      ['checkin.created', again],
    ]);
    await eventually(async () => (await deliveriesOf(t, endpoint.id)).every((d) => d.status === 'delivered'));
    expect((await deliveriesOf(t, endpoint.id, '&order=asc')).map((d) => [d.event_type, d.attempts])).toEqual(
      [
        ['checkin.created', 2],
        ['checkin.cancelled', 1],
        ['checkin.created', 1],
      ],
    );
  });
});
