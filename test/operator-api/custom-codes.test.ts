import type { InjectOptions } from 'fastify';
import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

const NOT_FOUND = errorEnvelope('checkin.custom-code.not-found', 'Custom code not found in database');

function partnerCode(
  t: TestApp,
  method: InjectOptions['method'],
  key: string,
  gymId: number,
  member: string,
  value: string,
) {
  return t.app.inject({
    method,
    url: `/access/v1/code/${member}`,
    headers: { ...op.partnerHeaders(key, gymId), 'content-type': 'application/json' },
    payload: JSON.stringify({ custom_code: value }),
  });
}

describe.each(dialects)('operator API: GET /admin/v1/custom-codes (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a partner has set a member’s code, then the lookup answers 200 with it; after a PUT, with the new code and updated_at', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const member = platformId();
    await partnerCode(t, 'POST', n.key.key, n.gym.id, member, 'BLUE-42');
    const lookup = () => op.admin(t, 'GET', `/custom-codes?platform_id=${member}&gym_id=${n.gym.id}`);

    const created = await lookup();
    t.clock.advance(60_000);
    await partnerCode(t, 'PUT', n.key.key, n.gym.id, member, 'RED-7');
    const updated = await lookup();

    expectReply(created, 200, {
      platform_id: member,
      gym_id: n.gym.id,
      custom_code: 'BLUE-42',
      updated_at: op.T0,
    });
    expectReply(updated, 200, {
      platform_id: member,
      gym_id: n.gym.id,
      custom_code: 'RED-7',
      updated_at: op.at(60_000),
    });
  });

  test('when validate upserted a code, then the lookup returns it', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const checkin = await op.createCheckin(t, n.product);
    await op.validate(t, n.key.key, n.gym.id, checkin.platform_id, 'ÁGUA-💧');

    const response = await op.admin(
      t,
      'GET',
      `/custom-codes?platform_id=${checkin.platform_id}&gym_id=${n.gym.id}`,
    );

    expectReply(response, 200, {
      platform_id: checkin.platform_id,
      gym_id: n.gym.id,
      custom_code: 'ÁGUA-💧',
      updated_at: op.T0,
    });
  });

  test('when the member has no code at that gym (only at another, or none), then 404 checkin.custom-code.not-found, nothing written', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const elsewhere = await op.createGym(t, n.partner.id);
    const member = platformId();
    await partnerCode(t, 'POST', n.key.key, n.gym.id, member, 'BLUE-42');
    const before = await op.wholeStore(t);

    const otherGym = await op.admin(t, 'GET', `/custom-codes?platform_id=${member}&gym_id=${elsewhere.id}`);
    const otherMember = await op.admin(
      t,
      'GET',
      `/custom-codes?platform_id=${platformId()}&gym_id=${n.gym.id}`,
    );

    expectReply(otherGym, 404, NOT_FOUND);
    expectReply(otherMember, 404, NOT_FOUND);
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test.each([
    ['gym_id=1', 'platform_id', 'must be a string of 13 digits'],
    ['platform_id=1234567890123', 'gym_id', 'is required'],
    ['platform_id=123456789012&gym_id=1', 'platform_id', 'must be a string of 13 digits'],
    ['platform_id=1234567890123&gym_id=abc', 'gym_id', 'must be a positive integer'],
  ])('when the lookup is asked with "%s", then 400 key %s', async (query, key, message) => {
    expectReply(await op.admin(app(), 'GET', `/custom-codes?${query}`), 400, errorEnvelope(key, message));
  });
});
