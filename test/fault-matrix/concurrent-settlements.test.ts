import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { admin, arrangeNetwork, createCheckin, operatorApp, validate } from '../fixtures/operator-api.js';

type Network = Awaited<ReturnType<typeof arrangeNetwork>>;

async function visits(t: TestApp, n: Network, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const checkin = await createCheckin(t, n.product, { platform_id: platformId() });
    expect((await validate(t, n.key.key, n.gym.id, checkin.platform_id)).statusCode).toBe(200);
  }
}

/** Every entry is in at most one settlement, and each settlement's totals are its entries'. */
async function expectSettledOnce(t: TestApp): Promise<void> {
  const rows = await t.store.db
    .selectFrom('settlement_entries')
    .select(['entry_id', 'settlement_id'])
    .execute();
  expect(new Set(rows.map((row) => row.entry_id)).size).toBe(rows.length);
  const settlements = await t.store.db.selectFrom('settlements').select(['id', 'count']).execute();
  for (const settlement of settlements) {
    expect(rows.filter((row) => Number(row.settlement_id) === Number(settlement.id))).toHaveLength(
      Number(settlement.count),
    );
  }
}

describe.each(dialects)('closing periods concurrently (%s)', (dialect) => {
  const app = operatorApp({ dialect, perTest: true });

  test('when one period is closed twice at once, then both answers name the same settlements and every entry is settled once', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    await visits(t, n, 3);
    t.clock.set('2026-03-03T00:00:00Z');
    const body = { period_start: '2026-03-02', period_end: '2026-03-03' };

    const [first, second] = await Promise.all([
      admin(t, 'POST', '/settlements', body),
      admin(t, 'POST', '/settlements', body),
    ]);

    expect([first?.statusCode, second?.statusCode]).toEqual([201, 201]);
    expect(second?.json()).toEqual(first?.json());
    expect(await t.store.db.selectFrom('settlements').select('id').execute()).toHaveLength(1);
    await expectSettledOnce(t);
  });

  test('when two overlapping periods are closed at once, then one is closed and the other is 409 settlement.overlap', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    await visits(t, n, 3);
    t.clock.set('2026-03-03T00:00:00Z');

    const answers = await Promise.all([
      admin(t, 'POST', '/settlements', { period_start: '2026-03-02', period_end: '2026-03-03' }),
      admin(t, 'POST', '/settlements', { period_start: '2026-03-01', period_end: '2026-03-02T18:00:00Z' }),
    ]);

    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    expect(refused?.json<{ errors: { key: string }[] }>().errors[0]?.key).toBe('settlement.overlap');
    expect(await t.store.db.selectFrom('settlements').select('id').execute()).toHaveLength(1);
    await expectSettledOnce(t);
  });
});
