import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { expectLedgerInvariants } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import { admin, arrangeNetwork, createCheckin, operatorApp, validate } from '../fixtures/operator-api.js';

const REQUESTS = 12;

describe.each(dialects)('concurrent reversals of one transaction (%s)', (dialect) => {
  const app = operatorApp({ dialect });

  test('when reversals summing above the transaction arrive together, then at most its amount is reversed and the rest are 409 transaction.over-reversed', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const checkin = await createCheckin(t, n.product, { platform_id: platformId() });
    expect((await validate(t, n.key.key, n.gym.id, checkin.platform_id)).statusCode).toBe(200);
    const [transaction] = await t.store.db
      .selectFrom('transactions')
      .select(['id', 'payout_cents'])
      .where('checkin_id', '=', checkin.id)
      .execute();
    const id = Number(transaction?.id);

    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) =>
        admin(t, 'POST', `/transactions/${id}/reversals`, { reason: `race ${i}`, amount_cents: 300 }),
      ),
    );

    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(4).fill(201), ...Array<number>(REQUESTS - 4).fill(409)]);
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
      expect(refused.json<{ errors: { key: string }[] }>().errors[0]?.key).toBe('transaction.over-reversed');
    }
    const reversals = await t.store.db
      .selectFrom('reversals')
      .select('payout_cents')
      .where('transaction_id', '=', id)
      .execute();
    expect(reversals.map((row) => Number(row.payout_cents))).toEqual([-300, -300, -300, -300]);
    const events = await t.store.db
      .selectFrom('events')
      .select('position')
      .where('type', '=', 'transaction.reversed')
      .where('gym_id', '=', n.gym.id)
      .execute();
    expect(events).toHaveLength(4);
    await expectLedgerInvariants(t.store);
  });
});
