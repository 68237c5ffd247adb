import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { deliveryBody } from '../../../src/domain/webhooks/endpoint.js';
import { findEvents } from '../../../src/store/events/event-repository.js';
import type { Store } from '../../../src/store/store.js';
import { pgAvailable } from '../../fixtures/postgres.js';
import { arrangePartner } from '../../fixtures/factories.js';
import { createCheckins, useOwnDatabase } from '../../fixtures/processes/arrange.js';
import { useServeProcesses } from '../../fixtures/processes/serve-process.js';
import { eventually, useReceivers } from '../../fixtures/webhook-receiver.js';

/**
 * `serve` takes webhook delivery off its serving thread (GATEHOUSE_WEBHOOK_THREAD, default true: on PostgreSQL the
 * whole loop on a thread of its own, on SQLite the requests sent from a thread) or keeps it there (false): what a
 * receiver, `/metrics`, the server's log and the delivery log show is the same either way.
 */
const ENV = {
  GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true',
  // One attempt each within a test: a failing delivery waits a minute for its next.
  GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '60,60',
};

const dialects = pgAvailable ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
// Off the thread (false) the loop is the one in-process tests run; here once, on SQLite, through a real serve.
const cases = [...dialects.map((dialect) => [dialect, 'true'] as const), ['sqlite', 'false'] as const];

/** The partner's events, oldest first, as the log keeps them. */
async function loggedEvents(store: Store, partnerId: number) {
  const rows = await store.db
    .selectFrom('events')
    .select('position')
    .where('partner_id', '=', partnerId)
    .orderBy('position')
    .execute();
  const events = await findEvents(
    store.db,
    rows.map((row) => row.position),
  );
  return [...events.values()].sort((a, b) => a.position - b.position);
}

/** The JSON log lines of a process with the given message. */
function linesSaying(output: string, message: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === message);
}

const metric = (text: string, name: string): string[] =>
  text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));

describe.each(cases)(
  'webhook delivery of a serve process (%s, GATEHOUSE_WEBHOOK_THREAD=%s)',
  (dialect, thread) => {
    const start = useServeProcesses();
    const receiver = useReceivers();
    const ownDatabase = useOwnDatabase('test', ENV);

    test('when one endpoint answers 200 and another 500, then the first gets every event signed, /metrics counts each attempt, and the failing one is one warning line in the log', async () => {
      const { url, operator } = await ownDatabase(dialect);
      const partner = await arrangePartner(operator.services);
      const healthy = await receiver(() => ({ status: 200 }));
      const failing = await receiver(() => ({ status: 500 }));
      const good = await operator.services.webhooks.endpoints.create(partner.partner.id, {
        url: healthy.url,
      });
      const bad = await operator.services.webhooks.endpoints.create(partner.partner.id, { url: failing.url });
      await createCheckins(operator.services, partner, 3);

      const gatehouse = await start({
        GATEHOUSE_DATABASE_URL: url,
        GATEHOUSE_WEBHOOK_THREAD: thread,
        ...ENV,
      });
      await eventually(() => healthy.received.length === 3 && failing.received.length === 3);
      await eventually(() => linesSaying(gatehouse.output(), 'webhook endpoint failing').length === 1);

      const events = await loggedEvents(operator.store, partner.partner.id);
      expect(events.map((event) => event.type)).toEqual([
        'checkin.created',
        'checkin.created',
        'checkin.created',
      ]);
      const arrived = [...healthy.received].sort((a, b) =>
        String(a.headers['webhook-id']).localeCompare(String(b.headers['webhook-id'])),
      );
      const expected = [...events].sort((a, b) => a.id.localeCompare(b.id));
      expect(arrived.map((r) => [r.headers['webhook-id'], r.body])).toEqual(
        expected.map((event) => [event.id, deliveryBody(event)]),
      );
      for (const request of arrived) {
        const headers = {
          'webhook-id': String(request.headers['webhook-id']),
          'webhook-timestamp': String(request.headers['webhook-timestamp']),
          'webhook-signature': String(request.headers['webhook-signature']),
        };
        expect(new Webhook(good.secret).verify(request.body, headers)).toEqual(JSON.parse(request.body));
      }

      await eventually(async () => {
        const text = await (await fetch(`${gatehouse.baseUrl}/metrics`)).text();
        return metric(text, 'gatehouse_webhook_attempts_total').length === 2;
      });
      const text = await (await fetch(`${gatehouse.baseUrl}/metrics`)).text();
      expect(metric(text, 'gatehouse_webhook_attempts_total').sort()).toEqual([
        'gatehouse_webhook_attempts_total{outcome="delivered"} 3',
        'gatehouse_webhook_attempts_total{outcome="retrying"} 3',
      ]);
      expect(metric(text, 'gatehouse_webhook_attempt_duration_seconds_count')).toEqual([
        'gatehouse_webhook_attempt_duration_seconds_count 6',
      ]);
      expect(metric(text, 'gatehouse_webhook_pending_deliveries')).toEqual([
        `gatehouse_webhook_pending_deliveries{endpoint_id="${bad.endpoint.id}"} 3`,
      ]);
      const [warning] = linesSaying(gatehouse.output(), 'webhook endpoint failing');
      expect(warning).toMatchObject({
        level: 40,
        webhook: bad.endpoint.id,
        partner: partner.partner.id,
        status: 500,
        pending: 3,
      });
      expect(Object.keys(warning ?? {}).sort()).toEqual(
        ['hostname', 'level', 'msg', 'partner', 'pending', 'pid', 'status', 'time', 'webhook'].sort(),
      );
      expect(gatehouse.output()).not.toContain('webhook delivery thread');

      const deliveries = await operator.store.db
        .selectFrom('webhook_deliveries')
        .select(['endpoint_id', 'event_id', 'status', 'attempts', 'last_status_code'])
        .orderBy('endpoint_id')
        .orderBy('event_position')
        .execute();
      expect(deliveries).toEqual(
        [good, bad].flatMap(({ endpoint }) =>
          events.map((event) => ({
            endpoint_id: endpoint.id,
            event_id: event.id,
            status: endpoint.id === good.endpoint.id ? 'delivered' : 'pending',
            attempts: 1,
            last_status_code: endpoint.id === good.endpoint.id ? 200 : 500,
          })),
        ),
      );
    });

    test('when serve is stopped with SIGTERM while a delivery waits for its answer, then it ends at once, the claim is released with no attempt counted, and the next start sends it again with the same webhook-id', async () => {
      const { url, operator } = await ownDatabase(dialect);
      const partner = await arrangePartner(operator.services);
      let answering = false;
      const hook = await receiver(() => (answering ? { status: 200 } : 'hang'));
      await operator.services.webhooks.endpoints.create(partner.partner.id, {
        url: hook.url,
        timeoutMs: 20_000,
      });
      await createCheckins(operator.services, partner, 1);
      const env = { GATEHOUSE_DATABASE_URL: url, GATEHOUSE_WEBHOOK_THREAD: thread, ...ENV };

      const first = await start(env);
      await eventually(() => hook.received.length === 1);
      const asked = performance.now();
      first.kill('SIGTERM');
      const exit = await first.exited;
      expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
      // Well within the request's 20 s timeout and the 10 s grace: the attempt was cut short, not waited for.
      expect(exit.at - asked).toBeLessThan(5000);
      const [event] = await loggedEvents(operator.store, partner.partner.id);
      const released = await operator.store.db
        .selectFrom('webhook_deliveries')
        .select(['event_id', 'status', 'attempts', 'claimed_until'])
        .execute();
      expect(released).toEqual([
        { event_id: event?.id, status: 'pending', attempts: 0, claimed_until: null },
      ]);

      answering = true;
      await start(env);
      await eventually(() => hook.received.length === 2);
      expect(hook.received.map((r) => r.headers['webhook-id'])).toEqual([event?.id, event?.id]);
      await eventually(async () => {
        const [row] = await operator.store.db.selectFrom('webhook_deliveries').select('status').execute();
        return row?.status === 'delivered';
      });
    });
  },
);
