import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

const ANA = {
  first_name: 'Ana',
  last_name: 'Souza',
  email: 'ana@example.com',
  phone_number: '+5511999990000',
};

const eventsOfCheckin = async (t: TestApp, id: number) =>
  (await t.store.db.selectFrom('events').select(['type', 'data']).orderBy('position').execute())
    .map((row) => ({ type: row.type, data: JSON.parse(row.data ?? 'null') as Record<string, unknown> }))
    .filter((row) => row.data.checkin_id === id);

const memberColumn = async (t: TestApp, id: number) =>
  (await t.store.db.selectFrom('checkins').select('member').where('id', '=', id).executeTakeFirstOrThrow())
    .member;

describe.each(dialects)('operator API: member details on a check-in (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a check-in is created with member details, then 201 shows them, they are stored, every event of the check-in carries them, and no log line names them', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const member = platformId();
    const linesBefore = t.logs.lines.length;

    const response = await op.admin(t, 'POST', '/checkins', {
      platform_id: member,
      gym_id: n.gym.id,
      product_id: n.product.id,
      member: ANA,
    });
    const id = (JSON.parse(response.body) as { id: number }).id;
    expect((await op.validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);

    expectReply(
      response,
      201,
      op.shownCheckin(
        { id, platform_id: member, gym_id: n.gym.id, product_id: n.product.id },
        { member: ANA },
      ),
    );
    expect(JSON.parse((await memberColumn(t, id)) ?? 'null')).toEqual(ANA);
    const events = await eventsOfCheckin(t, id);
    expect(events.map((event) => [event.type, event.data.member])).toEqual([
      ['checkin.created', ANA],
      ['checkin.validated', ANA],
    ]);
    const logged = t.logs.lines.slice(linesBefore).join('\n');
    for (const value of Object.values(ANA)) expect(logged.includes(value)).toBe(false);
  });

  test('when only some member fields are given, then only those are stored and shown; a cancellation carries them too', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const body = { platform_id: platformId(), gym_id: n.gym.id, product_id: n.product.id };

    const created = await op.admin(t, 'POST', '/checkins', { ...body, member: { first_name: 'Bo' } });
    const id = (JSON.parse(created.body) as { id: number }).id;
    const cancelled = await op.admin(t, 'POST', `/checkins/${id}/cancel`, {});

    expectReply(cancelled, 200, {
      ...op.shownCheckin({ id, ...body }, { member: { first_name: 'Bo' } }),
      status: 'cancelled',
      cancelled_at: expect.any(String) as unknown,
    });
    expect(await memberColumn(t, id)).toBe('{"first_name":"Bo"}');
    expect((await eventsOfCheckin(t, id)).map((event) => event.data.member)).toEqual([
      { first_name: 'Bo' },
      { first_name: 'Bo' },
    ]);
  });

  test('when no member details (or an empty object) are given, then none are shown, stored or sent', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const body = { platform_id: platformId(), gym_id: n.gym.id, product_id: n.product.id };

    const response = await op.admin(t, 'POST', '/checkins', { ...body, member: {} });
    const id = (JSON.parse(response.body) as { id: number }).id;

    expectReply(response, 201, op.shownCheckin({ id, ...body }));
    expect(await memberColumn(t, id)).toBeNull();
    expect((await eventsOfCheckin(t, id))[0]?.data).not.toHaveProperty('member');
  });

  test.each([
    [
      'a first name of 101 characters',
      { first_name: 'a'.repeat(101) },
      'must NOT have more than 100 characters',
    ],
    [
      'a control character in the e-mail',
      { email: 'ana\u0007@example.com' },
      'must be text without control characters',
    ],
    ['a newline in the last name', { last_name: 'Souza\nDROP' }, 'must be text without control characters'],
    ['a number as phone number', { phone_number: 5511999990000 }, 'must be string'],
    ['an unknown field', { nickname: 'Aninha' }, 'must NOT have additional properties'],
    ['a string instead of an object', 'Ana Souza', 'must be object'],
  ])('when member has %s, then 400 key member and nothing is written', async (_, member, message) => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const before = await op.wholeStore(t);

    const response = await op.admin(t, 'POST', '/checkins', {
      platform_id: platformId(),
      gym_id: n.gym.id,
      product_id: n.product.id,
      member,
    });

    expectReply(response, 400, errorEnvelope('member', message));
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when the first name is exactly 100 characters, then it is accepted as given', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const name = 'é'.repeat(100);

    const response = await op.admin(t, 'POST', '/checkins', {
      platform_id: platformId(),
      gym_id: n.gym.id,
      product_id: n.product.id,
      member: { first_name: name },
    });

    expect(response.statusCode).toBe(201);
    expect((JSON.parse(response.body) as { member: unknown }).member).toEqual({ first_name: name });
  });
});
