import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { arrangePartner, platformId } from '../../fixtures/factories.js';
import {
  cliOn,
  csvOf,
  expectSuccess,
  openPartnerApi,
  useTempDir,
  type PartnerApi,
} from '../../fixtures/processes/cli.js';

const tempDir = useTempDir();
const ONE_DAY_MS = 86_400_000;
const day = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 10);
const NOTE_TAIL = '(the end excluded; days in UTC); choose another period with --from and --to\n';

describe('export periods: today by default, and a note when a period holds nothing', () => {
  let api: PartnerApi;
  let cli: ReturnType<typeof cliOn>;
  let arranged: Awaited<ReturnType<typeof arrangePartner>>;
  beforeAll(async () => {
    const url = `sqlite:${join(tempDir(), 'periods.db')}`;
    cli = cliOn(url);
    expectSuccess(await cli(['migrate']));
    api = await openPartnerApi(url);
    arranged = await arrangePartner(api.services, { payoutCents: 1700 });
    const member = platformId();
    await api.services.checkins.create({
      platformId: member,
      gymId: arranged.gym.id,
      productId: arranged.product.id,
    });
    expect((await api.validate(arranged.key, arranged.gym.id, member)).status).toBe(200);
  });
  afterAll(() => api.close());

  test("when payouts and transactions are run without a period, then they cover today's visits", async () => {
    const gym = String(arranged.gym.id);

    const [payouts, transactions] = await Promise.all([
      cli(['payouts', '--gym', gym, '--format', 'csv']),
      cli(['transactions', '--gym', gym, '--format', 'csv']),
    ]);

    expect(csvOf(payouts)).toEqual([
      {
        partner_id: String(arranged.partner.id),
        gym_id: gym,
        currency: 'BRL',
        count: '1',
        reversals: '0',
        payout_cents: '1700',
      },
    ]);
    expect(csvOf(transactions)).toEqual([expect.objectContaining({ gym_id: gym, payout_cents: '1700' })]);
  });

  test('when a period holds no visit, then stdout has only the header and stderr says which period was empty', async () => {
    const result = await cli(['payouts', '--from', '2020-01-01', '--to', '2020-01-02', '--format', 'csv']);

    expect(result).toEqual({
      code: 0,
      stdout: 'partner_id,gym_id,currency,count,reversals,payout_cents\n',
      stderr: `gatehouse: no validated visits to pay from 2020-01-01T00:00:00Z to 2020-01-02T00:00:00Z ${NOTE_TAIL}`,
    });
  });

  test("when only --to is given, then the period is the day that ends there; today's default names today", async () => {
    const [dayEndingAt, todayOfNobody] = await Promise.all([
      cli(['transactions', '--to', '2020-01-02', '--format', 'json']),
      cli(['transactions', '--gym', '999999']),
    ]);

    expect(dayEndingAt).toEqual({
      code: 0,
      stdout: '[]\n',
      stderr: `gatehouse: no transactions validated from 2020-01-01T00:00:00Z to 2020-01-02T00:00:00Z ${NOTE_TAIL}`,
    });
    const today = Date.parse(`${day(Date.now())}T00:00:00Z`);
    expect(todayOfNobody).toEqual({
      code: 0,
      stdout: '(none)\n',
      stderr: `gatehouse: no transactions validated from ${day(today)}T00:00:00Z to ${day(today + ONE_DAY_MS)}T00:00:00Z ${NOTE_TAIL}`,
    });
  });
});
