import { describe, expect, it } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { arrangeCheckin } from '../fixtures/partner-api.js';
import { transactionsOf } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import { expectRefusal, liveGatehouse } from '../fixtures/live-gatehouse.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';

const NOW = '2026-03-02T12:00:00Z';

describe.each(dialects)('the SDK’s validate against a live gatehouse (%s)', (dialect) => {
  const live = liveGatehouse(dialect);

  it('when the check-in is valid, then it is validated with the full details and one transaction', async () => {
    const a = await live.arrange();
    const checkin = await arrangeCheckin(live.app(), a);

    const result = await live.client(a).validate({ platformId: checkin.platformId });

    expect(result).toEqual({
      status: 'validated',
      details: {
        user: { platform_id: checkin.platformId },
        gym: { Id: a.gym.id, product: { Id: a.product.id, description: a.product.description } },
        validated_at: NOW,
      },
    });
    expect(await transactionsOf(live.app().store, checkin.id)).toHaveLength(1);
  });

  it('when a custom code is sent, then it is stored for the member at the gym', async () => {
    const a = await live.arrange();
    const checkin = await arrangeCheckin(live.app(), a);

    await live.client(a).validate({ platformId: checkin.platformId, customCode: 'QR-77' });

    expect(await live.client(a).getCustomCode(checkin.platformId)).toEqual({
      platform_id: checkin.platformId,
      custom_code: 'QR-77',
      updated_at: '2026-03-02T12:00:00.000Z',
    });
  });

  it('when there is no check-in, then GatehouseError 404 checkin.validation.notfound', async () => {
    const a = await live.arrange();
    const error = await expectRefusal(live.client(a).validate({ platformId: platformId() }), {
      status: 404,
      key: 'checkin.validation.notfound',
      message: 'Check-In not found in database',
    });
    expect(error.body).toEqual(
      errorEnvelope('checkin.validation.notfound', 'Check-In not found in database'),
    );
    expect(error.requestId).toMatch(/.+/);
  });

  it('when the check-in is cancelled, then GatehouseError 400 checkin.validation.cancelled', async () => {
    const a = await live.arrange();
    const checkin = await arrangeCheckin(live.app(), a);
    await live.app().services.checkins.cancel(checkin.id);
    await expectRefusal(live.client(a).validate({ platformId: checkin.platformId }), {
      status: 400,
      key: 'checkin.validation.cancelled',
      message: 'Check-In cancelled',
    });
  });

  it('when the check-in has expired, then GatehouseError 400 checkin.validation.expired', async () => {
    const a = await live.arrange();
    const t = live.app();
    const checkin = await arrangeCheckin(t, a, { checkedInAt: t.clock.now() - 1201_000 });
    await expectRefusal(live.client(a).validate({ platformId: checkin.platformId }), {
      status: 400,
      key: 'checkin.validation.expired',
      message: 'Check-In expired',
    });
  });

  it('when the check-in was validated before, then GatehouseError 400 checkin.already.validated (no retry asked)', async () => {
    const a = await live.arrange();
    const checkin = await arrangeCheckin(live.app(), a);
    const client = live.client(a);
    await client.validate({ platformId: checkin.platformId });
    await expectRefusal(client.validate({ platformId: checkin.platformId }), {
      status: 400,
      key: 'checkin.already.validated',
      message: 'Check-In already validated',
    });
    expect(await transactionsOf(live.app().store, checkin.id)).toHaveLength(1);
  });

  it('when the platform id is not 13 digits, then GatehouseError 400 platform_id', async () => {
    const a = await live.arrange();
    await expectRefusal(live.client(a).validate({ platformId: '12345' }), {
      status: 400,
      key: 'platform_id',
      message: 'must be a string of 13 digits',
    });
  });
});
