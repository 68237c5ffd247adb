import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, test } from 'vitest';
import { dialects } from '../fixtures/test-app.js';
import { asCsvRecord, mixedRun } from '../fixtures/ledger-run.js';
import { admin, operatorApp, type Product } from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';

type Run = Awaited<ReturnType<typeof mixedRun>>;
interface Line {
  partner_id: number;
  gym_id: number;
  currency: string;
  count: number;
  reversals: number;
  payout_cents: number;
}

const DAY = 'from=2026-03-02&to=2026-03-03';

/** A payout line with no reversals. */
function payoutLine(
  partner_id: number,
  gym_id: number,
  currency: string,
  count: number,
  payout_cents: number,
): Line {
  return { partner_id, gym_id, currency, count, reversals: 0, payout_cents };
}

describe.each(dialects)('operator API: GET /admin/v1/payouts (%s)', (dialect) => {
  const app = operatorApp({ dialect });
  let run: Run;
  // The tests only read: one mixed run in a fresh store serves them all.
  beforeAll(async () => {
    run = await mixedRun(app());
  });

  const payouts = async (query: string) => {
    const response = await admin(app(), 'GET', `/payouts?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return (JSON.parse(response.body) as { items: Line[] }).items;
  };

  /** What the operator can add up by hand: the validated check-ins, priced by their product, per gym. */
  async function fromValidatedCheckins(): Promise<Line[]> {
    const t = app();
    const checkins = JSON.parse((await admin(t, 'GET', '/checkins?status=validated')).body) as {
      items: { gym_id: number; product_id: number }[];
    };
    const gyms = JSON.parse((await admin(t, 'GET', '/gyms')).body) as {
      items: { id: number; partner_id: number }[];
    };
    const lines = new Map<string, Line>();
    for (const checkin of checkins.items) {
      const products = JSON.parse((await admin(t, 'GET', `/gyms/${checkin.gym_id}/products`)).body) as {
        items: Product[];
      };
      const product = products.items.find((item) => item.id === checkin.product_id);
      const partnerId = gyms.items.find((gym) => gym.id === checkin.gym_id)?.partner_id ?? 0;
      const key = `${partnerId}/${checkin.gym_id}/${product?.currency}`;
      const line = lines.get(key) ?? {
        partner_id: partnerId,
        gym_id: checkin.gym_id,
        currency: product?.currency ?? '',
        count: 0,
        reversals: 0,
        payout_cents: 0,
      };
      lines.set(key, {
        ...line,
        count: line.count + 1,
        payout_cents: line.payout_cents + (product?.payout_cents ?? 0),
      });
    }
    return [...lines.values()].sort((x, y) => x.partner_id - y.partner_id || x.gym_id - y.gym_id);
  }

  test('when payouts are asked for the day of a mixed run, then one line per partner·gym·currency reconciles 1:1 with the validated check-ins, a 0 payout included', async () => {
    const response = await admin(app(), 'GET', `/payouts?${DAY}`);

    const expected = [
      payoutLine(run.a.partner.id, run.a.gym.id, 'BRL', 2, 2500),
      payoutLine(run.a.partner.id, run.free.gym_id, 'BRL', 1, 0),
      payoutLine(run.b.partner.id, run.b.gym.id, 'USD', 2, 1998),
    ];
    expectReply(response, 200, { items: expected, next_cursor: null });
    expect(await fromValidatedCheckins()).toEqual(expected);
    expect(expected.reduce((sum, line) => sum + line.count, 0)).toBe(run.visits.length);
  });

  test('when payouts are filtered by partner_id or gym_id, then only those lines come', async () => {
    expect(await payouts(`${DAY}&partner_id=${run.b.partner.id}`)).toEqual([
      payoutLine(run.b.partner.id, run.b.gym.id, 'USD', 2, 1998),
    ]);
    expect(await payouts(`${DAY}&gym_id=${run.free.gym_id}`)).toEqual([
      payoutLine(run.a.partner.id, run.free.gym_id, 'BRL', 1, 0),
    ]);
  });

  test('when the period ends before a visit (to exclusive) or holds none, then that visit is not paid', async () => {
    expect(await payouts('from=2026-03-02T12:00:01.250Z&to=2026-03-02T12:00:02.250Z')).toEqual([
      payoutLine(run.a.partner.id, run.a.gym.id, 'BRL', 1, 1250),
    ]);
    expect(await payouts('from=2026-03-01&to=2026-03-02')).toEqual([]);
  });

  test('when no period is given, then today (UTC here) is paid, as `gatehouse payouts` does; only from runs to the end of today, only to covers the day that ends there', async () => {
    const today = await payouts(DAY);

    const response = await admin(app(), 'GET', '/payouts');

    expectReply(response, 200, { items: today, next_cursor: null });
    expect(today).toHaveLength(3);
    const fromLater = await payouts('from=2026-03-02T12:00:02.250Z');
    expect(fromLater).toEqual(await payouts('from=2026-03-02T12:00:02.250Z&to=2026-03-03'));
    expect(fromLater).not.toEqual(today);
    expect(await payouts('to=2026-03-03')).toEqual(today);
    expect(await payouts('to=2026-03-02')).toEqual([]);
  });

  test('when format=csv, then the lines stream as text/csv and parse back to the JSON lines', async () => {
    const json = await payouts(DAY);

    const response = await admin(app(), 'GET', `/payouts?${DAY}&format=csv`);

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="payouts.csv"');
    expect(response.body.split('\n')[0]).toBe('partner_id,gym_id,currency,count,reversals,payout_cents');
    expect(parse(response.body, { columns: true })).toEqual(json.map((line) => asCsvRecord({ ...line })));
    expect(json).toHaveLength(3);
  });
});
