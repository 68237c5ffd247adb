import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { EXPLICIT_DENY, errorEnvelope } from '../fixtures/wire-bodies.js';

function waiting(t: TestApp, key: string, gymId: number, query = '') {
  return t.app.inject({
    method: 'GET',
    url: `/access/v1/checkins${query}`,
    headers: op.partnerHeaders(key, gymId),
  });
}

/** How the waiting list shows a check-in: the partner API's second-precision timestamps. */
const shown = (checkin: op.Checkin, description: string) => ({
  id: checkin.id,
  platform_id: checkin.platform_id,
  product: { Id: checkin.product_id, description },
  status: 'pending',
  checked_in_at: checkin.checked_in_at.replace('.000Z', 'Z'),
  expires_at: checkin.expires_at.replace('.000Z', 'Z'),
});
const list = (results: unknown[], nextCursor: string | null = null) => ({
  metadata: { total: results.length, errors: 0 },
  results,
  next_cursor: nextCursor,
});

describe.each(dialects)('the waiting list, GET /access/v1/checkins?status=pending (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  test('when members have checked in at the gym, then those not yet validated, cancelled or expired are listed oldest first', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t, { description: 'Day pass' });
    const expired = await op.createCheckin(t, n.product, { checked_in_at: op.at(-op.TTL_MS) });
    const first = await op.createCheckin(t, n.product);
    const cancelled = await op.createCheckin(t, n.product);
    expect((await op.admin(t, 'POST', `/checkins/${cancelled.id}/cancel`)).statusCode).toBe(200);
    const validated = await op.createCheckin(t, n.product);
    expect((await op.validate(t, n.key.key, n.gym.id, validated.platform_id)).statusCode).toBe(200);
    const second = await op.createCheckin(t, n.product, { checked_in_at: op.at(-60_000) });
    const elsewhere = await op.createProduct(t, (await op.createGym(t, n.partner.id)).id);
    await op.createCheckin(t, elsewhere);
    expect(expired.id).toBeLessThan(first.id);

    const response = await waiting(t, n.key.key, n.gym.id, '?status=pending');

    expectReply(response, 200, list([shown(first, 'Day pass'), shown(second, 'Day pass')]));
  });

  test('when the list is longer than the limit, then it comes in pages joined by next_cursor, status defaulting to pending', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t, { description: 'Yoga class' });
    const checkins = [];
    for (let i = 0; i < 3; i += 1) checkins.push(await op.createCheckin(t, n.product));
    const [one, two, three] = checkins as [op.Checkin, op.Checkin, op.Checkin];

    const page1 = await waiting(t, n.key.key, n.gym.id, '?limit=2');
    const cursor = (JSON.parse(page1.body) as { next_cursor: string }).next_cursor;
    const page2 = await waiting(t, n.key.key, n.gym.id, `?status=pending&limit=2&cursor=${cursor}`);

    expectReply(page1, 200, list([shown(one, 'Yoga class'), shown(two, 'Yoga class')], cursor));
    expect(cursor).toEqual(expect.any(String));
    expectReply(page2, 200, list([shown(three, 'Yoga class')]));
  });

  test('when the list is asked with a status other than pending, a bad limit or cursor, then 400 and nothing changes', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    await op.createCheckin(t, n.product);
    const before = await op.wholeStore(t);

    const status = await waiting(t, n.key.key, n.gym.id, '?status=validated');
    const limit = await waiting(t, n.key.key, n.gym.id, '?limit=0');
    const cursor = await waiting(t, n.key.key, n.gym.id, '?cursor=nonsense');

    expectReply(status, 400, errorEnvelope('status', 'must be one of pending'));
    expectReply(limit, 400, errorEnvelope('limit', 'must be an integer from 1 to 1000'));
    expectReply(cursor, 400, errorEnvelope('cursor', 'is not a cursor this API returned'));
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when the member app sent member details, then the waiting list carries what it sent (and nothing for a member without), for the desk to greet them', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t, { description: 'Spin' });
    const named = await op.createCheckin(t, n.product, {
      member: { first_name: 'Ana', last_name: 'Souza', email: 'ana@example.com' },
    });
    const blank = await op.createCheckin(t, n.product, { member: { first_name: 'Rui', last_name: '' } });
    const anonymous = await op.createCheckin(t, n.product);

    const response = await waiting(t, n.key.key, n.gym.id);

    expectReply(
      response,
      200,
      list([
        {
          ...shown(named, 'Spin'),
          member: { first_name: 'Ana', last_name: 'Souza', email: 'ana@example.com' },
        },
        { ...shown(blank, 'Spin'), member: { first_name: 'Rui' } },
        shown(anonymous, 'Spin'),
      ]),
    );
  });

  test("when a key asks for another partner's gym, or no key is sent, then it is refused and shows no one", async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const stranger = await op.arrangeNetwork(t);
    await op.createCheckin(t, stranger.product, { platform_id: platformId() });

    const foreign = await waiting(t, n.key.key, stranger.gym.id);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: '/access/v1/checkins',
      headers: { 'x-gym-id': String(stranger.gym.id) },
    });

    expectReply(foreign, 403, EXPLICIT_DENY);
    expect({ status: anonymous.statusCode, body: JSON.parse(anonymous.body) as unknown }).toEqual({
      status: 401,
      body: { message: 'Unauthorized' },
    });
  });
});
