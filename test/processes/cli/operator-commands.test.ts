import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  A_KEY_PREFIX,
  A_KEY_SECRET,
  A_NUMBER,
  AN_ISO_MILLIS,
  asText,
  containing,
  DIGITS,
  cliOn,
  csvOf,
  EXPLICIT_DENY,
  expectSuccess,
  ISO_SECONDS,
  isoMillis,
  isoSeconds,
  jsonOf,
  openPartnerApi,
  tableOf,
  useTempDir,
  type CliResult,
  type PartnerApi,
} from '../../fixtures/processes/cli.js';
import { checkinRow } from '../../fixtures/store-state.js';

const FORMATS = ['table', 'json', 'csv'] as const;
const GYM_ID = 42;
const MEMBER = '4000000000001';
const PAYOUT_CENTS = 1250;
const ONE_DAY_MS = 86_400_000;

interface Created {
  partner: { id: number; name: string; offboarded_at: null; created_at: string };
  gym: {
    id: number;
    partner_id: number;
    name: string;
    timezone: null;
    retired_at: null;
    created_at: string;
  };
  product: { id: number; gym_id: number; description: string; payout_cents: number; currency: string };
  key: { id: number; prefix: string; key: string; gym_ids: number[] | null };
  checkin: { id: number; platform_id: string; status: string; checked_in_at: string; expires_at: string };
  validatedAt: string;
}

/** The same command in every format, run side by side (reads only). */
async function inEveryFormat(cli: ReturnType<typeof cliOn>, args: string[]) {
  const [table, json, csv] = await Promise.all(FORMATS.map((format) => cli([...args, '--format', format])));
  return { table: table as CliResult, json: json as CliResult, csv: csv as CliResult };
}

/** Asserts the three renderings of one list: JSON exactly `expected`, CSV and table the same values as text. */
function expectListInEveryFormat(
  outputs: { table: CliResult; json: CliResult; csv: CliResult },
  expected: Record<string, unknown>[],
) {
  expect(jsonOf(outputs.json)).toEqual(expected);
  expect(csvOf(outputs.csv)).toEqual(expected.map(asText));
  expect(tableOf(outputs.table)).toEqual(expected.map(asText));
}

/**
 * Issue "The operator side": everything an operator does from a shell, on one SQLite file, with the partner
 * API of this test process validating against the same file. Later tests build on the story's records.
 */
describe('the operator side, through `gatehouse` processes', () => {
  const tempDir = useTempDir();
  let cli: ReturnType<typeof cliOn>;
  let databaseUrl: string;
  let api: PartnerApi;
  let story: Created;

  beforeAll(async () => {
    databaseUrl = `sqlite:${join(tempDir(), 'operator.db')}`;
    cli = cliOn(databaseUrl);
    expectSuccess(await cli(['migrate']));
  });
  afterAll(async () => {
    await api?.close();
  });

  test('partner → gym → product → key → check-in, validated by the partner API, then exported for payment', async () => {
    // A partner (this first command also creates and migrates the database).
    const partner = jsonOf<Created['partner']>(
      await cli(['partner', 'create', 'Iron Temple Gyms', '--format', 'json']),
    );
    expect(partner).toEqual({
      id: A_NUMBER,
      name: 'Iron Temple Gyms',
      offboarded_at: null,
      created_at: AN_ISO_MILLIS,
    });
    api = await openPartnerApi(databaseUrl);
    const db = api.store.db;
    expect(await db.selectFrom('partners').selectAll().execute()).toEqual([
      {
        id: partner.id,
        name: 'Iron Temple Gyms',
        created_at: Date.parse(partner.created_at),
        offboarded_at: null,
        sandbox: 0,
        cancelled_spelling: 'cancelled',
        gym_from_key: 0,
      },
    ]);

    // Its gym, with the provider-assigned id partners send as X-Gym-Id.
    const gym = jsonOf<Created['gym']>(
      await cli([
        'gym',
        'create',
        '--partner',
        String(partner.id),
        '--id',
        String(GYM_ID),
        '--name',
        'Iron Temple Downtown',
        '--format',
        'json',
      ]),
    );
    expect(gym).toEqual({
      id: GYM_ID,
      partner_id: partner.id,
      name: 'Iron Temple Downtown',
      timezone: null,
      retired_at: null,
      created_at: AN_ISO_MILLIS,
    });
    expect(await db.selectFrom('gyms').selectAll().execute()).toEqual([
      {
        id: GYM_ID,
        partner_id: partner.id,
        name: 'Iron Temple Downtown',
        created_at: Date.parse(gym.created_at),
        timezone: null,
        retired_at: null,
      },
    ]);

    // A product paying the gym 12.50 per visit, in the default currency.
    const product = jsonOf<Created['product']>(
      await cli([
        'product',
        'create',
        '--gym',
        String(GYM_ID),
        '--description',
        'Day pass',
        '--payout-cents',
        String(PAYOUT_CENTS),
        '--format',
        'json',
      ]),
    );
    expect(product).toEqual({
      id: A_NUMBER,
      gym_id: GYM_ID,
      description: 'Day pass',
      payout_cents: PAYOUT_CENTS,
      currency: 'BRL',
      retired_at: null,
      category: 'standard',
    });
    expect(await db.selectFrom('products').selectAll().execute()).toEqual([
      { ...product, created_at: A_NUMBER },
    ]);

    // A key for the partner's front desks: the secret is printed this once, and only its hash is stored.
    const key = jsonOf<Created['key'] & Record<string, unknown>>(
      await cli(['key', 'issue', '--partner', String(partner.id), '--format', 'json']),
    );
    expect(key).toEqual({
      id: A_NUMBER,
      prefix: A_KEY_PREFIX,
      label: null,
      gym_ids: null,
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
      created_at: AN_ISO_MILLIS,
      key: A_KEY_SECRET,
    });
    expect(key.key.startsWith(key.prefix)).toBe(true);
    const keyRow = await db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(keyRow).toMatchObject({ partner_id: partner.id, prefix: key.prefix, revoked_at: null });
    expect(JSON.stringify(keyRow)).not.toContain(key.key);

    // The member checks in (as the member app would).
    const checkin = jsonOf<Created['checkin'] & Record<string, unknown>>(
      await cli([
        'checkin',
        'create',
        '--platform-id',
        MEMBER,
        '--gym',
        String(GYM_ID),
        '--product',
        String(product.id),
        '--format',
        'json',
      ]),
    );
    expect(checkin).toEqual({
      id: A_NUMBER,
      platform_id: MEMBER,
      gym_id: GYM_ID,
      product_id: product.id,
      status: 'pending',
      checked_in_at: AN_ISO_MILLIS,
      expires_at: AN_ISO_MILLIS,
      validated_at: null,
      cancelled_at: null,
    });
    expect(Date.parse(checkin.expires_at) - Date.parse(checkin.checked_in_at)).toBe(1200 * 1000);

    // The front desk validates it through the partner API with the issued key.
    const validation = await api.validate(key.key, GYM_ID, MEMBER);
    const validatedRow = await checkinRow(api.store, checkin.id);
    expect(validatedRow).toMatchObject({
      status: 'validated',
      validated_at: A_NUMBER,
      cancelled_at: null,
    });
    const validatedAt = isoSeconds(validatedRow.validated_at as number);
    expect(validatedAt).toMatch(ISO_SECONDS);
    expect(validation).toEqual({
      status: 200,
      body: {
        metadata: { total: 1, errors: 0 },
        results: {
          user: { platform_id: MEMBER },
          gym: { Id: GYM_ID, product: { Id: product.id, description: 'Day pass' } },
          validated_at: validatedAt,
        },
      },
    });
    // The visit as the ledger row and every export name it.
    const visit = {
      checkin_id: checkin.id,
      partner_id: partner.id,
      gym_id: GYM_ID,
      product_id: product.id,
      platform_id: MEMBER,
      payout_cents: PAYOUT_CENTS,
      currency: 'BRL',
    };
    const transactions = await db.selectFrom('transactions').selectAll().execute();
    expect(transactions).toEqual([
      {
        ...visit,
        id: A_NUMBER,
        validated_at: validatedRow.validated_at,
        // SQLite's single writer commits in id order: the feed needs no other order there.
        commit_order: 0,
        // No payout rules: paid its list price.
        list_cents: PAYOUT_CENTS,
        pricing_rule: 'list',
        rule_version: null,
      },
    ]);
    const transactionId = transactions[0]?.id as number;

    // That day's payouts and transactions, as the operator exports them to pay the gym.
    const day = validatedAt.slice(0, 10);
    const dayStart = Date.parse(`${day}T00:00:00Z`);
    const nextDay = isoMillis(dayStart + ONE_DAY_MS).slice(0, 10);
    const previousDay = isoMillis(dayStart - ONE_DAY_MS).slice(0, 10);
    const [payoutsCsv, transactionsCsv, transactionsJson, transactionsTable, dayBeforeCsv] =
      await Promise.all([
        cli(['payouts', '--from', day, '--to', nextDay, '--format', 'csv']),
        cli(['transactions', '--from', day, '--to', nextDay, '--format', 'csv']),
        cli(['transactions', '--partner', String(partner.id), '--format', 'json']),
        cli(['transactions', '--gym', String(GYM_ID)]),
        // `to` is exclusive: the period that ends where the validation's day begins holds nothing.
        cli(['transactions', '--from', previousDay, '--to', day, '--format', 'csv']),
      ]);

    expect(expectSuccess(payoutsCsv).stdout.split('\n')[0]).toBe(
      'partner_id,gym_id,currency,count,reversals,payout_cents',
    );
    expect(csvOf(payoutsCsv)).toEqual([
      {
        partner_id: String(partner.id),
        gym_id: String(GYM_ID),
        currency: 'BRL',
        count: '1',
        reversals: '0',
        payout_cents: String(PAYOUT_CENTS),
      },
    ]);
    const transaction = {
      id: transactionId,
      kind: 'visit',
      ...visit,
      validated_at: validatedAt,
      effective_at: validatedAt,
      reverses: null,
      reason: null,
    };
    expect(expectSuccess(transactionsCsv).stdout.split('\n')[0]).toBe(
      'id,kind,checkin_id,partner_id,gym_id,product_id,platform_id,payout_cents,currency,validated_at,effective_at,reverses,reason,list_cents,pricing_rule,pricing_version',
    );
    // JSON says how the visit was priced as the API does; CSV and tables in three columns after the entry's.
    const flatPricing = { list_cents: PAYOUT_CENTS, pricing_rule: 'list', pricing_version: null };
    expect(csvOf(transactionsCsv)).toEqual([asText({ ...transaction, ...flatPricing })]);
    const pricing = { list_cents: PAYOUT_CENTS, paid_cents: PAYOUT_CENTS, rule: 'list', version: null };
    expect(jsonOf(transactionsJson)).toEqual([{ ...transaction, pricing }]);
    expect(tableOf(transactionsTable)).toEqual([asText({ ...transaction, ...flatPricing })]);
    expect(dayBeforeCsv).toEqual({
      code: 0,
      stdout:
        'id,kind,checkin_id,partner_id,gym_id,product_id,platform_id,payout_cents,currency,validated_at,effective_at,reverses,reason,list_cents,pricing_rule,pricing_version\n',
      stderr:
        `gatehouse: no transactions validated from ${previousDay}T00:00:00Z to ${day}T00:00:00Z ` +
        '(the end excluded; days in UTC); choose another period with --from and --to\n',
    });

    story = { partner, gym, product, key, checkin, validatedAt };
  });

  test('key list never shows a secret; key revoke makes the partner API refuse the key with the explicit deny', async () => {
    // A second key, scoped to the gym, issued as CSV: the one output that carries its secret.
    const issued = csvOf(
      await cli([
        'key',
        'issue',
        '--partner',
        String(story.partner.id),
        '--gyms',
        String(GYM_ID),
        '--label',
        'front desk 2',
        '--format',
        'csv',
      ]),
    );
    expect(issued).toEqual([
      {
        id: DIGITS,
        prefix: A_KEY_PREFIX,
        label: 'front desk 2',
        gym_ids: `[${GYM_ID}]`,
        expires_at: '',
        last_used_at: '',
        revoked_at: '',
        created_at: AN_ISO_MILLIS,
        key: A_KEY_SECRET,
      },
    ]);
    const scoped = issued[0] as Record<string, string>;
    const secrets = [story.key.key, scoped.key as string];
    const hashes = (await api.store.db.selectFrom('api_keys').select('key_hash').execute()).map(
      (row) => row.key_hash,
    );

    // The key's use by the partner API is written first, so no format is listed before it and another after.
    await api.settleKeyUsage();
    const listed = await inEveryFormat(cli, ['key', 'list', '--partner', String(story.partner.id)]);

    for (const output of Object.values(listed)) {
      for (const secret of [...secrets, ...hashes])
        expect(expectSuccess(output).stdout).not.toContain(secret);
    }
    const json = jsonOf<Record<string, unknown>[]>(listed.json);
    expect(json.map((key) => Object.keys(key).sort())).toEqual(
      Array(2).fill([
        'created_at',
        'expires_at',
        'gym_ids',
        'id',
        'label',
        'last_used_at',
        'prefix',
        'revoked_at',
      ]),
    );
    expect(json).toEqual([
      containing({
        id: story.key.id,
        prefix: story.key.prefix,
        label: null,
        gym_ids: null,
        revoked_at: null,
      }),
      containing({
        id: Number(scoped.id),
        prefix: scoped.prefix,
        label: 'front desk 2',
        gym_ids: [GYM_ID],
        revoked_at: null,
      }),
    ]);
    const asListed = json.map((key) => ({
      ...asText(key),
      gym_ids: key.gym_ids === null ? '' : `[${GYM_ID}]`,
    }));
    expect(csvOf(listed.csv)).toEqual(asListed);
    // The table joins a scope's gyms with commas.
    expect(tableOf(listed.table)).toEqual(
      asListed.map((key) => ({ ...key, gym_ids: key.gym_ids === '' ? '' : String(GYM_ID) })),
    );

    // Revoked from the shell, the first key is refused by the running partner API (within its key cache time).
    const revoked = await cli(['key', 'revoke', String(story.key.id)]);

    expect(revoked).toEqual({ code: 0, stdout: `key ${story.key.id} revoked\n`, stderr: '' });
    const row = await api.store.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', story.key.id)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).toEqual(A_NUMBER);
    const newcomer = '4000000000002';
    let answer = await api.validate(story.key.key, GYM_ID, newcomer);
    for (const deadline = Date.now() + 5_500; answer.status !== 403 && Date.now() < deadline;) {
      await sleep(50);
      answer = await api.validate(story.key.key, GYM_ID, newcomer);
    }
    expect(answer).toEqual({ status: 403, body: EXPLICIT_DENY });
    // The other key still works: this member simply has no check-in.
    expect((await api.validate(scoped.key as string, GYM_ID, newcomer)).status).toBe(404);
    const afterRevoke = jsonOf<Record<string, unknown>[]>(
      await cli(['key', 'list', '--partner', String(story.partner.id), '--format', 'json']),
    );
    expect(afterRevoke.map((key) => [key.id, key.revoked_at])).toEqual([
      [story.key.id, isoMillis(row.revoked_at as number)],
      [Number(scoped.id), null],
    ]);
  });

  test('checkin cancel, then checkin list --status in table, json and csv', async () => {
    const { services, store } = api;
    const toCancel = await services.checkins.create({
      platformId: '4000000000003',
      gymId: GYM_ID,
      productId: story.product.id,
    });
    const pending = await services.checkins.create({
      platformId: '4000000000004',
      gymId: GYM_ID,
      productId: story.product.id,
    });

    const cancelled = jsonOf<Record<string, unknown>>(
      await cli(['checkin', 'cancel', String(toCancel.id), '--format', 'json']),
    );

    const cancelledRow = await checkinRow(store, toCancel.id);
    expect(cancelledRow).toMatchObject({
      status: 'cancelled',
      cancelled_at: A_NUMBER,
      validated_at: null,
    });
    const wire = (row: typeof cancelledRow, status: string) => ({
      id: row.id,
      platform_id: row.platform_id,
      gym_id: row.gym_id,
      product_id: row.product_id,
      status,
      checked_in_at: isoMillis(row.checked_in_at),
      expires_at: isoMillis(row.expires_at),
      validated_at: row.validated_at === null ? null : isoMillis(row.validated_at),
      cancelled_at: row.cancelled_at === null ? null : isoMillis(row.cancelled_at),
    });
    expect(cancelled).toEqual(wire(cancelledRow, 'cancelled'));
    const rowOf = (id: number) => checkinRow(store, id);

    const [byStatus, validated, stillPending] = await Promise.all([
      inEveryFormat(cli, ['checkin', 'list', '--status', 'cancelled']),
      cli(['checkin', 'list', '--status', 'validated', '--gym', String(GYM_ID), '--format', 'json']),
      cli(['checkin', 'list', '--status', 'pending', '--platform-id', '4000000000004', '--format', 'csv']),
    ]);

    expectListInEveryFormat(byStatus, [wire(cancelledRow, 'cancelled')]);
    expect(jsonOf(validated)).toEqual([wire(await rowOf(story.checkin.id), 'validated')]);
    expect(csvOf(stillPending)).toEqual([asText(wire(await rowOf(pending.id), 'pending'))]);
  });

  test('gym list --partner, product list --gym and partner list (sandbox partners marked), in table, json and csv', async () => {
    const { services, store } = api;
    const other = await services.catalog.createPartner('Second Chain');
    const lab = await services.catalog.createPartner('Test Lab', undefined, true);
    await services.catalog.createGym({ id: 77, partnerId: other.id, name: 'Second Chain Uptown' });
    await services.catalog.createProduct(77, { description: 'Not of gym 42', payoutCents: 5 });
    await services.catalog.createGym({
      id: 43,
      partnerId: story.partner.id,
      name: 'Iron Temple Riverside, 2nd floor',
    });
    await services.catalog.createProduct(GYM_ID, {
      description: 'Monthly, "unlimited"',
      payoutCents: 0,
      currency: 'USD',
    });

    const [gyms, products, partners] = await Promise.all([
      inEveryFormat(cli, ['gym', 'list', '--partner', String(story.partner.id)]),
      inEveryFormat(cli, ['product', 'list', '--gym', String(GYM_ID)]),
      inEveryFormat(cli, ['partner', 'list']),
    ]);

    const gymRows = await store.db
      .selectFrom('gyms')
      .selectAll()
      .where('partner_id', '=', story.partner.id)
      .orderBy('id')
      .execute();
    expect(gymRows.map((gym) => gym.id)).toEqual([GYM_ID, 43]);
    expectListInEveryFormat(
      gyms,
      gymRows.map((gym) => ({
        id: gym.id,
        partner_id: gym.partner_id,
        name: gym.name,
        timezone: gym.timezone,
        retired_at: null,
        created_at: isoMillis(gym.created_at),
      })),
    );
    const productRows = await store.db
      .selectFrom('products')
      .selectAll()
      .where('gym_id', '=', GYM_ID)
      .orderBy('id')
      .execute();
    expect(productRows.map((product) => product.description)).toEqual(['Day pass', 'Monthly, "unlimited"']);
    expectListInEveryFormat(
      products,
      productRows.map((product) => ({
        id: product.id,
        gym_id: product.gym_id,
        description: product.description,
        payout_cents: product.payout_cents,
        currency: product.currency,
        retired_at: null,
        category: product.category,
      })),
    );
    const partnerRows = await store.db.selectFrom('partners').selectAll().orderBy('id').execute();
    expect(partnerRows.map((partner) => [partner.name, partner.sandbox])).toEqual([
      ['Iron Temple Gyms', 0],
      ['Second Chain', 0],
      ['Test Lab', 1],
    ]);
    const listed = partnerRows.map((partner) => ({
      id: partner.id,
      name: partner.name,
      ...(partner.sandbox === 1 ? { sandbox: true } : {}),
      offboarded_at: null,
      created_at: isoMillis(partner.created_at),
    }));
    // JSON as the API answers (the flag on sandbox partners only); a table and a CSV say it of every partner.
    expect(jsonOf(partners.json)).toEqual(listed);
    const marked = listed.map((partner) => asText({ sandbox: false, ...partner }));
    expect(csvOf(partners.csv)).toEqual(marked);
    expect(tableOf(partners.table)).toEqual(marked);
    expect(expectSuccess(partners.csv).stdout.split('\n')[0]).toBe(
      'id,name,sandbox,offboarded_at,created_at',
    );

    // A sandbox visit is never money: transactions leave it out unless --include-sandbox asks, and then mark it.
    await services.catalog.createGym({ id: 78, partnerId: lab.id, name: 'Lab Gym' });
    const labPass = await services.catalog.createProduct(78, { description: 'Lab pass', payoutCents: 700 });
    await services.checkins.create({ platformId: '4000000000099', gymId: 78, productId: labPass.id });
    await services.validation.validate({ gymId: 78, platformId: '4000000000099', customCode: undefined });
    const [left, included] = await Promise.all([
      cli(['transactions', '--partner', String(lab.id), '--format', 'csv']),
      cli(['transactions', '--partner', String(lab.id), '--include-sandbox', '--format', 'csv']),
    ]);
    // Left out: the CSV is its header alone (no sandbox column), and stderr says nothing was found.
    expect([left.code, left.stdout.trim().split('\n'), left.stderr]).toEqual([
      0,
      [expect.stringMatching(/,pricing_version$/)],
      expect.stringMatching(/^gatehouse: no transactions validated from /),
    ]);
    expect(expectSuccess(included).stdout.split('\n')[0]).toMatch(/,pricing_version,sandbox$/);
    expect(csvOf(included).map((row) => [row.gym_id, row.payout_cents, row.sandbox])).toEqual([
      ['78', '700', 'true'],
    ]);

    // Nor in payouts: the live ones leave the lab out; --sandbox sums it apart, each line marked.
    const [live, sandbox] = await Promise.all([
      cli(['payouts', '--partner', String(lab.id), '--format', 'json']),
      cli(['payouts', '--partner', String(lab.id), '--sandbox', '--format', 'json']),
    ]);
    expect([live.code, JSON.parse(live.stdout), live.stderr]).toEqual([
      0,
      [],
      expect.stringMatching(/^gatehouse: no validated visits to pay from /),
    ]);
    expect([sandbox.code, jsonOf(sandbox), sandbox.stderr]).toEqual([
      0,
      [
        {
          partner_id: lab.id,
          gym_id: 78,
          currency: 'BRL',
          count: 1,
          reversals: 0,
          payout_cents: 700,
          sandbox: true,
        },
      ],
      '',
    ]);
  });
});
