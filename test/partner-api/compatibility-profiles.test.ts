import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import {
  admin,
  arrangeNetwork,
  createCheckin,
  createGym,
  issueKey,
  operatorApp,
  validate,
  wholeStore,
  type Network,
} from '../fixtures/operator-api.js';
import { expectReply, postValidate } from '../fixtures/partner-api.js';
import { errorEnvelope, secondsOf, validationBody } from '../fixtures/wire-bodies.js';

const SPEC = { cancelled_spelling: 'cancelled', gym_from_key: false };

/** The partner's profile as its row holds it. */
async function storedProfile(t: TestApp, partnerId: number) {
  return t.store.db
    .selectFrom('partners')
    .select(['cancelled_spelling', 'gym_from_key'])
    .where('id', '=', partnerId)
    .executeTakeFirstOrThrow()
    .then((row) => ({ ...row, gym_from_key: Number(row.gym_from_key) }));
}

async function cancelledCheckin(t: TestApp, n: Network) {
  const checkin = await createCheckin(t, n.product);
  expect((await admin(t, 'POST', `/checkins/${checkin.id}/cancel`)).statusCode).toBe(200);
  return checkin;
}

/** Validate without X-Gym-Id, as the public Node client sends it. */
const validateWithoutGym = (t: TestApp, key: string, member: string) =>
  postValidate(t, { authorization: `Bearer ${key}` }, { platform_id: member });

describe.each(dialects)('compatibility profiles (%s)', (dialect) => {
  const app = operatorApp({ dialect });

  test('when no profile was set, then it is the spec’s and every answer is the spec’s', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const scoped = await issueKey(t, n.partner.id, { gym_ids: [n.gym.id] });
    const checkin = await cancelledCheckin(t, n);

    expectReply(await admin(t, 'GET', `/partners/${n.partner.id}/compatibility`), 200, {
      partner_id: n.partner.id,
      ...SPEC,
    });
    expectReply(
      await validate(t, n.key.key, n.gym.id, checkin.platform_id),
      400,
      errorEnvelope('checkin.validation.cancelled', 'Check-In cancelled'),
    );
    expectReply(
      await validateWithoutGym(t, scoped.key, checkin.platform_id),
      400,
      errorEnvelope('X-Gym-Id', 'must be a positive integer'),
    );
  });

  test('when the operator sets cancelled_spelling canceled, then a cancelled check-in is answered in that spelling', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const checkin = await cancelledCheckin(t, n);

    const set = await admin(t, 'PUT', `/partners/${n.partner.id}/compatibility`, {
      cancelled_spelling: 'canceled',
    });

    expectReply(set, 200, { partner_id: n.partner.id, cancelled_spelling: 'canceled', gym_from_key: false });
    expect(await storedProfile(t, n.partner.id)).toEqual({ cancelled_spelling: 'canceled', gym_from_key: 0 });
    expectReply(
      await validate(t, n.key.key, n.gym.id, checkin.platform_id),
      400,
      errorEnvelope('checkin.validation.canceled', 'Check-In canceled'),
    );
    const other = await arrangeNetwork(t);
    const elsewhere = await cancelledCheckin(t, other);
    expectReply(
      await validate(t, other.key.key, other.gym.id, elsewhere.platform_id),
      400,
      errorEnvelope('checkin.validation.cancelled', 'Check-In cancelled'),
    );
  });

  test('when gym_from_key is on, then a key with one gym may omit X-Gym-Id, and keys with several or all gyms may not', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const second = await createGym(t, n.partner.id);
    const single = await issueKey(t, n.partner.id, { gym_ids: [n.gym.id] });
    const several = await issueKey(t, n.partner.id, { gym_ids: [n.gym.id, second.id] });
    expectReply(
      await admin(t, 'PUT', `/partners/${n.partner.id}/compatibility`, { gym_from_key: true }),
      200,
      {
        partner_id: n.partner.id,
        cancelled_spelling: 'cancelled',
        gym_from_key: true,
      },
    );
    const checkin = await createCheckin(t, n.product);

    for (const key of [several.key, n.key.key]) {
      expectReply(
        await validateWithoutGym(t, key, checkin.platform_id),
        400,
        errorEnvelope('X-Gym-Id', 'must be a positive integer'),
      );
    }
    expectReply(
      await validateWithoutGym(t, single.key, checkin.platform_id),
      200,
      validationBody(n.gym, n.product, { platform_id: checkin.platform_id }, secondsOf(t.clock.now())),
    );
    const row = await t.store.db
      .selectFrom('transactions')
      .select(['gym_id', 'checkin_id'])
      .where('checkin_id', '=', checkin.id)
      .executeTakeFirstOrThrow();
    expect({ ...row, gym_id: Number(row.gym_id) }).toEqual({ gym_id: n.gym.id, checkin_id: checkin.id });
  });

  test('when the profile is set again without an option, then that option is the spec’s again', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    await admin(t, 'PUT', `/partners/${n.partner.id}/compatibility`, {
      cancelled_spelling: 'canceled',
      gym_from_key: true,
    });

    expectReply(await admin(t, 'PUT', `/partners/${n.partner.id}/compatibility`, {}), 200, {
      partner_id: n.partner.id,
      ...SPEC,
    });
    expect(await storedProfile(t, n.partner.id)).toEqual({
      cancelled_spelling: 'cancelled',
      gym_from_key: 0,
    });
    const checkin = await cancelledCheckin(t, n);
    expectReply(
      await validate(t, n.key.key, n.gym.id, checkin.platform_id),
      400,
      errorEnvelope('checkin.validation.cancelled', 'Check-In cancelled'),
    );
  });

  test('when the profile is bad or the partner unknown, then 400 or 404 and nothing changes', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const before = await wholeStore(t);

    const misspelt = await admin(t, 'PUT', `/partners/${n.partner.id}/compatibility`, {
      cancelled_spelling: 'cancled',
    });
    const notBoolean = await admin(t, 'PUT', `/partners/${n.partner.id}/compatibility`, {
      gym_from_key: 'yes',
    });
    const unknown = await admin(t, 'PUT', '/partners/999999/compatibility', { gym_from_key: true });

    expect(misspelt.statusCode).toBe(400);
    expect(JSON.parse(misspelt.body)).toMatchObject({ metadata: { total: 0, errors: 1 } });
    expect((JSON.parse(misspelt.body) as { errors: { key: string }[] }).errors[0]?.key).toBe(
      'cancelled_spelling',
    );
    expect((JSON.parse(notBoolean.body) as { errors: { key: string }[] }).errors[0]?.key).toBe(
      'gym_from_key',
    );
    expectReply(unknown, 404, errorEnvelope('partner.not-found', 'partner not found'));
    expect(await wholeStore(t)).toEqual(before);
  });
});
