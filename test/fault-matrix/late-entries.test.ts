import { parse } from 'csv-parse/sync';
import { asCsvRecord } from '../fixtures/ledger-run.js';
import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';

interface Shown {
  id: number;
}
const close = (t: TestApp, body: Record<string, unknown>) => op.admin(t, 'POST', '/settlements', body);
const DAY_2 = { period_start: '2026-03-02', period_end: '2026-03-03' };
const DAY_3 = { period_start: '2026-03-03', period_end: '2026-03-04' };

/** A visit validated with the clock at `at`: one still being written when its period is closed looks like this. */
async function visitAt(t: TestApp, n: op.Network, at: string) {
  t.clock.set(at);
  const { checkin, transactionId } = await op.validatedVisit(t, n);
  return { checkin, id: transactionId, at: at.replace('.000Z', 'Z') };
}

/** An entry as the operator API lists a settlement's entries. */
function shownVisit(n: op.Network, visit: Awaited<ReturnType<typeof visitAt>>, late: boolean) {
  return {
    id: visit.id,
    kind: 'visit',
    checkin_id: visit.checkin.id,
    partner_id: n.partner.id,
    gym_id: n.gym.id,
    product_id: n.product.id,
    platform_id: visit.checkin.platform_id,
    payout_cents: n.product.payout_cents,
    currency: n.product.currency,
    validated_at: visit.at,
    effective_at: visit.at,
    reverses: null,
    reason: null,
    pricing: {
      list_cents: n.product.payout_cents,
      paid_cents: n.product.payout_cents,
      rule: 'list',
      version: null,
    },
    late,
  };
}

function settlement(n: op.Network, id: number, period: typeof DAY_2, cents: number, count: number) {
  return {
    id,
    partner_id: n.partner.id,
    currency: n.product.currency,
    period_start: `${period.period_start}T00:00:00.000Z`,
    period_end: `${period.period_end}T00:00:00.000Z`,
    status: 'closed',
    total_cents: cents,
    count,
    // No payout rules here: every entry is at its list price.
    lines: [
      {
        gym_id: n.gym.id,
        count,
        total_cents: cents,
        pricing: [{ rule: 'list', count, list_cents: cents, paid_cents: cents }],
      },
    ],
    paid_at: null,
    reference: null,
    created_by: 'operator',
    created_at: `${period.period_end}T00:00:00.000Z`,
  };
}

describe.each(dialects)(
  'late entries: a period closed while its visits and reversals are still written (%s)',
  (dialect) => {
    const app = op.operatorApp({ dialect, perTest: true });

    test('when entries of a closed period commit after its close, then the next close takes them, marked late with their own dates, a partner with only late entries included; older entries are never swept', async () => {
      const t = app();
      const a = await op.arrangeNetwork(t);
      const b = await op.arrangeNetwork(t, { payout_cents: 999, currency: 'USD' });
      const a1 = await visitAt(t, a, '2026-03-02T10:00:00.000Z');
      const b1 = await visitAt(t, b, '2026-03-02T11:00:00.000Z');
      t.clock.set('2026-03-03T00:00:00.000Z');
      const [s1, s2] = (await close(t, DAY_2)).json<{ items: Shown[] }>().items;

      // Committed after day 2 was closed, dated in it: a validation and a reversal that were in flight.
      const a2 = await visitAt(t, a, '2026-03-02T23:59:59.000Z');
      t.clock.set('2026-03-02T23:30:00.000Z');
      const reversal = await op.admin(t, 'POST', `/transactions/${b1.id}/reversals`, { reason: 'disputed' });
      // Older than A's first closed period: never swept.
      const a0 = await visitAt(t, a, '2026-03-01T09:00:00.000Z');
      const a3 = await visitAt(t, a, '2026-03-03T08:00:00.000Z');
      t.clock.set('2026-03-04T00:00:00.000Z');
      const response = await close(t, DAY_3);

      expect(reversal.statusCode).toBe(201);
      const reversalId = reversal.json<{ id: number }>().id;
      const [s3, s4] = response.json<{ items: Shown[] }>().items;
      expect([s1?.id, s2?.id]).toEqual([expect.any(Number), expect.any(Number)]);
      expectReply(response, 201, {
        items: [settlement(a, s3?.id ?? 0, DAY_3, 2500, 2), settlement(b, s4?.id ?? 0, DAY_3, -999, 1)],
        next_cursor: null,
      });
      const shownA = [shownVisit(a, a2, true), shownVisit(a, a3, false)];
      expectReply(await op.admin(t, 'GET', `/settlements/${s3?.id}/entries`), 200, {
        items: shownA,
        next_cursor: null,
      });
      expectReply(await op.admin(t, 'GET', `/settlements/${s4?.id}/entries`), 200, {
        items: [
          {
            ...shownVisit(b, b1, true),
            id: reversalId,
            kind: 'reversal',
            payout_cents: -999,
            effective_at: '2026-03-02T23:30:00Z',
            reverses: b1.id,
            reason: 'disputed',
            pricing: { list_cents: -999, paid_cents: -999, rule: 'list', version: null },
          },
        ],
        next_cursor: null,
      });
      const csv = await op.admin(t, 'GET', `/settlements/${s3?.id}/entries?format=csv`);
      // The CSV has the same entries, their pricing in three columns of its own.
      expect(parse(csv.body, { columns: true })).toEqual(shownA.map(asCsvRecord));
      const partnerView = await t.app.inject({
        method: 'GET',
        url: `/access/v1/settlements/${s3?.id}/entries`,
        headers: op.partnerHeaders(a.key.key, a.gym.id),
      });
      expectReply(partnerView, 200, {
        metadata: { total: 2, errors: 0 },
        results: [a2, a3].map((visit, index) => ({
          id: visit.id,
          kind: 'visit',
          checkin_id: visit.checkin.id,
          platform_id: visit.checkin.platform_id,
          product: { Id: a.product.id, description: a.product.description },
          payout_cents: 1250,
          currency: 'BRL',
          validated_at: visit.at,
          effective_at: visit.at,
          reverses: null,
          reason: null,
          pricing: { list_cents: 1250, paid_cents: 1250, rule: 'list', version: null },
          late: index === 0,
        })),
      });

      const held = await t.store.db
        .selectFrom('settlement_entries')
        .select(['entry_id', 'settlement_id'])
        .orderBy('entry_id')
        .execute();
      expect(held.map((row) => [Number(row.entry_id), Number(row.settlement_id)])).toEqual([
        [a1.id, s1?.id],
        [b1.id, s2?.id],
        [a2.id, s3?.id],
        [reversalId, s4?.id],
        [a3.id, s3?.id],
      ]);
      expect(held.map((row) => Number(row.entry_id))).not.toContain(a0.id);

      // Closing day 3 again answers the same settlements and sweeps nothing more.
      const before = await op.wholeStore(t);
      const again = await close(t, DAY_3);
      expectReply(again, 201, response.json());
      expect(await op.wholeStore(t)).toEqual(before);
    });
  },
);
