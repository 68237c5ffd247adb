import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects } from '../fixtures/test-app.js';
import {
  T0,
  T0_MS,
  TTL_MS,
  admin,
  arrangeNetwork,
  at,
  createCheckin,
  createGym,
  createProduct,
  operatorApp,
  shownCheckin as shown,
  validate,
} from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

describe.each(dialects)('operator API: GET /admin/v1/checkins (%s)', (dialect) => {
  const app = operatorApp({ dialect });

  test('when check-ins are listed by member, gym and status, then each filter selects exactly its own, expired derived from time', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const other = await createProduct(t, (await createGym(t, n.partner.id)).id);
    const member = platformId();
    const expired = await createCheckin(t, n.product, { platform_id: member, checked_in_at: at(-TTL_MS) });
    const cancelled = await createCheckin(t, n.product, { platform_id: member, checked_in_at: at(-60_000) });
    await admin(t, 'POST', `/checkins/${cancelled.id}/cancel`);
    const validated = await createCheckin(t, n.product, { platform_id: member, checked_in_at: at(-30_000) });
    await validate(t, n.key.key, n.gym.id, member);
    const pending = await createCheckin(t, other, { platform_id: member });
    const list = async (query: string) =>
      (
        JSON.parse((await admin(t, 'GET', `/checkins?platform_id=${member}${query}`)).body) as {
          items: { id: number }[];
        }
      ).items.map((item) => item.id);

    expectReply(await admin(t, 'GET', `/checkins?platform_id=${member}`), 200, {
      items: [
        shown(expired, { status: 'expired', checked_in_at: at(-TTL_MS), expires_at: T0 }),
        shown(cancelled, {
          status: 'cancelled',
          checked_in_at: at(-60_000),
          expires_at: at(TTL_MS - 60_000),
          cancelled_at: T0,
        }),
        shown(validated, {
          status: 'validated',
          checked_in_at: at(-30_000),
          expires_at: at(TTL_MS - 30_000),
          validated_at: T0,
        }),
        shown(pending),
      ],
      next_cursor: null,
    });
    expect(await list(`&gym_id=${n.gym.id}`)).toEqual([expired.id, cancelled.id, validated.id]);
    expect(await list(`&gym_id=${other.gym_id}`)).toEqual([pending.id]);
    expect(await list('&status=expired')).toEqual([expired.id]);
    expect(await list('&status=cancelled')).toEqual([cancelled.id]);
    expect(await list('&status=validated')).toEqual([validated.id]);
    expect(await list('&status=pending')).toEqual([pending.id]);
    expect(await list('&limit=2')).toEqual([expired.id, cancelled.id]);
  });

  test.each([
    ['status=foo', 'status', 'must be one of pending, validated, cancelled, expired'],
    ['platform_id=123', 'platform_id', 'must be a string of 13 digits'],
    ['gym_id=-1', 'gym_id', 'must be a positive integer'],
    ['limit=0', 'limit', 'must be an integer from 1 to 1000'],
    ['cursor=bogus', 'cursor', 'is not a cursor this API returned'],
  ])('when check-ins are listed with %s, then 400 key %s', async (query, key, message) => {
    const t = app();

    expectReply(await admin(t, 'GET', `/checkins?${query}`), 400, errorEnvelope(key, message));
  });
});

describe.each(dialects)('operator API: GATEHOUSE_CHECKIN_TTL_SECONDS=60 (%s)', (dialect) => {
  const app = operatorApp({ dialect, env: { GATEHOUSE_CHECKIN_TTL_SECONDS: '60' } });

  test('when the TTL is 60 s, then the check-in expires 60 s after checked_in_at: pending 1 ms before, expired at that instant', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const checkin = await createCheckin(t, n.product);
    const status = async () =>
      (
        JSON.parse((await admin(t, 'GET', `/checkins?platform_id=${checkin.platform_id}`)).body) as {
          items: { status: string }[];
        }
      ).items.map((item) => item.status);

    t.clock.set(T0_MS + 59_999);
    const before = await status();
    t.clock.set(T0_MS + 60_000);
    const after = await status();

    expect(checkin).toEqual(shown(checkin, { expires_at: at(60_000) }));
    expect({ before, after }).toEqual({ before: ['pending'], after: ['expired'] });
    expectReply(
      await validate(t, n.key.key, n.gym.id, checkin.platform_id),
      400,
      errorEnvelope('checkin.validation.expired', 'Check-In expired'),
    );
  });
});
