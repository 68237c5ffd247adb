import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStore } from '../../fixtures/processes/cli.js';
import { useGatehouseProcesses, type GatehouseProcess } from '../../fixtures/processes/gatehouse-process.js';
import { pollUntil } from '../../fixtures/processes/http.js';
import { freePort } from '../../fixtures/processes/private-postgres.js';
import { bashSession } from '../../fixtures/processes/bash-session.js';
import { readmeSection, shellBlocks } from './readme-section.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SECTION = '## Operating a network';

/**
 * The README's walkthrough, pasted block by block into one bash, right after `npm install && npm start`: in a
 * directory of its own that holds what a checkout needs to run (`./gatehouse` and the build), with the
 * `npm start` server on its default database there. The only edits are the ones a reader makes too (the key
 * `key issue` printed, in place of `ghk_…`) and the two ports, which another test run may hold.
 */
describe('README "Operating a network", followed literally after npm start', () => {
  const startGatehouse = useGatehouseProcesses();
  const blocks = shellBlocks(readmeSection(SECTION));
  let checkout: string;
  let npmStart: GatehouseProcess;
  let ports: { first: number; second: number };
  let session: ReturnType<typeof bashSession>;

  beforeAll(async () => {
    checkout = mkdtempSync(join(tmpdir(), 'gatehouse-readme-'));
    copyFileSync(join(REPO_ROOT, 'gatehouse'), join(checkout, 'gatehouse'));
    symlinkSync(join(REPO_ROOT, 'dist'), join(checkout, 'dist'));
    ports = { first: await freePort(), second: await freePort() };
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => !name.startsWith('GATEHOUSE_') && name !== 'NODE_OPTIONS',
      ),
    );
    session = bashSession(checkout, env);
  });
  afterAll(() => {
    session.close();
    rmSync(checkout, { recursive: true, force: true });
  });

  /** A block as the test pastes it: the README's, on this run's ports, with the key the reader was given. */
  function asPasted(block: string, key = ''): string {
    const pasted = block
      .replaceAll('127.0.0.1:8080', `127.0.0.1:${ports.first}`)
      .replaceAll('127.0.0.1:8081', `127.0.0.1:${ports.second}`)
      .replaceAll('GATEHOUSE_PORT=8081', `GATEHOUSE_PORT=${ports.second}`)
      .replaceAll('ghk_…', key);
    expect(pasted).not.toMatch(/808[01]|ghk_…/);
    return pasted;
  }

  test('when each command of the section is run as written, then the new partner is checked in under a plan, validated, refused a second visit, pays a capped visit 0, is settled, paid and a visit reversed', async () => {
    expect(blocks).toHaveLength(11);
    const [
      catalog = '',
      plan = '',
      checkIn = '',
      validate = '',
      refused = '',
      payoutRule = '',
      secondMember = '',
      exports = '',
      settle = '',
      reverse = '',
      change = '',
    ] = blocks;
    npmStart = await startGatehouse({ GATEHOUSE_PORT: String(ports.first) }, { cwd: checkout });
    // npm start's banner points at the checkout's own command, never at npx.
    const banner = { text: 'A fresh one later: ./gatehouse demo' };
    await pollUntil(
      () => Promise.resolve(npmStart.logs()),
      (lines) => lines.some((line) => line.text === banner.text),
      { withinMs: 5000 },
    );
    expect(npmStart.logs()).toContainEqual(banner);

    // A partner, its gym 42, a product and a key: the demo's partner 1, gym 1 and product 1 stay the demo's.
    const created = await session.run(asPasted(catalog));
    const key = /^key: (ghk_[0-9a-f]{8}_[0-9a-f]{40})$/m.exec(created.stdout)?.[1];
    expect(key, created.stdout).toBeDefined();
    const store = openStore(`sqlite:${join(checkout, 'data', 'gatehouse.db')}`);
    try {
      const partners = await store.db.selectFrom('partners').select(['id', 'name']).orderBy('id').execute();
      expect(partners).toEqual([
        { id: 1, name: 'Demo Fitness' },
        { id: 2, name: 'Acme Fitness' },
      ]);
      const gym = await store.db.selectFrom('gyms').selectAll().where('id', '=', 42).executeTakeFirst();
      expect(gym).toMatchObject({ id: 42, partner_id: 2, name: 'Acme Downtown' });
      const products = await store.db
        .selectFrom('products')
        .select(['id', 'description', 'payout_cents', 'currency'])
        .where('gym_id', '=', 42)
        .execute();
      expect(products).toEqual([{ id: 2, description: 'Day pass', payout_cents: 1500, currency: 'BRL' }]);
      const keys = await store.db
        .selectFrom('api_keys')
        .select(['partner_id', 'label'])
        .where('partner_id', '=', 2)
        .execute();
      expect(keys).toEqual([{ partner_id: 2, label: 'front desk' }]);
    } finally {
      await store.close();
    }

    // The plan Gold, made with the CLI, and the walkthrough's member on it.
    const onPlan = await session.run(asPasted(plan));
    expect(onPlan.stderr).toBe('');
    expect(onPlan.stdout).toMatch(/^platform_id +plan_id +effective_from +set_at\n9876543210987 +1 /);
    const planStore = openStore(`sqlite:${join(checkout, 'data', 'gatehouse.db')}`);
    try {
      expect(await planStore.db.selectFrom('plans').select(['id', 'name']).execute()).toEqual([
        { id: 1, name: 'Gold' },
      ]);
      const versions = await planStore.db.selectFrom('plan_versions').select(['plan_id', 'rules']).execute();
      expect(versions).toEqual([
        {
          plan_id: 1,
          rules: JSON.stringify([{ category: 'standard', per: 'day', limit: 1, scope: 'network' }]),
        },
      ]);
      const members = await planStore.db
        .selectFrom('member_plans')
        .select(['platform_id', 'plan_id'])
        .execute();
      expect(members).toEqual([{ platform_id: '9876543210987', plan_id: 1 }]);
    } finally {
      await planStore.close();
    }

    // The member app checks the member in, through a second server with the admin token.
    const checkedIn = await session.run(asPasted(checkIn));
    // Before curl's answer, the second server's one-line greeting (it serves the default database too).
    const [greeting, answer = ''] = checkedIn.stdout.split('\n');
    expect(greeting).toBe(
      `gatehouse is serving http://127.0.0.1:${ports.second}, the console at http://127.0.0.1:${ports.second}/console/. For a fresh demo check-in and key: ./gatehouse demo`,
    );
    const checkin = JSON.parse(answer) as Record<string, unknown>;
    expect(checkin).toMatchObject({
      platform_id: '9876543210987',
      gym_id: 42,
      product_id: 2,
      status: 'pending',
      plan: { id: 1, version: 1 },
    });

    // Acme's front desk validates it on the npm start server.
    const validated = JSON.parse((await session.run(asPasted(validate, key))).stdout) as unknown;
    expect(validated).toEqual({
      metadata: { total: 1, errors: 0 },
      results: {
        user: { platform_id: '9876543210987' },
        gym: { Id: 42, product: { Id: 2, description: 'Day pass' } },
        validated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/) as unknown,
      },
    });

    // Back the same day: Gold's one visit is used, so the check-in is refused with its rule, and nothing is stored.
    const nextMidnight = () => {
      const now = new Date();
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
    };
    const resetsFrom = nextMidnight();
    const refusal = JSON.parse((await session.run(asPasted(refused))).stdout) as {
      errors: { details: { resets_at: string } }[];
    };
    const resetsAt = refusal.errors[0]?.details.resets_at ?? '';
    expect([resetsFrom, nextMidnight()]).toContain(resetsAt);
    expect(refusal).toEqual({
      metadata: { total: 0, errors: 1 },
      errors: [
        {
          message: `plan limit reached: 1 of 1 standard visits per day (network), until ${resetsAt}`,
          key: 'checkin.plan.limit-reached',
          details: {
            category: 'standard',
            per: 'day',
            scope: 'network',
            limit: 1,
            used: 1,
            resets_at: resetsAt,
          },
        },
      ],
    });
    const refusedStore = openStore(`sqlite:${join(checkout, 'data', 'gatehouse.db')}`);
    try {
      const checkins = await refusedStore.db
        .selectFrom('checkins')
        .select(['id', 'status'])
        .where('platform_id', '=', '9876543210987')
        .execute();
      expect(checkins).toEqual([{ id: checkin.id, status: 'validated' }]);
    } finally {
      await refusedStore.close();
    }

    // Acme pays one visit a month per member, from now on; a second gym opens with the same day pass.
    const ruled = await session.run(asPasted(payoutRule));
    expect(ruled.stderr).toBe('');
    const [rule = '', gymTable = ''] = ruled.stdout.split(/\n(?=id +partner_id)/);
    expect(parse(rule, { columns: true })).toEqual([
      {
        version: '1',
        monthly_paid_visits_per_member: '1',
        tiers: '',
        effective_from: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown,
      },
    ]);
    expect(gymTable).toMatch(
      /^id +partner_id +name +timezone +retired_at +created_at\n43 +2 +Acme Uptown +\S+\n$/,
    );

    // A second member, on no plan, visits both gyms the same day: both validated, the second past Acme's cap.
    const visited = await session.run(asPasted(secondMember, key));
    expect(visited.stderr).toBe('');
    const answers = visited.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const validatedAt = (gymId: number, productId: number, description: string) => ({
      metadata: { total: 1, errors: 0 },
      results: {
        user: { platform_id: '5550001112223' },
        gym: { Id: gymId, product: { Id: productId, description } },
        validated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/) as unknown,
      },
    });
    expect(answers).toEqual([
      expect.objectContaining({ platform_id: '5550001112223', gym_id: 42, product_id: 2, status: 'pending' }),
      validatedAt(42, 2, 'Day pass'),
      expect.objectContaining({ platform_id: '5550001112223', gym_id: 43, product_id: 3, status: 'pending' }),
      validatedAt(43, 3, 'Day pass'),
    ]);
    const pricedStore = openStore(`sqlite:${join(checkout, 'data', 'gatehouse.db')}`);
    try {
      const priced = await pricedStore.db
        .selectFrom('transactions')
        .select(['platform_id', 'gym_id', 'payout_cents', 'list_cents', 'pricing_rule', 'rule_version'])
        .orderBy('id')
        .execute();
      expect(
        priced.map((row) => ({
          ...row,
          list_cents: row.list_cents === null ? null : Number(row.list_cents),
        })),
      ).toEqual([
        {
          platform_id: '9876543210987',
          gym_id: 42,
          payout_cents: 1500,
          list_cents: 1500,
          pricing_rule: 'list',
          rule_version: null,
        },
        {
          platform_id: '5550001112223',
          gym_id: 42,
          payout_cents: 1500,
          list_cents: 1500,
          pricing_rule: 'list',
          rule_version: 1,
        },
        {
          platform_id: '5550001112223',
          gym_id: 43,
          payout_cents: 0,
          list_cents: 1500,
          pricing_rule: 'monthly-cap',
          rule_version: 1,
        },
      ]);
    } finally {
      await pricedStore.close();
    }

    // The day's payout, and the visits behind it, each with how it was priced.
    const exported = await session.run(asPasted(exports));
    const [payouts = '', transactions = ''] = exported.stdout.split(/\n(?=id,)/);
    expect(payouts).toBe(
      'partner_id,gym_id,currency,count,reversals,payout_cents\n2,42,BRL,2,0,3000\n2,43,BRL,1,0,0',
    );
    const visit = (platformId: string, gymId: string, productId: string) => ({
      partner_id: '2',
      gym_id: gymId,
      product_id: productId,
      platform_id: platformId,
    });
    expect(parse(transactions, { columns: true })).toEqual([
      expect.objectContaining({
        ...visit('9876543210987', '42', '2'),
        payout_cents: '1500',
        list_cents: '1500',
        pricing_rule: 'list',
        pricing_version: '',
      }),
      expect.objectContaining({
        ...visit('5550001112223', '42', '2'),
        payout_cents: '1500',
        list_cents: '1500',
        pricing_rule: 'list',
        pricing_version: '1',
      }),
      expect.objectContaining({
        ...visit('5550001112223', '43', '3'),
        payout_cents: '0',
        list_cents: '1500',
        pricing_rule: 'monthly-cap',
        pricing_version: '1',
      }),
    ]);
    expect(exported.stderr).toBe('');

    // The period is closed for Acme and paid: the settlement holds the visits.
    const settled = await session.run(asPasted(settle));
    expect(settled.stderr).toBe('');
    const [entries = '', paid = ''] = settled.stdout.split(/\n(?=id,partner_id)/);
    expect(parse(entries, { columns: true })).toEqual([
      expect.objectContaining({ kind: 'visit', partner_id: '2', gym_id: '42', payout_cents: '1500' }),
      expect.objectContaining({ kind: 'visit', partner_id: '2', gym_id: '42', payout_cents: '1500' }),
      expect.objectContaining({ kind: 'visit', partner_id: '2', gym_id: '43', payout_cents: '0' }),
    ]);
    expect(parse(paid, { columns: true })).toEqual([
      expect.objectContaining({
        partner_id: '2',
        currency: 'BRL',
        status: 'paid',
        total_cents: '3000',
        count: '3',
        reference: 'PIX E2E-0001',
      }),
    ]);

    // The day's first visit is reversed: a negative entry, and gym 42's payout loses it.
    const reversed = await session.run(asPasted(reverse));
    expect(reversed.stderr).toBe('');
    const [reversal = '', net = ''] = reversed.stdout.split(/\n(?=partner_id,)/);
    expect(parse(reversal, { columns: true })).toEqual([
      expect.objectContaining({
        kind: 'reversal',
        amount_cents: '-1500',
        currency: 'BRL',
        reason: 'validated for the wrong member',
      }),
    ]);
    expect(net.trim()).toBe(
      'partner_id,gym_id,currency,count,reversals,payout_cents\n2,42,BRL,2,1,1500\n2,43,BRL,1,0,0',
    );

    // The catalog changes: a new price, the gym renamed and in its own time zone.
    const changed = await session.run(asPasted(change));
    expect(changed.stderr).toBe('');
    const [price = '', gym = ''] = changed.stdout.split(/\n(?=id,partner_id)/);
    expect(parse(price, { columns: true })).toEqual([
      {
        id: '2',
        gym_id: '42',
        description: 'Day pass',
        payout_cents: '1800',
        currency: 'BRL',
        retired_at: '',
        category: 'standard',
      },
    ]);
    expect(parse(gym, { columns: true })).toEqual([
      expect.objectContaining({
        id: '42',
        name: 'Acme Paulista',
        timezone: 'America/Sao_Paulo',
        retired_at: '',
      }),
    ]);
  });
});
