import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '../../sdk/src/index.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import {
  admin,
  arrangeNetwork,
  arrangeSandboxNetwork,
  validate,
  type Network,
} from '../fixtures/operator-api.js';
import { platformId } from '../fixtures/factories.js';
import { eventually, startReceiver, type Received, type Receiver } from '../fixtures/webhook-receiver.js';
import { register, startWebhookApp } from '../fixtures/webhook-app.js';

const ANA = {
  first_name: 'Ana',
  last_name: 'Souza',
  email: 'ana@example.com',
  phone_number: '+5511999990000',
};
const WELLHUB_SECRET = 'partner-chosen-secret-2';

/** The event's type as the SDK names it: `type` in the standard format, `event_type` in Wellhub's. */
const kind = (event: WebhookEvent) => (event.format === 'wellhub' ? event.event_type : event.type);

describe.each(dialects)("the SDK's verifyWebhook against real deliveries (%s)", (dialect) => {
  let t: TestApp;
  let standard: Receiver;
  let wellhub: Receiver;
  let secret: string;
  let member: string;
  let n: Network;
  beforeAll(async () => {
    t = await startWebhookApp({ dialect });
    [standard, wellhub] = [await startReceiver(), await startReceiver()];
    n = await arrangeNetwork(t, { payout_cents: 990, currency: 'USD', description: 'Yoga class' });
    secret = (await register(t, n.partner.id, { url: standard.url })).secret;
    await register(t, n.partner.id, { url: wellhub.url, format: 'wellhub', secret: WELLHUB_SECRET });
    member = platformId();
    await admin(t, 'POST', '/checkins', {
      platform_id: member,
      gym_id: n.gym.id,
      product_id: n.product.id,
      member: ANA,
    });
    expect((await validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);
    await eventually(() => standard.received.length === 2 && wellhub.received.length === 1);
  });
  afterAll(async () => {
    await Promise.all([standard.close(), wellhub.close()]);
    await t.close();
  });

  const verify = (r: Received, key: string) => verifyWebhook(r.body, r.headers, key);
  /** A receiver's `count`-th delivery, once it has arrived. */
  async function delivery(receiver: { received: Received[] }, count: number): Promise<Received> {
    await eventually(() => receiver.received.length === count);
    const received = receiver.received[count - 1];
    if (received === undefined) throw new Error('no delivery');
    return received;
  }

  test('when standard deliveries are verified with the endpoint secret, then each comes back as its typed event', () => {
    const events = standard.received.map((r) => verify(r, secret));

    expect(events.map(kind)).toEqual(['checkin.created', 'checkin.validated']);
    const [created, validated] = events;
    if (created?.format !== 'standard' || validated?.format !== 'standard') throw new Error('typed');
    if (validated.type !== 'checkin.validated') throw new Error('typed');
    expect(created.id).toBe(standard.received[0]?.headers['webhook-id']);
    expect(created.data).toMatchObject({ platform_id: member, status: 'pending', member: ANA });
    expect(validated.data).toMatchObject({ payout_cents: 990, currency: 'USD', member: ANA });
  });

  test('when the Wellhub delivery is verified with the partner secret, then it comes back as the checkin event', () => {
    const [received] = wellhub.received;
    if (received === undefined) throw new Error('no delivery');

    const event = verify(received, WELLHUB_SECRET);

    expect(event).toEqual({ format: 'wellhub', ...(JSON.parse(received.body) as object) });
    expect(kind(event)).toBe('checkin');
    // Handlers that send the signature on with a 0x prefix, or lowercased, still verify.
    const signature = String(received.headers['x-gympass-signature']);
    expect(
      verifyWebhook(received.body, { 'X-Gympass-Signature': `0x${signature.toLowerCase()}` }, WELLHUB_SECRET),
    ).toEqual(event);
  });

  test.each([
    [
      'a standard delivery, with another secret',
      'standard',
      'whsec_' + Buffer.alloc(32, 7).toString('base64'),
    ],
    ['a standard delivery, its body changed', 'standard-tampered', undefined],
    ['a Wellhub delivery, with another secret', 'wellhub', 'not-the-secret'],
    ['a Wellhub delivery, its body changed', 'wellhub-tampered', undefined],
  ])('when %s is verified, then WebhookVerificationError', (_, which, other) => {
    const standardOne = standard.received[0];
    const wellhubOne = wellhub.received[0];
    if (standardOne === undefined || wellhubOne === undefined) throw new Error('no delivery');
    const tamper = (body: string) => body.replace(member, '9999999999999');
    const attempt = {
      standard: () => verify(standardOne, other ?? ''),
      'standard-tampered': () => verifyWebhook(tamper(standardOne.body), standardOne.headers, secret),
      wellhub: () => verify(wellhubOne, other ?? ''),
      'wellhub-tampered': () => verifyWebhook(tamper(wellhubOne.body), wellhubOne.headers, WELLHUB_SECRET),
    }[which];

    expect(attempt).toThrow(WebhookVerificationError);
  });

  test('when a standard delivery is older than the tolerance, or carries no signature header, then it is refused', () => {
    const [received] = standard.received;
    if (received === undefined) throw new Error('no delivery');

    const later = Number(received.headers['webhook-timestamp']) * 1000 + 301_000;

    expect(() => verifyWebhook(received.body, received.headers, secret, { now: later })).toThrow(
      'the timestamp is too old',
    );
    expect(() => verifyWebhook(received.body, { 'content-type': 'application/json' }, secret)).toThrow(
      'the delivery carries no signature header',
    );
    // A fetch Headers object works as well as Node's header record.
    expect(
      verifyWebhook(received.body, new Headers(received.headers as Record<string, string>), secret),
    ).toEqual(verify(received, secret));
  });

  // Last: it adds a third standard delivery, which the tests above do not expect.
  test('when the operator reverses the visit in part, then the transaction.reversed delivery verifies as its typed event, what it takes back negative', async () => {
    const [, validatedOne] = standard.received;
    if (validatedOne === undefined) throw new Error('no delivery');
    const validated = verify(validatedOne, secret);
    if (validated.format !== 'standard' || validated.type !== 'checkin.validated') throw new Error('typed');
    const visit = validated.data.transaction_id;
    const reversal = await admin(t, 'POST', `/transactions/${visit}/reversals`, {
      reason: 'class cancelled',
      amount_cents: 300,
    });
    expect(reversal.statusCode, reversal.body).toBe(201);
    const received = await delivery(standard, 3);

    const event = verify(received, secret);

    if (event.format !== 'standard' || event.type !== 'transaction.reversed') throw new Error('typed');
    expect(event).toEqual({
      format: 'standard',
      id: received.headers['webhook-id'],
      type: 'transaction.reversed',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
      data: {
        id: (JSON.parse(reversal.body) as { id: number }).id,
        transaction_id: visit,
        checkin_id: validated.data.checkin_id,
        platform_id: member,
        gym_id: n.gym.id,
        payout_cents: -300,
        currency: 'USD',
        reason: 'class cancelled',
        effective_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/) as unknown,
      },
    });
    // Typed: what it takes back is a number the handler can add to its own ledger.
    expect(event.data.payout_cents + validated.data.payout_cents).toBe(690);
  });

  test("when a sandbox partner's check-in is delivered, then it verifies with data.sandbox true, and a live one's has no sandbox key", async () => {
    const lab = await arrangeSandboxNetwork(t, {
      payout_cents: 700,
      currency: 'USD',
      description: 'Lab pass',
    });
    const receiver = await startReceiver();
    try {
      const labSecret = (await register(t, lab.partner.id, { url: receiver.url })).secret;
      const tester = platformId();
      const created = await admin(t, 'POST', '/checkins', {
        platform_id: tester,
        gym_id: lab.gym.id,
        product_id: lab.product.id,
      });
      expect(created.statusCode, created.body).toBe(201);
      const received = await delivery(receiver, 1);

      const event = verify(received, labSecret);

      if (event.format !== 'standard' || event.type !== 'checkin.created') throw new Error('typed');
      expect(event).toEqual({
        format: 'standard',
        id: received.headers['webhook-id'],
        type: 'checkin.created',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
        data: {
          checkin_id: (JSON.parse(created.body) as { id: number }).id,
          platform_id: tester,
          gym_id: lab.gym.id,
          product: { id: lab.product.id, description: 'Lab pass' },
          status: 'pending',
          checked_in_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
          expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
          sandbox: true,
        },
      });
      // Typed: a handler can skip what is not a real visit.
      expect(event.data.sandbox === true).toBe(true);
      const live = verify(standard.received[0] as Received, secret);
      expect(live.format === 'standard' && 'sandbox' in live.data).toBe(false);
    } finally {
      await receiver.close();
    }
  });
});
