import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope, EXPLICIT_DENY } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

interface AdminTransaction {
  id: number;
  checkin_id: number;
}

/** A partner with two gyms and visits at both, and another partner with a visit: only one gym's are asked for. */
async function arrangeVisits(t: TestApp) {
  const mine = await op.arrangeNetwork(t, { payout_cents: 1250, currency: 'BRL', description: 'Black plan' });
  const sibling = await op.createProduct(t, (await op.createGym(t, mine.partner.id)).id, {
    payout_cents: 700,
  });
  const theirs = await op.arrangeNetwork(t);
  const visited: op.Checkin[] = [];
  const visit = async (key: string, product: op.Product) => {
    t.clock.advance(1999); // validated_at keeps whole seconds only: 12:00:01.999 → 12:00:01Z
    const checkin = await op.createCheckin(t, product);
    expect((await op.validate(t, key, product.gym_id, checkin.platform_id)).statusCode).toBe(200);
    return checkin;
  };
  visited.push(await visit(mine.key.key, mine.product));
  await visit(mine.key.key, sibling);
  await visit(theirs.key.key, theirs.product);
  visited.push(await visit(mine.key.key, mine.product));
  const ledger = JSON.parse((await op.admin(t, 'GET', `/transactions?gym_id=${mine.gym.id}`)).body) as {
    items: AdminTransaction[];
  };
  const result = (checkin: op.Checkin, validatedAt: string) => ({
    id: ledger.items.find((item) => item.checkin_id === checkin.id)?.id,
    kind: 'visit',
    checkin_id: checkin.id,
    platform_id: checkin.platform_id,
    product: { Id: mine.product.id, description: 'Black plan' },
    payout_cents: 1250,
    currency: 'BRL',
    validated_at: validatedAt,
    effective_at: validatedAt,
    reverses: null,
    reason: null,
    pricing: { list_cents: 1250, paid_cents: 1250, rule: 'list', version: null },
  });
  const [first, second] = visited as [op.Checkin, op.Checkin];
  return {
    mine,
    theirs,
    results: [result(first, '2026-03-02T12:00:01Z'), result(second, '2026-03-02T12:00:07Z')],
  };
}

describe.each(dialects)('partner API extension: GET /access/v1/transactions (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a gym asks for its transactions, then only its own validated visits come, in the envelope, validated_at to the second', async () => {
    const t = app();
    const { mine, results } = await arrangeVisits(t);

    const response = await op.partnerTransactions(t, mine.key.key, mine.gym.id);

    expectReply(response, 200, {
      metadata: { total: 2, errors: 0 },
      results,
      next_cursor: op.A_CURSOR,
      has_more: false,
    });
    expect(results.map((result) => result.id)).toEqual([expect.any(Number), expect.any(Number)]);
  });

  test('when asked with limit=1, then next_cursor leads to the second visit, and the last page says has_more false', async () => {
    const t = app();
    const { mine, results } = await arrangeVisits(t);

    const first = await op.partnerTransactions(t, mine.key.key, mine.gym.id, '?limit=1');
    const cursor = (JSON.parse(first.body) as { next_cursor: string }).next_cursor;
    const second = await op.partnerTransactions(t, mine.key.key, mine.gym.id, `?limit=1&cursor=${cursor}`);
    const last = (JSON.parse(second.body) as { next_cursor: string }).next_cursor;
    const after = await op.partnerTransactions(t, mine.key.key, mine.gym.id, `?limit=1&cursor=${last}`);

    expectReply(first, 200, {
      metadata: { total: 1, errors: 0 },
      results: [results[0]],
      next_cursor: op.A_CURSOR,
      has_more: true,
    });
    expectReply(second, 200, {
      metadata: { total: 1, errors: 0 },
      results: [results[1]],
      next_cursor: op.A_CURSOR,
      has_more: false,
    });
    // Polled again from the last cursor: nothing new yet, and the same place to come back to.
    expectReply(after, 200, {
      metadata: { total: 0, errors: 0 },
      results: [],
      next_cursor: last,
      has_more: false,
    });
  });

  test('when a partner polls from the last cursor after more visits, then it gets exactly the new ones', async () => {
    const t = app();
    const { mine } = await arrangeVisits(t);
    const whole = await op.partnerTransactions(t, mine.key.key, mine.gym.id);
    const cursor = (JSON.parse(whole.body) as { next_cursor: string }).next_cursor;

    const checkin = await op.createCheckin(t, mine.product);
    expect((await op.validate(t, mine.key.key, mine.gym.id, checkin.platform_id)).statusCode).toBe(200);
    const polled = await op.partnerTransactions(t, mine.key.key, mine.gym.id, `?cursor=${cursor}`);

    const body = JSON.parse(polled.body) as { results: { checkin_id: number }[]; has_more: boolean };
    expect(polled.statusCode).toBe(200);
    expect(body.results.map((row) => row.checkin_id)).toEqual([checkin.id]);
    expect(body.has_more).toBe(false);
  });

  test('when from and to are the exact instant of a visit, then from includes it and to excludes it', async () => {
    const t = app();
    const { mine, results } = await arrangeVisits(t);

    const from = await op.partnerTransactions(t, mine.key.key, mine.gym.id, '?from=2026-03-02T12:00:07.996Z');
    const to = await op.partnerTransactions(t, mine.key.key, mine.gym.id, '?to=2026-03-02T12:00:07.996Z');
    const none = await op.partnerTransactions(t, mine.key.key, mine.gym.id, '?from=2026-03-03');

    const page = (rows: unknown[]) => ({
      metadata: { total: rows.length, errors: 0 },
      results: rows,
      next_cursor: op.A_CURSOR,
      has_more: false,
    });
    expectReply(from, 200, page([results[1]]));
    expectReply(to, 200, page([results[0]]));
    expectReply(none, 200, page([]));
  });

  test('when another partner’s key asks for this gym, then 403 explicit deny; without a bearer, 401', async () => {
    const t = app();
    const { mine, theirs } = await arrangeVisits(t);

    const foreign = await op.partnerTransactions(t, theirs.key.key, mine.gym.id);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: '/access/v1/transactions',
      headers: { 'x-gym-id': String(mine.gym.id) },
    });

    expectReply(foreign, 403, EXPLICIT_DENY);
    expectReply(anonymous, 401, { message: 'Unauthorized' });
  });

  test.each([
    ['?cursor=bogus', 'cursor', 'is not a cursor this API returned'],
    ['?limit=0', 'limit', 'must be an integer from 1 to 1000'],
    ['?limit=1001', 'limit', 'must be an integer from 1 to 1000'],
    ['?from=noon', 'from', 'must be an ISO-8601 date or date-time'],
    ['?from=2026-03-02&to=2026-03-01', 'to', 'must be later than from'],
  ])('when asked with %s, then 400 envelope key %s', async (query, key, message) => {
    const t = app();
    const n = await op.arrangeNetwork(t);

    expectReply(
      await op.partnerTransactions(t, n.key.key, n.gym.id, query),
      400,
      errorEnvelope(key, message),
    );
  });
});
