import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, test } from 'vitest';
import { expectLedgerInvariants } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import { asCsvRecord, mixedRun, wireTransaction } from '../fixtures/ledger-run.js';
import { admin, operatorApp } from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';

type Run = Awaited<ReturnType<typeof mixedRun>>;
type Transaction = ReturnType<typeof wireTransaction>;

describe.each(dialects)('operator API: GET /admin/v1/transactions (%s)', (dialect) => {
  const app = operatorApp({ dialect });
  let run: Run;
  let all: Transaction[];
  // The tests only read: one mixed run in a fresh store serves them all.
  beforeAll(async () => {
    run = await mixedRun(app());
    all = run.visits.map((visit, index) => wireTransaction(visit, index + 1));
  });

  const list = async (query: string) => {
    const response = await admin(app(), 'GET', `/transactions${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return JSON.parse(response.body) as { items: Transaction[]; next_cursor: string | null };
  };

  test('when transactions are listed after a mixed run, then there is exactly one per validated check-in, in id order, validated_at to the second', async () => {
    const t = app();

    const response = await admin(t, 'GET', '/transactions');
    const validated = await admin(t, 'GET', '/checkins?status=validated');

    expectReply(response, 200, { items: all, next_cursor: null });
    expect(all.map((item) => item.validated_at)).toEqual([
      '2026-03-02T12:00:01Z',
      '2026-03-02T12:00:02Z',
      '2026-03-02T12:00:03Z',
      '2026-03-02T12:00:04Z',
      '2026-03-02T12:00:05Z',
    ]);
    const validatedIds = (JSON.parse(validated.body) as { items: { id: number }[] }).items.map(
      (item) => item.id,
    );
    expect(all.map((item) => item.checkin_id)).toEqual(validatedIds);
    await expectLedgerInvariants(t.store);
  });

  test('when filtered by partner_id or gym_id, then only that partner’s or gym’s transactions come', async () => {
    expect(await list(`?partner_id=${run.b.partner.id}`)).toEqual({ items: all.slice(3), next_cursor: null });
    expect(await list(`?partner_id=${run.a.partner.id}`)).toEqual({
      items: all.slice(0, 3),
      next_cursor: null,
    });
    expect(await list(`?gym_id=${run.free.gym_id}`)).toEqual({ items: [all[2]], next_cursor: null });
    expect(await list(`?partner_id=${run.a.partner.id}&gym_id=${run.b.gym.id}`)).toEqual({
      items: [],
      next_cursor: null,
    });
  });

  test('when filtered by from and to, then from is inclusive and to exclusive, to the millisecond', async () => {
    const period = (from: string, to: string) => list(`?from=${from}&to=${to}`);

    expect((await period('2026-03-02T12:00:02.250Z', '2026-03-02T12:00:04.250Z')).items).toEqual(
      all.slice(1, 3),
    );
    expect((await period('2026-03-02T12:00:02.251Z', '2026-03-02T12:00:04.251Z')).items).toEqual(
      all.slice(2, 4),
    );
  });

  test('when from and to are dates, date-times without offset or with one, then they are read as UTC instants', async () => {
    expect((await list('?from=2026-03-02&to=2026-03-03')).items).toEqual(all);
    expect((await list('?from=2026-03-01&to=2026-03-02')).items).toEqual([]);
    expect((await list('?from=2026-03-02T12:00:03.250')).items).toEqual(all.slice(2));
    expect((await list('?from=2026-03-02T09:00:03.250-03:00')).items).toEqual(all.slice(2));
    expect((await list(`?to=${encodeURIComponent('2026-03-02T15:00:01.250+03:00')}`)).items).toEqual([]);
    expect((await list('?to=2026-03-02T09:00:02.251-03:00')).items).toEqual(all.slice(0, 2));
  });

  test('when listed with limit=2, then next_cursor leads through every page and ends with null', async () => {
    const first = await list('?limit=2');
    const second = await list(`?limit=2&cursor=${first.next_cursor}`);
    const third = await list(`?limit=2&cursor=${second.next_cursor}`);

    expect([first.items, second.items, third.items]).toEqual([
      all.slice(0, 2),
      all.slice(2, 4),
      all.slice(4),
    ]);
    expect(third.next_cursor).toBeNull();
  });

  test('when format=csv, then every matching row streams as text/csv, limit ignored, and it parses back to the JSON list', async () => {
    const t = app();

    const response = await admin(t, 'GET', '/transactions?format=csv&limit=1');
    const filtered = await admin(t, 'GET', `/transactions?format=csv&partner_id=${run.b.partner.id}`);

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="transactions.csv"');
    expect(response.body.split('\n')[0]).toBe(
      'id,kind,checkin_id,partner_id,gym_id,product_id,platform_id,payout_cents,currency,validated_at,effective_at,reverses,reason,list_cents,pricing_rule,pricing_version',
    );
    expect(parse(response.body, { columns: true })).toEqual(all.map(asCsvRecord));
    expect(parse(filtered.body, { columns: true })).toEqual(all.slice(3).map(asCsvRecord));
  });

  test('when format=csv matches nothing, then the CSV is the header line alone', async () => {
    const response = await admin(app(), 'GET', '/transactions?format=csv&from=2027-01-01');

    expect(response.statusCode).toBe(200);
    expect(parse(response.body, { columns: true })).toEqual([]);
  });
});
