import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  AN_ISO_MILLIS,
  cliOn,
  csvOf,
  expectSuccess,
  jsonOf,
  openStore,
  tableOf,
  useTempDir,
} from '../../fixtures/processes/cli.js';
import { snapshotStore } from '../../fixtures/store-state.js';
import type { Store } from '../../../src/store/store.js';

const MEMBER = '4000000000032';
const GYM_ID = 320;

/**
 * `gatehouse plan …`, `gatehouse member plan` and `gatehouse payout-rule …` on one SQLite file, read back through
 * a store of this process. Later tests build on the first's plan.
 */
describe('plans and payout rules, through `gatehouse` processes', () => {
  const tempDir = useTempDir();
  let cli: ReturnType<typeof cliOn>;
  let store: Store;
  let partnerId: number;

  beforeAll(async () => {
    const databaseUrl = `sqlite:${join(tempDir(), 'plans.db')}`;
    cli = cliOn(databaseUrl);
    expectSuccess(await cli(['migrate']));
    partnerId = Number(expectSuccess(await cli(['partner', 'create', 'Plan Gyms', '--format', 'id'])).stdout);
    expectSuccess(
      await cli([
        'gym',
        'create',
        '--partner',
        String(partnerId),
        '--id',
        String(GYM_ID),
        '--name',
        'Plan Gym',
      ]),
    );
    store = openStore(databaseUrl);
  });
  afterAll(async () => {
    await store?.close();
  });

  test('when a plan is created and versioned, then JSON answers as the API does, tables and CSV write each rule as --rule takes it, and the store holds both versions', async () => {
    const created = jsonOf<{ id: number; effective_from: string; rules: unknown[] }>(
      await cli([
        'plan',
        'create',
        '--name',
        'Gold',
        '--rule',
        'standard:day:1:network',
        '--rule',
        'premium:week:2:partner',
        '--format',
        'json',
      ]),
    );
    expect(created).toEqual({
      id: 1,
      name: 'Gold',
      version: 1,
      rules: [
        { category: 'standard', per: 'day', limit: 1, scope: 'network' },
        { category: 'premium', per: 'week', limit: 2, scope: 'partner' },
      ],
      effective_from: AN_ISO_MILLIS,
    });

    const later = '2030-01-01T00:00:00.000Z';
    const updated = csvOf(
      await cli([
        'plan',
        'update',
        '1',
        '--rule',
        'standard:day:2:gym',
        '--effective-from',
        '2030-01-01',
        '--format',
        'csv',
      ]),
    );
    expect(updated).toEqual([
      { id: '1', name: 'Gold', version: '2', rules: 'standard:day:2:gym', effective_from: later },
    ]);

    const [list, shown, shownJson] = await Promise.all([
      cli(['plan', 'list']),
      cli(['plan', 'show', '1', '--format', 'csv']),
      cli(['plan', 'show', '1', '--format', 'json']),
    ]);
    expect(tableOf(list)).toEqual([
      { id: '1', name: 'Gold', version: '2', rules: 'standard:day:2:gym', effective_from: later },
    ]);
    const first = {
      id: '1',
      name: 'Gold',
      version: '1',
      rules: 'standard:day:1:network premium:week:2:partner',
      effective_from: created.effective_from,
    };
    expect(csvOf(shown)).toEqual([first, updated[0]]);
    expect(jsonOf(shownJson)).toEqual({
      ...created,
      version: 2,
      rules: [{ category: 'standard', per: 'day', limit: 2, scope: 'gym' }],
      effective_from: later,
      versions: [
        { version: 1, rules: created.rules, effective_from: created.effective_from },
        {
          version: 2,
          rules: [{ category: 'standard', per: 'day', limit: 2, scope: 'gym' }],
          effective_from: later,
        },
      ],
    });

    expect(await store.db.selectFrom('plans').select(['id', 'name']).execute()).toEqual([
      { id: 1, name: 'Gold' },
    ]);
    const versions = await store.db
      .selectFrom('plan_versions')
      .select(['plan_id', 'version', 'rules', 'effective_from'])
      .orderBy('version')
      .execute();
    expect(versions.map((row) => ({ ...row, rules: JSON.parse(row.rules) as unknown }))).toEqual([
      { plan_id: 1, version: 1, rules: created.rules, effective_from: Date.parse(created.effective_from) },
      {
        plan_id: 1,
        version: 2,
        rules: [{ category: 'standard', per: 'day', limit: 2, scope: 'gym' }],
        effective_from: Date.parse(later),
      },
    ]);
  });

  test('when a member is put on a plan, then the CLI prints the setting, lists the history, and the store keeps it', async () => {
    const set = tableOf(await cli(['member', 'plan', MEMBER, '--plan', '1']));
    expect(set).toEqual([
      {
        platform_id: MEMBER,
        plan_id: '1',
        effective_from: expect.any(String) as unknown,
        set_at: expect.any(String) as unknown,
      },
    ]);
    const history = jsonOf(await cli(['member', 'plan', MEMBER, '--format', 'json']));
    expect(history).toEqual([
      { platform_id: MEMBER, plan_id: 1, effective_from: set[0]?.effective_from, set_at: set[0]?.set_at },
    ]);
    expect(
      await store.db
        .selectFrom('member_plans')
        .select(['platform_id', 'plan_id', 'effective_from'])
        .execute(),
    ).toEqual([
      { platform_id: MEMBER, plan_id: 1, effective_from: Date.parse(set[0]?.effective_from ?? '') },
    ]);
  });

  test('when payout rules are set in steps, then each version keeps what the step left out, and show lists them all', async () => {
    const partner = String(partnerId);
    const capped = csvOf(
      await cli([
        'payout-rule',
        'set',
        '--partner',
        partner,
        '--monthly-paid-visits',
        '8',
        '--format',
        'csv',
      ]),
    );
    expect(capped).toEqual([
      {
        version: '1',
        monthly_paid_visits_per_member: '8',
        tiers: '',
        effective_from: expect.any(String) as unknown,
      },
    ]);
    const tiered = jsonOf(
      await cli([
        'payout-rule',
        'set',
        '--partner',
        partner,
        '--tier',
        '1000000:90',
        '--tier',
        '2000000:80.5',
        '--format',
        'json',
      ]),
    );
    const tiers = [
      { after_cents: 1_000_000, rate_pct: 90 },
      { after_cents: 2_000_000, rate_pct: 80.5 },
    ];
    expect(tiered).toEqual({
      version: 2,
      monthly_paid_visits_per_member: 8,
      tiers,
      effective_from: AN_ISO_MILLIS,
    });
    const uncapped = jsonOf(
      await cli([
        'payout-rule',
        'set',
        '--gym',
        String(GYM_ID),
        '--monthly-paid-visits',
        'none',
        '--no-tiers',
        '--format',
        'json',
      ]),
    );
    expect(uncapped).toEqual({
      version: 1,
      monthly_paid_visits_per_member: null,
      tiers: [],
      effective_from: AN_ISO_MILLIS,
    });

    expect(tableOf(await cli(['payout-rule', 'show', '--partner', partner]))).toEqual([
      capped[0],
      {
        version: '2',
        monthly_paid_visits_per_member: '8',
        tiers: '1000000:90 2000000:80.5',
        effective_from: (tiered as { effective_from: string }).effective_from,
      },
    ]);
    const rows = await store.db
      .selectFrom('payout_rules')
      .select(['partner_id', 'gym_id', 'version', 'monthly_paid_visits_per_member', 'tiers'])
      .orderBy('gym_id')
      .orderBy('version')
      .execute();
    expect(rows).toEqual([
      { partner_id: partnerId, gym_id: 0, version: 1, monthly_paid_visits_per_member: 8, tiers: '[]' },
      {
        partner_id: partnerId,
        gym_id: 0,
        version: 2,
        monthly_paid_visits_per_member: 8,
        tiers: JSON.stringify([
          { afterCents: 1_000_000, ratePct: 90 },
          { afterCents: 2_000_000, ratePct: 80.5 },
        ]),
      },
      {
        partner_id: partnerId,
        gym_id: GYM_ID,
        version: 1,
        monthly_paid_visits_per_member: null,
        tiers: '[]',
      },
    ]);
  });

  /** Each refused with exit 1, nothing on stdout, the one line that says why, and nothing changed. */
  const REFUSED: readonly (readonly [args: string, stderr: string])[] = [
    [
      'plan create --name Bad --rule standard:day:1',
      "error: option '--rule <rule>' argument 'standard:day:1' is invalid. must be category:per:limit:scope, as standard:day:1:network\nRun 'gatehouse plan create --help' for its usage.\n",
    ],
    [
      'plan create --name Bad --rule standard:hour:1:gym',
      'gatehouse: must be one of day, week, month (rules[0].per)\n',
    ],
    [
      'plan create --name Bad --rule Standard:day:1:gym',
      'gatehouse: must be 1 to 32 lowercase letters, digits or - (rules[0].category)\n',
    ],
    [
      'plan create --name Gold --rule standard:day:1:gym',
      'gatehouse: plan already exists (plan.already-exists)\n',
    ],
    [
      'plan create --name Bad',
      "error: required option '--rule <rule>' not specified\nRun 'gatehouse plan create --help' for its usage.\n",
    ],
    ['plan update 9 --rule standard:day:1:gym', 'gatehouse: plan not found (plan.not-found)\n'],
    [
      'plan update 1 --rule standard:day:1:gym --effective-from 2020-01-01',
      'gatehouse: must not be in the past: versions are never retroactive (effective_from)\n',
    ],
    ['plan show 9', 'gatehouse: plan not found (plan.not-found)\n'],
    [
      'member plan 123 --plan 1',
      "error: command-argument value '123' is invalid for argument 'platform-id'. must be 13 digits\nRun 'gatehouse member plan --help' for its usage.\n",
    ],
    [`member plan ${MEMBER} --plan 9`, 'gatehouse: plan not found (plan.not-found)\n'],
    [
      `member plan ${MEMBER} --effective-from 2030-01-01`,
      'gatehouse: --effective-from needs --plan: the plan that takes effect then\n',
    ],
    [
      'payout-rule set --partner 1',
      'gatehouse: give --monthly-paid-visits, --tier or --no-tiers: what the new version changes\n',
    ],
    ['payout-rule set --tier 1:1', 'gatehouse: give exactly one of --partner <id> and --gym <id>\n'],
    [
      `payout-rule set --partner 1 --gym ${GYM_ID} --tier 1:1`,
      'gatehouse: give exactly one of --partner <id> and --gym <id>\n',
    ],
    ['payout-rule set --partner 1 --tier 1:1 --no-tiers', 'gatehouse: give --tier or --no-tiers, not both\n'],
    [
      'payout-rule set --partner 1 --tier 100:101',
      'gatehouse: must be from 0 to 100, with at most two decimals (tiers[0].rate_pct)\n',
    ],
    [
      'payout-rule set --partner 1 --tier 100:1.234',
      "error: option '--tier <tier>' argument '100:1.234' is invalid. must be after_cents:rate_pct, as 1000000:90\nRun 'gatehouse payout-rule set --help' for its usage.\n",
    ],
    [
      'payout-rule set --partner 1 --monthly-paid-visits 20000',
      'gatehouse: must be a whole number from 0 to 10000, or null (monthly_paid_visits_per_member)\n',
    ],
    [
      'payout-rule set --partner 1 --monthly-paid-visits many',
      "error: option '--monthly-paid-visits <n>' argument 'many' is invalid. must be a whole number, or none\nRun 'gatehouse payout-rule set --help' for its usage.\n",
    ],
    ['payout-rule set --partner 99 --tier 1:1', 'gatehouse: partner not found (partner.not-found)\n'],
    ['payout-rule show --gym 99', 'gatehouse: gym not found (gym.not-found)\n'],
  ];

  test('when a plan or payout-rule command is given bad input, then it exits 1 with the reason and changes nothing', async () => {
    const before = await snapshotStore(store);
    const audit = await store.db.selectFrom('audit_log').selectAll().execute();
    const results = [];
    // Four at a time: each is a process of its own, and the machine is shared.
    for (let start = 0; start < REFUSED.length; start += 4) {
      const batch = REFUSED.slice(start, start + 4);
      results.push(...(await Promise.all(batch.map(([args]) => cli(args.split(' '))))));
    }
    expect(results.map((result, i) => ({ args: REFUSED[i]?.[0], ...result }))).toEqual(
      REFUSED.map(([args, stderr]) => ({ args, code: 1, stdout: '', stderr })),
    );
    expect(await snapshotStore(store)).toEqual(before);
    expect(await store.db.selectFrom('audit_log').selectAll().execute()).toEqual(audit);
  });
});
