import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { expectLedgerInvariants } from '../fixtures/store-state.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { arrangeNetwork, operatorApp, postCheckin, validate, wholeStore } from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { DAILY_LIMIT, errorEnvelope } from '../fixtures/wire-bodies.js';

const TOO_FAR_AHEAD = errorEnvelope('checked_in_at', 'must not be more than 5 minutes in the future');

async function transactionsOfMember(t: TestApp, member: string) {
  return t.store.db.selectFrom('transactions').select('id').where('platform_id', '=', member).execute();
}

describe.each(dialects)('check-in dates an attacker chooses (%s)', (dialect) => {
  const app = operatorApp({ dialect });

  test.each([
    ['tomorrow', '2026-03-03T12:00:00Z'],
    ['in 2099', '2099-01-01T00:00:00Z'],
    ['5 minutes and 1 ms ahead', '2026-03-02T12:05:00.001Z'],
  ])(
    'when checked_in_at lies %s, then the creation is 400 checked_in_at and writes nothing',
    async (_name, checkedInAt) => {
      const t = app();
      const n = await arrangeNetwork(t);
      const before = await wholeStore(t);

      expectReply(await postCheckin(t, n, platformId(), checkedInAt), 400, TOO_FAR_AHEAD);

      expect(await wholeStore(t)).toEqual(before);
    },
  );

  test('when checked_in_at lies 5 minutes ahead (clock skew), then it is accepted', async () => {
    const t = app();
    const n = await arrangeNetwork(t);

    const created = await postCheckin(t, n, platformId(), '2026-03-02T12:05:00Z');

    expect(created.statusCode, created.body).toBe(201);
  });

  test('when a visit checked in at 23:59 is validated after midnight, then another check-in that new day is refused by the daily limit: one transaction per member·gym·day', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const member = platformId();
    t.clock.set('2026-03-02T23:59:00Z');
    expect((await postCheckin(t, n, member)).statusCode).toBe(201);
    t.clock.set('2026-03-03T00:01:00Z');
    expect((await validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);
    t.clock.set('2026-03-03T00:02:00Z');
    const before = await wholeStore(t);

    expectReply(await postCheckin(t, n, member), 409, DAILY_LIMIT);

    expect(await wholeStore(t)).toEqual(before);
    expect(await transactionsOfMember(t, member)).toHaveLength(1);
    await expectLedgerInvariants(t.store);
  });

  test('when a member was validated today, then a check-in dated yesterday or just ahead cannot lift the limit', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const member = platformId();
    expect((await postCheckin(t, n, member)).statusCode).toBe(201);
    expect((await validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);

    expectReply(await postCheckin(t, n, member, '2026-03-01T12:00:00Z'), 409, DAILY_LIMIT);
    expectReply(await postCheckin(t, n, member, '2026-03-02T12:04:00Z'), 409, DAILY_LIMIT);
    expectReply(await postCheckin(t, n, member, '2026-03-03T12:00:00Z'), 400, TOO_FAR_AHEAD);

    expect(await transactionsOfMember(t, member)).toHaveLength(1);
  });
});
