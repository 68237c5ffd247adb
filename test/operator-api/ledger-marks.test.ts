import { describe, expect, test } from 'vitest';
import { dialects } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply, expectReplyNoWrite } from '../fixtures/partner-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';

/** A visit's row as the operator's ledger lists it (1250 BRL cents, priced at list, validated at T0). */
function visitRow(
  n: { partner: { id: number }; gym: { id: number }; product: { id: number } },
  visit: { transactionId: number; checkin: { id: number; platform_id: string } },
  payout = 1250,
) {
  return {
    id: visit.transactionId,
    kind: 'visit',
    checkin_id: visit.checkin.id,
    partner_id: n.partner.id,
    gym_id: n.gym.id,
    product_id: n.product.id,
    platform_id: visit.checkin.platform_id,
    payout_cents: payout,
    currency: 'BRL',
    validated_at: '2026-03-02T12:00:00Z',
    effective_at: '2026-03-02T12:00:00Z',
    reverses: null,
    reason: null,
    pricing: { list_cents: payout, paid_cents: payout, rule: 'list', version: null },
  };
}

const PERIOD = 'from=2026-03-02&to=2026-03-03';

describe.each(dialects)('operator API: sandbox rows and reversed visits in the ledger (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when visits are reversed wholly and in part, then the ledger marks each with what was taken back, and a visit never reversed carries no mark', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const whole = await op.validatedVisit(t, n);
    const part = await op.validatedVisit(t, n);
    const kept = await op.validatedVisit(t, n);
    const reverse = (id: number, body: unknown) => op.admin(t, 'POST', `/transactions/${id}/reversals`, body);
    expect((await reverse(whole.transactionId, { reason: 'wrong member' })).statusCode).toBe(201);
    expect((await reverse(part.transactionId, { reason: 'late', amount_cents: 300 })).statusCode).toBe(201);
    expect((await reverse(part.transactionId, { reason: 'later', amount_cents: 200 })).statusCode).toBe(201);

    const ledger = await op.admin(t, 'GET', `/transactions?gym_id=${n.gym.id}&${PERIOD}`);

    const items = ledger.json<{ items: { kind: string }[] }>().items;
    expect(items.filter((item) => item.kind === 'visit')).toEqual([
      { ...visitRow(n, whole), reversed_cents: 1250 },
      { ...visitRow(n, part), reversed_cents: 500 },
      visitRow(n, kept),
    ]);
    expect(items.filter((item) => item.kind === 'reversal')).toHaveLength(3);
  });

  test("when the ledger is exported, then sandbox visits are left out unless include_sandbox=true asks for them, and then every row and the CSV say which are sandbox, as the sandbox's own listing does", async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const live = await op.validatedVisit(t, n);
    const lab = await op.arrangeSandboxNetwork(t);
    const checkin = await op.createCheckin(t, lab.product);
    expect((await op.validate(t, lab.key.key, lab.gym.id, checkin.platform_id)).statusCode).toBe(200);
    const stored = await t.store.db
      .selectFrom('transactions')
      .select('id')
      .where('checkin_id', '=', checkin.id)
      .executeTakeFirstOrThrow();
    const partners = `${PERIOD}&order=asc&limit=1000`;
    const mine = (items: { partner_id: number }[]) =>
      items.filter((item) => [n.partner.id, lab.partner.id].includes(item.partner_id));
    const sandboxRow = visitRow(lab, { transactionId: Number(stored.id), checkin }, 900);

    const byDefault = await op.admin(t, 'GET', `/transactions?${partners}`);
    const both = await op.admin(t, 'GET', `/transactions?${partners}&include_sandbox=true`);
    const apart = await op.admin(t, 'GET', `/transactions?${partners}&sandbox=true`);

    expect(mine(byDefault.json<{ items: { partner_id: number }[] }>().items)).toEqual([visitRow(n, live)]);
    expect(mine(both.json<{ items: { partner_id: number }[] }>().items)).toEqual([
      { ...visitRow(n, live), sandbox: false },
      { ...sandboxRow, sandbox: true },
    ]);
    expect(mine(apart.json<{ items: { partner_id: number }[] }>().items)).toEqual([
      { ...sandboxRow, sandbox: true },
    ]);

    const header =
      'id,kind,checkin_id,partner_id,gym_id,product_id,platform_id,payout_cents,currency,validated_at,' +
      'effective_at,reverses,reason,list_cents,pricing_rule,pricing_version';
    const csv = async (query: string) => {
      const response = await op.admin(t, 'GET', `/transactions?${PERIOD}&format=csv${query}`);
      const [head = '', ...lines] = response.body.trim().split(/\r?\n/);
      const ours = lines.filter((line) => [live.checkin.id, checkin.id].includes(Number(line.split(',')[2])));
      const file = /filename="([^"]+)"/.exec(String(response.headers['content-disposition']))?.[1];
      return { status: response.statusCode, file, head, ours };
    };
    const liveLine = `${live.transactionId},visit,${live.checkin.id},${n.partner.id},${n.gym.id},${n.product.id},${live.checkin.platform_id},1250,BRL,2026-03-02T12:00:00Z,2026-03-02T12:00:00Z,,,1250,list,`;
    const labLine = `${sandboxRow.id},visit,${checkin.id},${lab.partner.id},${lab.gym.id},${lab.product.id},${checkin.platform_id},900,BRL,2026-03-02T12:00:00Z,2026-03-02T12:00:00Z,,,900,list,`;
    expect(await csv('')).toEqual({ status: 200, file: 'transactions.csv', head: header, ours: [liveLine] });
    expect(await csv('&include_sandbox=true')).toEqual({
      status: 200,
      file: 'transactions.csv',
      head: `${header},sandbox`,
      ours: [`${liveLine},false`, `${labLine},true`],
    });
    // The sandbox's own listing, as its JSON rows do, says so on each row, in a file named so.
    expect(await csv('&sandbox=true')).toEqual({
      status: 200,
      file: 'sandbox-transactions.csv',
      head: `${header},sandbox`,
      ours: [`${labLine},true`],
    });

    // Payouts never count the sandbox, whatever is asked.
    const payouts = await op.admin(t, 'GET', `/payouts?${PERIOD}&partner_id=${lab.partner.id}`);
    expectReply(payouts, 200, { items: [], next_cursor: null });
  });

  test('when include_sandbox is combined with sandbox=true or is not a boolean, then 400 says so and nothing is written', async () => {
    const t = app();
    await expectReplyNoWrite(
      t,
      400,
      errorEnvelope('include_sandbox', 'lists live and sandbox entries together: leave out sandbox=true'),
      () => op.admin(t, 'GET', '/transactions?include_sandbox=true&sandbox=true'),
    );
    await expectReplyNoWrite(t, 400, errorEnvelope('include_sandbox', 'must be one of true, false'), () =>
      op.admin(t, 'GET', '/transactions?include_sandbox=yes&format=csv'),
    );
  });
});
