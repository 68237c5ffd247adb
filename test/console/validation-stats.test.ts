import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';

const HOUR = 3_600_000;

async function validateAt(t: TestApp, key: string, product: op.Product, offsetMs: number) {
  t.clock.set(op.T0_MS + offsetMs);
  const checkin = await op.createCheckin(t, product, { checked_in_at: op.at(offsetMs) });
  expect((await op.validate(t, key, product.gym_id, checkin.platform_id)).statusCode).toBe(200);
}

const brl = (cents: number) => [{ currency: 'BRL', payout_cents: cents }];

describe.each(dialects)('the chart figures, GET /admin/v1/stats/validations (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  /** Two gyms of one partner (BRL, then USD) and a stranger's gym, validated at known hours. */
  async function arrangeDay(t: TestApp) {
    const n = await op.arrangeNetwork(t, { payout_cents: 1250, currency: 'BRL' });
    const second = await op.createProduct(t, (await op.createGym(t, n.partner.id)).id, {
      payout_cents: 990,
      currency: 'USD',
    });
    const stranger = await op.arrangeNetwork(t, { payout_cents: 500, currency: 'BRL' });
    await validateAt(t, n.key.key, n.product, -1); // before the period
    await validateAt(t, n.key.key, n.product, 0);
    await validateAt(t, n.key.key, n.product, 10 * 60_000);
    await validateAt(t, n.key.key, second, HOUR + 5 * 60_000);
    await validateAt(t, stranger.key.key, stranger.product, HOUR + 6 * 60_000);
    await validateAt(t, n.key.key, n.product, 3 * HOUR); // at `to`: after the period
    return { n, second, stranger };
  }

  test('when the figures of three hours are asked, then each hour is counted and summed per currency, the empty one too, and per gym', async () => {
    const t = app();
    const { n, second, stranger } = await arrangeDay(t);

    const response = await op.admin(
      t,
      'GET',
      `/stats/validations?from=${op.at(0)}&to=${op.at(3 * HOUR)}&bucket=hour`,
    );

    expectReply(response, 200, {
      from: op.at(0),
      to: op.at(3 * HOUR),
      bucket: 'hour',
      count: 4,
      payouts: [...brl(3000), { currency: 'USD', payout_cents: 990 }],
      buckets: [
        { start: op.at(0), count: 2, payouts: brl(2500) },
        { start: op.at(HOUR), count: 2, payouts: [...brl(500), { currency: 'USD', payout_cents: 990 }] },
        { start: op.at(2 * HOUR), count: 0, payouts: [] },
      ],
      gyms: [
        { gym_id: n.gym.id, count: 2, payouts: brl(2500) },
        { gym_id: second.gym_id, count: 1, payouts: [{ currency: 'USD', payout_cents: 990 }] },
        { gym_id: stranger.gym.id, count: 1, payouts: brl(500) },
      ].sort((a, b) => a.gym_id - b.gym_id),
    });
  });

  test('when the figures are asked by day for one partner, or for one gym, then only theirs are counted', async () => {
    const t = app();
    const { n, stranger } = await arrangeDay(t);
    const day = `from=${op.at(-12 * HOUR)}&to=${op.at(12 * HOUR)}&bucket=day`;

    const partner = await op.admin(t, 'GET', `/stats/validations?${day}&partner_id=${stranger.partner.id}`);
    const gym = await op.admin(t, 'GET', `/stats/validations?${day}&gym_id=${n.gym.id}`);

    /** The day's stats when one gym made every visit. */
    const oneGymDay = (gymId: number, count: number, cents: number) => ({
      from: op.at(-12 * HOUR),
      to: op.at(12 * HOUR),
      bucket: 'day',
      count,
      payouts: brl(cents),
      buckets: [{ start: op.at(-12 * HOUR), count, payouts: brl(cents) }],
      gyms: [{ gym_id: gymId, count, payouts: brl(cents) }],
    });
    expectReply(partner, 200, oneGymDay(stranger.gym.id, 1, 500));
    expectReply(gym, 200, oneGymDay(n.gym.id, 4, 5000));
  });

  test("when a sandbox partner's visits are validated, then the figures leave them out, even asked for that partner", async () => {
    const t = app();
    const live = await op.arrangeNetwork(t, { payout_cents: 700, currency: 'BRL' });
    const partner = op.ok<op.Partner>(
      await op.admin(t, 'POST', '/partners', { name: 'Acme Sandbox', sandbox: true }),
      201,
    );
    const gym = await op.createGym(t, partner.id);
    const product = await op.createProduct(t, gym.id, { payout_cents: 3000, currency: 'BRL' });
    const key = await op.issueKey(t, partner.id, { label: 'tests' });
    await validateAt(t, live.key.key, live.product, 0);
    await validateAt(t, key.key, product, 60_000);
    await validateAt(t, key.key, product, 120_000);
    const day = `from=${op.at(-12 * HOUR)}&to=${op.at(12 * HOUR)}&bucket=day`;

    const all = await op.admin(t, 'GET', `/stats/validations?${day}`);
    const sandbox = await op.admin(t, 'GET', `/stats/validations?${day}&partner_id=${partner.id}`);

    expectReply(all, 200, {
      from: op.at(-12 * HOUR),
      to: op.at(12 * HOUR),
      bucket: 'day',
      count: 1,
      payouts: brl(700),
      buckets: [{ start: op.at(-12 * HOUR), count: 1, payouts: brl(700) }],
      gyms: [{ gym_id: live.gym.id, count: 1, payouts: brl(700) }],
    });
    expectReply(sandbox, 200, {
      from: op.at(-12 * HOUR),
      to: op.at(12 * HOUR),
      bucket: 'day',
      count: 0,
      payouts: [],
      buckets: [{ start: op.at(-12 * HOUR), count: 0, payouts: [] }],
      gyms: [],
    });
  });

  test.each([
    [`from=${op.at(HOUR)}&to=${op.at(0)}`, errorEnvelope('to', 'must be after from')],
    [`from=${op.at(0)}&to=${op.at(0)}`, errorEnvelope('to', 'must be after from')],
    [
      `from=2026-01-01&to=2026-03-01&bucket=hour`,
      errorEnvelope('to', 'the period must hold at most 1000 buckets of one hour'),
    ],
    [`from=yesterday&to=${op.at(0)}`, errorEnvelope('from', 'must be an ISO-8601 date or date-time')],
    [`from=${op.at(0)}&to=${op.at(HOUR)}&bucket=week`, errorEnvelope('bucket', 'must be one of hour, day')],
    [`to=${op.at(HOUR)}`, errorEnvelope('from', 'is required')],
  ])(
    'when the figures are asked with %s, then 400 naming the field, and nothing changes',
    async (query, body) => {
      const t = app();
      await op.arrangeNetwork(t);
      const before = await op.wholeStore(t);

      expectReply(await op.admin(t, 'GET', `/stats/validations?${query}`), 400, body);
      expect(await op.wholeStore(t)).toEqual(before);
    },
  );
});
