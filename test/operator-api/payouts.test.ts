import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, test } from 'vitest';
import { dialects } from '../fixtures/test-app.js';
import { asCsvRecord, mixedRun } from '../fixtures/ledger-run.js';
import {
  admin,
  arrangeSandboxNetwork,
  operatorApp,
  validatedVisit,
  type Network,
  type Product,
} from '../fixtures/operator-api.js';
import { expectReply, expectReplyNoWrite } from '../fixtures/partner-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';

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
  let lab: Network;
  // The tests only read: one mixed run in a fresh store serves them all, with a sandbox partner's two visits
  // the same day, which only sandbox=true sums.
  beforeAll(async () => {
    const t = app();
    run = await mixedRun(t);
    lab = await arrangeSandboxNetwork(t, { payout_cents: 900, currency: 'BRL' });
    t.clock.advance(1000);
    await validatedVisit(t, lab);
    t.clock.advance(1000);
    await validatedVisit(t, lab);
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

  test("when sandbox=true, then only the sandbox partner's visits are summed, each line flagged; without it or with sandbox=false, only the live partners'", async () => {
    const live = {
      items: [
        payoutLine(run.a.partner.id, run.a.gym.id, 'BRL', 2, 2500),
        payoutLine(run.a.partner.id, run.free.gym_id, 'BRL', 1, 0),
        payoutLine(run.b.partner.id, run.b.gym.id, 'USD', 2, 1998),
      ],
      next_cursor: null,
    };

    const apart = await admin(app(), 'GET', `/payouts?${DAY}&sandbox=true`);

    expectReply(apart, 200, {
      items: [{ ...payoutLine(lab.partner.id, lab.gym.id, 'BRL', 2, 1800), sandbox: true }],
      next_cursor: null,
    });
    expectReply(await admin(app(), 'GET', `/payouts?${DAY}`), 200, live);
    expectReply(await admin(app(), 'GET', `/payouts?${DAY}&sandbox=false`), 200, live);
    expectReply(
      await admin(app(), 'GET', `/payouts?${DAY}&sandbox=true&partner_id=${run.a.partner.id}`),
      200,
      {
        items: [],
        next_cursor: null,
      },
    );
  });

  test('when sandbox=true with format=csv, then the sandbox lines stream with a sandbox column, in a file named so', async () => {
    const response = await admin(app(), 'GET', `/payouts?${DAY}&sandbox=true&format=csv`);

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="sandbox-payouts.csv"');
    expect(response.body.trim().split(/\r?\n/)).toEqual([
      'partner_id,gym_id,currency,count,reversals,payout_cents,sandbox',
      `${lab.partner.id},${lab.gym.id},BRL,2,0,1800,true`,
    ]);
  });

  test('when sandbox is not true or false, then 400 says so and nothing is written', async () => {
    const t = app();
    await expectReplyNoWrite(t, 400, errorEnvelope('sandbox', 'must be one of true, false'), () =>
      admin(t, 'GET', `/payouts?${DAY}&sandbox=yes`),
    );
    await expectReplyNoWrite(t, 400, errorEnvelope('sandbox', 'must be one of true, false'), () =>
      admin(t, 'GET', `/payouts?${DAY}&sandbox=yes&format=csv`),
    );
  });
});
