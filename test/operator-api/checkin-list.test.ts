import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

describe.each(dialects)('operator API: GET /admin/v1/checkins (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when check-ins are listed by member, gym and status, then each filter selects exactly its own, expired derived from time', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const other = await op.createProduct(t, (await op.createGym(t, n.partner.id)).id);
    const member = platformId();
    const expired = await op.createCheckin(t, n.product, {
      platform_id: member,
      checked_in_at: op.at(-op.TTL_MS),
    });
    const cancelled = await op.createCheckin(t, n.product, {
      platform_id: member,
      checked_in_at: op.at(-60_000),
    });
    await op.admin(t, 'POST', `/checkins/${cancelled.id}/cancel`);
    const validated = await op.createCheckin(t, n.product, {
      platform_id: member,
      checked_in_at: op.at(-30_000),
    });
    await op.validate(t, n.key.key, n.gym.id, member);
    const pending = await op.createCheckin(t, other, { platform_id: member });
    const list = async (query: string) =>
      (
        JSON.parse((await op.admin(t, 'GET', `/checkins?platform_id=${member}${query}`)).body) as {
          items: { id: number }[];
        }
      ).items.map((item) => item.id);

    expectReply(await op.admin(t, 'GET', `/checkins?platform_id=${member}`), 200, {
      items: [
        op.shownCheckin(expired, { status: 'expired', checked_in_at: op.at(-op.TTL_MS), expires_at: op.T0 }),
        op.shownCheckin(cancelled, {
          status: 'cancelled',
          checked_in_at: op.at(-60_000),
          expires_at: op.at(op.TTL_MS - 60_000),
          cancelled_at: op.T0,
        }),
        op.shownCheckin(validated, {
          status: 'validated',
          checked_in_at: op.at(-30_000),
          expires_at: op.at(op.TTL_MS - 30_000),
          validated_at: op.T0,
        }),
        op.shownCheckin(pending),
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
});

describe.each(dialects)('operator API: GATEHOUSE_CHECKIN_TTL_SECONDS=60 (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, env: { GATEHOUSE_CHECKIN_TTL_SECONDS: '60' } });

  test('when the TTL is 60 s, then the check-in expires 60 s after checked_in_at: pending 1 ms before, expired at that instant', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const checkin = await op.createCheckin(t, n.product);
    const status = async () =>
      (
        JSON.parse((await op.admin(t, 'GET', `/checkins?platform_id=${checkin.platform_id}`)).body) as {
          items: { status: string }[];
        }
      ).items.map((item) => item.status);

    t.clock.set(op.T0_MS + 59_999);
    const before = await status();
    t.clock.set(op.T0_MS + 60_000);
    const after = await status();

    expect(checkin).toEqual(op.shownCheckin(checkin, { expires_at: op.at(60_000) }));
    expect({ before, after }).toEqual({ before: ['pending'], after: ['expired'] });
    expectReply(
      await op.validate(t, n.key.key, n.gym.id, checkin.platform_id),
      400,
      errorEnvelope('checkin.validation.expired', 'Check-In expired'),
    );
  });
});
