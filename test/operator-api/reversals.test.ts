import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';

type Network = Awaited<ReturnType<typeof op.arrangeNetwork>>;

/** A validated visit at the network's gym (1250 BRL cents): its transaction as the admin ledger shows it. */
async function visit(t: TestApp, n: Network) {
  const checkin = await op.createCheckin(t, n.product, { platform_id: platformId() });
  expect((await op.validate(t, n.key.key, n.gym.id, checkin.platform_id)).statusCode).toBe(200);
  const ledger = await op.admin(t, 'GET', `/transactions?gym_id=${n.gym.id}`);
  const items = ledger.json<{ items: { id: number; checkin_id: number }[] }>().items;
  const transaction = items.find((item) => item.checkin_id === checkin.id);
  if (transaction === undefined) throw new Error('the visit has no transaction');
  return { checkin, transactionId: transaction.id };
}

const reverse = (t: TestApp, id: number, body: unknown) =>
  op.admin(t, 'POST', `/transactions/${id}/reversals`, body);

describe.each(dialects)('operator API: reversals of a visit (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a visit is reversed, then 201 the negative entry, the ledger and the partner feed show it with its reason, payouts net to zero, and it is logged and audited', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const { checkin, transactionId } = await visit(t, n);
    t.clock.advance(60_000);

    const response = await reverse(t, transactionId, { reason: 'wrong member' });

    const id = response.json<{ id: number }>().id;
    expectReply(response, 201, {
      id,
      transaction_id: transactionId,
      kind: 'reversal',
      amount_cents: -1250,
      currency: 'BRL',
      reason: 'wrong member',
      effective_at: '2026-03-02T12:01:00.000Z',
      created_by: 'operator',
    });
    expect(id).toBeGreaterThan(transactionId);
    // The entry as the partner's feed shows it; the operator's ledger names the partner, gym and product by id.
    const seenByPartner = {
      kind: 'reversal',
      checkin_id: checkin.id,
      platform_id: checkin.platform_id,
      payout_cents: -1250,
      currency: 'BRL',
      validated_at: '2026-03-02T12:00:00Z',
      effective_at: '2026-03-02T12:01:00Z',
      reverses: transactionId,
      reason: 'wrong member',
      // A reversal is priced as what it takes back, under the rule of the visit it reverses.
      pricing: { list_cents: -1250, paid_cents: -1250, rule: 'list', version: null },
    };
    const entry = { ...seenByPartner, partner_id: n.partner.id, gym_id: n.gym.id, product_id: n.product.id };
    const ledger = await op.admin(t, 'GET', `/transactions?gym_id=${n.gym.id}`);
    expect(ledger.json<{ items: unknown[] }>().items).toEqual([
      {
        ...entry,
        id: transactionId,
        kind: 'visit',
        payout_cents: 1250,
        effective_at: '2026-03-02T12:00:00Z',
        reverses: null,
        reason: null,
        pricing: { list_cents: 1250, paid_cents: 1250, rule: 'list', version: null },
        // The operator's ledger marks the visit with what its reversals took back.
        reversed_cents: 1250,
      },
      { ...entry, id },
    ]);
    const payouts = await op.admin(t, 'GET', `/payouts?from=2026-03-02&to=2026-03-03&gym_id=${n.gym.id}`);
    expectReply(payouts, 200, {
      items: [
        {
          partner_id: n.partner.id,
          gym_id: n.gym.id,
          currency: 'BRL',
          count: 1,
          reversals: 1,
          payout_cents: 0,
        },
      ],
      next_cursor: null,
    });
    const feed = await op.partnerTransactions(t, n.key.key, n.gym.id);
    expect(feed.json<{ results: unknown[] }>().results[1]).toEqual({
      ...seenByPartner,
      id,
      product: { Id: n.product.id, description: n.product.description },
    });
    const events = await t.store.db
      .selectFrom('events')
      .select(['type', 'partner_id', 'gym_id', 'data'])
      .where('type', '=', 'transaction.reversed')
      .where('gym_id', '=', n.gym.id)
      .execute();
    expect(events.map((event) => ({ ...event, data: JSON.parse(event.data ?? 'null') as unknown }))).toEqual([
      {
        type: 'transaction.reversed',
        partner_id: n.partner.id,
        gym_id: n.gym.id,
        data: {
          id,
          transaction_id: transactionId,
          checkin_id: checkin.id,
          platform_id: checkin.platform_id,
          gym_id: n.gym.id,
          payout_cents: -1250,
          currency: 'BRL',
          reason: 'wrong member',
          effective_at: '2026-03-02T12:01:00.000Z',
        },
      },
    ]);
    const audit = await t.store.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'entity', 'entity_id'])
      .where('entity', '=', 'transaction')
      .where('entity_id', '=', String(transactionId))
      .execute();
    expect(audit).toEqual([
      { actor: 'operator', action: 'reverse', entity: 'transaction', entity_id: String(transactionId) },
    ]);
  });

  test('when a visit is reversed in parts, then each part is an entry until the amount is used up, and one more is 409 transaction.over-reversed with nothing written', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const { transactionId } = await visit(t, n);

    const first = await reverse(t, transactionId, { reason: 'disputed', amount_cents: 1000 });
    const tooMuch = await reverse(t, transactionId, { reason: 'disputed', amount_cents: 251 });
    const rest = await reverse(t, transactionId, { reason: 'disputed' });
    const before = await op.wholeStore(t);
    const again = await reverse(t, transactionId, { reason: 'disputed' });

    expect(first.json()).toMatchObject({ amount_cents: -1000 });
    expectReply(
      tooMuch,
      409,
      errorEnvelope(
        'transaction.over-reversed',
        'the reversals would exceed the transaction: 250 cents are left',
      ),
    );
    expect(rest.json()).toMatchObject({ amount_cents: -250 });
    expectReply(
      again,
      409,
      errorEnvelope(
        'transaction.over-reversed',
        'the reversals would exceed the transaction: 0 cents are left',
      ),
    );
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when a reversal names no transaction, a reversal, no reason or a bad amount, then a clear error and nothing written', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const { transactionId } = await visit(t, n);
    const reversal = (await reverse(t, transactionId, { reason: 'r', amount_cents: 1 })).json<{
      id: number;
    }>();
    const before = await op.wholeStore(t);

    expectReply(
      await reverse(t, 999_999, { reason: 'x' }),
      404,
      errorEnvelope('transaction.not-found', 'transaction not found'),
    );
    expectReply(
      await reverse(t, reversal.id, { reason: 'x' }),
      404,
      errorEnvelope('transaction.not-found', 'transaction not found'),
    );
    expectReply(await reverse(t, transactionId, {}), 400, errorEnvelope('reason', 'is required'));
    expectReply(
      await reverse(t, transactionId, { reason: '   ' }),
      400,
      errorEnvelope('reason', 'must not be blank'),
    );
    expectReply(
      await reverse(t, transactionId, { reason: 'x'.repeat(501) }),
      400,
      errorEnvelope('reason', 'must NOT have more than 500 characters'),
    );
    expectReply(
      await reverse(t, transactionId, { reason: 'x', amount_cents: 0 }),
      400,
      errorEnvelope('amount_cents', 'must be >= 1'),
    );

    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when visits are validated after a reversal, then their ids come after it: no two entries share an id', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const { transactionId } = await visit(t, n);
    const reversal = (await reverse(t, transactionId, { reason: 'r' })).json<{ id: number }>();

    const later = await visit(t, n);

    expect(later.transactionId).toBeGreaterThan(reversal.id);
    const ids = (await op.admin(t, 'GET', '/transactions?limit=1000')).json<{ items: { id: number }[] }>()
      .items;
    expect(new Set(ids.map((item) => item.id)).size).toBe(ids.length);
  });
});
