import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { expectLedgerInvariants } from '../fixtures/store-state.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { DAILY_LIMIT } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

/** A network and a member who has not visited yet. */
async function arrangeMember(t: TestApp) {
  return { n: await op.arrangeNetwork(t), member: platformId() };
}

/** A network and a member whose first validated visit was at `at` (the clock stays there). */
async function visitedAt(t: TestApp, at: string) {
  const { n, member } = await arrangeMember(t);
  t.clock.set(at);
  await visit(t, n, member);
  return { n, member };
}

/** A validated visit of the member at the network's gym, at the clock's now. */
async function visit(t: TestApp, n: op.Network, member: string) {
  expect((await op.postCheckin(t, n, member)).statusCode).toBe(201);
  expect((await op.validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);
}

/** A refused check-in: 409 checkin.daily-limit, and nothing written. */
async function expectRefused(t: TestApp, n: op.Network, member: string, checkedInAt?: string) {
  const before = await op.wholeStore(t);
  expectReply(await op.postCheckin(t, n, member, checkedInAt), 409, DAILY_LIMIT);
  expect(await op.wholeStore(t)).toEqual(before);
}

describe.each(dialects)('daily visit limit, default 1 per member·gym·UTC day (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when the member has a validated visit today, then a new check-in that day is 409 checkin.daily-limit; another gym or member is not affected', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const otherGym = await op.createProduct(t, (await op.createGym(t, n.partner.id)).id);
    const member = platformId();
    await visit(t, n, member);

    await expectRefused(t, n, member);
    await expectRefused(t, n, member, '2026-03-02T12:04:59.999Z');
    await expectRefused(t, n, member, '2026-03-01T23:59:59.999Z');
    await op.createCheckin(t, otherGym, { platform_id: member });
    expect((await op.postCheckin(t, n, platformId())).statusCode).toBe(201);
    t.clock.set('2026-03-03T00:00:00Z');
    expect((await op.postCheckin(t, n, member, '2026-03-02T23:59:00Z')).statusCode).toBe(201);
  });

  test('when the member’s check-ins that day are pending, cancelled or expired, then they do not count: new check-ins are accepted and the latest validates', async () => {
    const t = app();
    const { n, member } = await arrangeMember(t);
    const expired = await op.createCheckin(t, n.product, {
      platform_id: member,
      checked_in_at: '2026-03-02T08:00:00Z',
    });
    const cancelled = await op.createCheckin(t, n.product, {
      platform_id: member,
      checked_in_at: '2026-03-02T09:00:00Z',
    });
    await op.admin(t, 'POST', `/checkins/${cancelled.id}/cancel`);
    await op.createCheckin(t, n.product, { platform_id: member });

    const replacing = await op.postCheckin(t, n, member);
    const validated = await op.validate(t, n.key.key, n.gym.id, member);

    expect([replacing.statusCode, validated.statusCode]).toEqual([201, 200]);
    expect(expired.status).toBe('expired');
    await expectRefused(t, n, member);
    await expectLedgerInvariants(t.store);
  });

  test('when two visits fall at 02:30Z and 03:30Z, then in UTC they are the same day: the second is refused', async () => {
    const t = app();
    const { n, member } = await visitedAt(t, '2026-03-02T02:30:00Z');
    t.clock.set('2026-03-02T03:30:00Z');

    await expectRefused(t, n, member);
  });
});

describe.each(dialects)(
  'daily visit limit in GATEHOUSE_TIMEZONE=America/Sao_Paulo (UTC−3) (%s)',
  (dialect) => {
    const app = op.operatorApp({ dialect, env: { GATEHOUSE_TIMEZONE: 'America/Sao_Paulo' } });

    test('when visits fall at 02:30Z (23:30 local, 1 March) and 03:30Z (00:30 local, 2 March), then both are accepted: different local days', async () => {
      const t = app();
      const { n, member } = await visitedAt(t, '2026-03-02T02:30:00Z');
      t.clock.set('2026-03-02T03:30:00Z');

      const second = await op.postCheckin(t, n, member);
      const validated = await op.validate(t, n.key.key, n.gym.id, member);

      expect([second.statusCode, validated.statusCode]).toEqual([201, 200]);
      await expectLedgerInvariants(t.store);
    });

    test('when the member visited at 02:30Z on 2 March (local 1 March), then check-ins created until 02:59:59.999Z are refused whatever their checked_in_at, and one created at 03:00Z (local midnight) is accepted', async () => {
      const t = app();
      const { n, member } = await visitedAt(t, '2026-03-02T02:30:00Z');

      t.clock.set('2026-03-02T02:59:59.999Z');
      await expectRefused(t, n, member);
      await expectRefused(t, n, member, '2026-03-02T03:00:00Z');
      await expectRefused(t, n, member, '2026-03-01T03:00:00Z');
      t.clock.set('2026-03-02T03:00:00Z');
      expect((await op.postCheckin(t, n, member, '2026-03-02T02:59:00Z')).statusCode).toBe(201);
    });
  },
);

describe.each(dialects)('daily visit limit 0 = unlimited (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, env: { GATEHOUSE_DAILY_VISIT_LIMIT: '0' } });

  test('when GATEHOUSE_DAILY_VISIT_LIMIT is 0, then a member may be validated three times at one gym in a day', async () => {
    const t = app();
    const { n, member } = await arrangeMember(t);

    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(60_000);
      await visit(t, n, member);
    }

    const transactions = await t.store.db
      .selectFrom('transactions')
      .select('id')
      .where('platform_id', '=', member)
      .execute();
    expect(transactions).toHaveLength(3);
    await expectLedgerInvariants(t.store);
  });
});

describe.each(dialects)('daily visit limit 2 (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, env: { GATEHOUSE_DAILY_VISIT_LIMIT: '2' } });

  test('when GATEHOUSE_DAILY_VISIT_LIMIT is 2, then the third check-in of a day is refused after two validated visits', async () => {
    const t = app();
    const { n, member } = await arrangeMember(t);
    await visit(t, n, member);
    t.clock.advance(60_000);
    await visit(t, n, member);

    await expectRefused(t, n, member);
  });
});

describe.each(dialects)('daily visit limit by each gym’s own time zone (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a gym is in America/Sao_Paulo on a UTC server, then its local midnight (03:00Z) starts a new day for the limit, and the UTC gym next door keeps the UTC day', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const made = await op.admin(t, 'POST', '/gyms', {
      partner_id: n.partner.id,
      name: 'Paulista',
      timezone: 'america/sao_paulo',
    });
    expect(made.json()).toMatchObject({ timezone: 'America/Sao_Paulo', retired_at: null });
    const local = { ...n, gym: made.json<{ id: number }>() };
    local.product = await op.createProduct(t, local.gym.id);
    const member = platformId();
    t.clock.set('2026-03-02T02:30:00Z');
    await visit(t, local, member);
    await visit(t, n, member);
    t.clock.set('2026-03-02T03:30:00Z');

    await expectRefused(t, n, member);
    await visit(t, local, member);
    await expectLedgerInvariants(t.store);
  });

  test('when a gym names an unknown time zone or a bare offset, then 400 timezone and no gym', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const before = await op.wholeStore(t);
    for (const timezone of ['Mars/Olympus_Mons', '+03:00', '']) {
      const response = await op.admin(t, 'POST', '/gyms', { partner_id: n.partner.id, name: 'X', timezone });
      expect(response.statusCode, timezone).toBe(400);
      expect(response.json<{ errors: { key: string }[] }>().errors[0]?.key).toBe('timezone');
    }
    expect(await op.wholeStore(t)).toEqual(before);
  });
});
