import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OPERATOR } from '../../src/domain/audit.js';
import { arrangePartner, platformId, type Arranged } from '../fixtures/factories.js';
import { dialects, startTestApp, type TestApp, type TestDialect } from '../fixtures/test-app.js';

/** Member details go through every write path: each dialect's batched statements and the query builder. */
const implementations = dialects.flatMap((dialect: TestDialect) => [
  { name: `${dialect}, batched`, dialect, groupCommit: true },
  { name: `${dialect}, query builder`, dialect, groupCommit: false },
]);

const ANA = {
  first_name: 'Ana',
  last_name: 'Souza',
  email: 'ana@example.com',
  phone_number: '+5511999990000',
};

describe.each(implementations)('member details on every write path ($name)', ({ dialect, groupCommit }) => {
  let t: TestApp;
  let a: Arranged;
  beforeAll(async () => {
    t = await startTestApp({ dialect, groupCommit });
    a = await arrangePartner(t.services);
  });
  afterAll(() => t.close());

  const membersOf = async (checkinId: number) =>
    (await t.store.db.selectFrom('events').select(['type', 'data']).orderBy('position').execute())
      .map((row) => JSON.parse(row.data ?? '{}') as { checkin_id?: number; member?: unknown })
      .filter((data) => data.checkin_id === checkinId)
      .map((data) => data.member);

  test('when check-ins with and without details are created together, then each stores its own, and its created, validated and cancelled events carry them', async () => {
    const [withDetails, without, toCancel] = [platformId(), platformId(), platformId()];
    const create = (member: string, details?: typeof ANA) =>
      t.services.checkins.create({
        platformId: member,
        gymId: a.gym.id,
        productId: a.product.id,
        ...(details === undefined ? {} : { member: details }),
      });

    const [first, second, third] = await Promise.all([
      create(withDetails, ANA),
      create(without),
      create(toCancel, { ...ANA, first_name: 'Bia' }),
    ]);
    await Promise.all([
      t.store.apply('validate', {
        gymId: a.gym.id,
        platformId: withDetails,
        customCode: undefined,
        now: t.clock.now(),
        actor: OPERATOR,
      }),
      t.services.checkins.cancel(third.id),
    ]);

    expect([first.member, second.member, third.member]).toEqual([
      ANA,
      undefined,
      { ...ANA, first_name: 'Bia' },
    ]);
    const stored = async (id: number) =>
      (
        await t.store.db
          .selectFrom('checkins')
          .select('member')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).member;
    expect([await stored(first.id), await stored(second.id), await stored(third.id)]).toEqual([
      JSON.stringify(ANA),
      null,
      JSON.stringify({ ...ANA, first_name: 'Bia' }),
    ]);
    expect(await membersOf(first.id)).toEqual([ANA, ANA]);
    expect(await membersOf(second.id)).toEqual([undefined]);
    expect(await membersOf(third.id)).toEqual([
      { ...ANA, first_name: 'Bia' },
      { ...ANA, first_name: 'Bia' },
    ]);
  });
});
