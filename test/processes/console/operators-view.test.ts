import { beforeAll, describe, expect, it } from 'vitest';
import { arrangePartner } from '../../fixtures/factories.js';
import { arrangeCheckins, useOwnDatabase, type Operator } from '../../fixtures/processes/arrange.js';
import { useGatehouseProcesses } from '../../fixtures/processes/gatehouse-process.js';
import {
  expectClean,
  issueOperator,
  screenshots,
  signInAsOperator,
  useBrowser,
  type ConsolePage,
  BROWSER_TEST,
} from '../../fixtures/processes/browser.js';

const ADMIN_TOKEN = 'operator-secret-operators-0123456789';

/*
 * The Operators view against one real `gatehouse serve` on SQLite: an admin creates and disables an operator, a
 * member's data is erased after the page said what would happen, a sandbox partner is added in Network, plans and
 * payout rules are set there; each role is shown only what it may do there.
 */
describe('operators, erasure and sandbox partners in the console', BROWSER_TEST, () => {
  const spawnGatehouse = useGatehouseProcesses('file');
  const openConsole = useBrowser();
  const ownDatabase = useOwnDatabase('file');
  let baseUrl: string;
  let operator: Operator;

  beforeAll(async () => {
    const database = await ownDatabase('sqlite');
    operator = database.operator;
    const server = await spawnGatehouse({
      GATEHOUSE_DATABASE_URL: database.url,
      GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    baseUrl = server.baseUrl;
  });

  async function signIn(token: string, width = 1280): Promise<ConsolePage> {
    const console = await signInAsOperator(await openConsole(baseUrl, width), token);
    await console.page.getByRole('navigation', { name: 'Views' }).waitFor();
    return console;
  }
  const me = (token: string) =>
    fetch(`${baseUrl}/admin/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  /** An operator API answer read with the admin token: its status and whole body. */
  async function adminGet(path: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${baseUrl}/admin/v1${path}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    return { status: response.status, body: await response.json() };
  }
  /** The Network view of `token`'s role, on one partner. */
  async function networkOf(token: string, partnerId: number, width = 1280): Promise<ConsolePage> {
    const console = await signIn(token, width);
    await console.page.goto(console.page.url().replace(/#.*$/, `#/network?partner=${partnerId}`));
    await console.page.getByRole('heading', { name: 'Plans' }).waitFor();
    return console;
  }

  it('when an admin creates an operator, changes its role and then disables it, then its token is shown once, takes the new role, and is refused once disabled', async () => {
    const console = await signIn(ADMIN_TOKEN);
    const { page } = console;
    await page.getByRole('link', { name: 'Operators' }).click();
    const form = page.getByRole('form', { name: 'New operator' });
    await form.getByLabel('Name (a login or an e-mail address)').fill('olga');
    await form.getByLabel('Role').selectOption('support');
    await form.getByRole('button', { name: 'Create operator' }).click();
    const token = await page.getByTestId('created-token').innerText();
    expect(token).toMatch(/^gho_/);
    expect((await me(token)).status).toBe(200);
    const table = page.getByRole('region', { name: 'Operators table' });
    const row = table.getByRole('row').filter({ hasText: 'olga' });
    const role = row.getByRole('combobox', { name: 'Role of olga' });
    await expect.poll(() => role.inputValue()).toBe('support');
    await expect(row.getByRole('cell').nth(3).innerText()).resolves.toBe('active');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect(page.getByTestId('created-token').count()).resolves.toBe(0);

    await role.selectOption('finance');
    await row.getByRole('button', { name: 'Change the role of olga' }).click();
    await expect
      .poll(async () => ((await (await me(token)).json()) as { role: string }).role)
      .toBe('finance');
    await expect(role.inputValue()).resolves.toBe('finance');

    await row.getByRole('button', { name: 'Disable olga' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm: Disable olga' });
    await expect(confirm.innerText()).resolves.toContain(
      "olga's token is refused from its next request on; this cannot be undone",
    );
    await confirm.getByRole('button', { name: 'Yes, disable' }).click();
    await expect.poll(() => row.getByRole('cell').nth(3).innerText()).toMatch(/^disabled /);

    // The API answers a token it no longer accepts as it answers a wrong one.
    expect((await me(token)).status).toBe(403);
    const stored = await operator.store.db
      .selectFrom('operators')
      .select(['name', 'role', 'created_by'])
      .where('revoked_at', 'is not', null)
      .execute();
    expect(stored).toEqual([{ name: 'olga', role: 'finance', created_by: 'operator' }]);
    await expect(row.getByRole('cell').nth(1).innerText()).resolves.toBe('finance');
    await expectClean(console);
    await screenshots(page, 'operators');
  });

  it("when a support operator erases a member, then the page says what will happen first, and afterwards the member's id is gone from the store", async () => {
    const desk = await arrangeCheckins(operator.services, 1);
    const member = desk.checkins[0]?.platformId ?? '';
    const console = await signIn(await issueOperator(baseUrl, ADMIN_TOKEN, 'sara', 'support'), 390);
    const { page } = console;
    await page.getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('heading', { name: 'Erase a member' }).waitFor();
    await expect(page.getByRole('heading', { name: 'Operators and roles' }).count()).resolves.toBe(0);

    await page.getByLabel('Member id (13 digits)').fill(member);
    await page.getByRole('button', { name: `Erase member ${member}` }).click();
    const confirm = page.getByRole('group', { name: `Confirm: Erase member ${member}` });
    await expect(confirm.innerText()).resolves.toContain(
      `Member ${member}'s custom codes are deleted, their events' details purged, and their id replaced by a pseudonym in check-ins, visits and the audit. This cannot be undone.`,
    );
    const before = await operator.store.db.selectFrom('checkins').select('platform_id').execute();
    expect(before.map((row) => row.platform_id)).toContain(member);
    await confirm.getByRole('button', { name: 'Yes, erase member' }).click();

    const note = page.getByRole('status').filter({ hasText: `Member ${member} is now` });
    await note.waitFor();
    const after = await operator.store.db.selectFrom('checkins').select('platform_id').execute();
    expect(after.map((row) => row.platform_id)).not.toContain(member);
    const [pseudonym] = after.filter((row) => !before.some((old) => old.platform_id === row.platform_id));
    await expect(note.innerText()).resolves.toBe(
      `Member ${member} is now ${pseudonym?.platform_id}. Changed: 1 check-in, 1 event. Not reached: payloads already delivered to webhook receivers and event streams; backups made before the erasure.`,
    );
    await expectClean(console);
  });

  it('when an admin adds a sandbox partner in Network, then it is stored as one and listed as one', async () => {
    const console = await signIn(ADMIN_TOKEN, 390);
    const { page } = console;
    await page.getByRole('link', { name: 'Network' }).click();
    const form = page.getByRole('form', { name: 'New partner' });
    await form.getByLabel('Partner name').fill('Trial Studio');
    await form.getByLabel('Sandbox partner (test keys; its visits are never paid)').check();
    await form.getByRole('button', { name: 'Add partner' }).click();

    const listed = page.getByRole('button', { name: /^Trial Studio #\d+ \(sandbox\)$/ });
    await listed.waitFor();
    const stored = await operator.store.db
      .selectFrom('partners')
      .select(['id', 'sandbox'])
      .where('name', '=', 'Trial Studio')
      .execute();
    expect(stored.map((row) => Number(row.sandbox))).toEqual([1]);
    await expect(listed.innerText()).resolves.toBe(`Trial Studio #${stored[0]?.id} (sandbox)`);
    await expectClean(console);
  });

  it('when a finance operator signs in, then there is no Operators view for it', async () => {
    const console = await signIn(await issueOperator(baseUrl, ADMIN_TOKEN, 'fran', 'finance'));
    const { page } = console;
    await page.getByRole('link', { name: 'Money' }).waitFor();
    await expect(page.getByRole('link', { name: 'Operators' }).count()).resolves.toBe(0);
    await page.goto(page.url().replace(/#.*$/, '#/operators'));
    await page.getByRole('heading', { name: 'Live' }).waitFor();
    await expectClean(console);
  });

  it('when an admin creates a plan in Network, is refused a repeated rule, then publishes a second version, then the page says the rules in words and the API holds both versions', async () => {
    const console = await signIn(ADMIN_TOKEN);
    const { page } = console;
    await page.getByRole('link', { name: 'Network' }).click();
    const plans = page.getByRole('region', { name: 'Plans' });
    const create = plans.getByRole('form', { name: 'New plan' });
    await create.getByLabel('Plan name').fill('Gold');
    await create.getByRole('button', { name: 'Add a rule' }).click();
    await create.getByLabel('Rule 2: product category').fill('premium');
    await create.getByLabel('Rule 2: visits').fill('4');
    await create.getByLabel('Rule 2: per').selectOption('month');
    await create.getByLabel('Rule 2: scope (where visits count)').selectOption('partner');
    await create.getByRole('button', { name: 'Create plan' }).click();
    const gold = plans.getByRole('article', { name: /^Gold plan \d+ · version 1$/ });
    await expect
      .poll(() => gold.getByRole('paragraph').first().innerText())
      .toMatch(
        /^1 standard visit a day, network-wide; 4 premium visits a month, across each partner's gyms \(from .+\)$/,
      );

    // Two rules for one category, period and scope: the API refuses, the page says why, nothing is stored.
    await create.getByLabel('Plan name').fill('Silver');
    await create.getByRole('button', { name: 'Add a rule' }).click();
    await create.getByRole('button', { name: 'Create plan' }).click();
    await expect(create.getByRole('alert').innerText()).resolves.toBe(
      'repeats the rule for standard per day at network scope',
    );
    const stored = await operator.store.db.selectFrom('plans').select('name').execute();
    expect(stored).toEqual([{ name: 'Gold' }]);
    // The refusal is the API's answer, logged by the browser as any failed request: expected, and the only one.
    expect(console.problems.splice(0)).toEqual([
      expect.stringMatching(/^400 http:.*\/admin\/v1\/plans$/),
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);

    await gold.getByText('Change the rules of Gold').click();
    const version = gold.getByRole('form', { name: 'New version of Gold' });
    await version.getByLabel('Rule 1: visits').fill('2');
    await version.getByRole('button', { name: 'Publish version 2' }).click();
    const gold2 = plans.getByRole('article', { name: /^Gold plan \d+ · version 2$/ });
    await expect(gold2.getByRole('paragraph').first().innerText()).resolves.toMatch(
      /^2 standard visits a day, network-wide; 4 premium visits a month, across each partner's gyms/,
    );

    const premium = { category: 'premium', per: 'month', limit: 4, scope: 'partner' };
    const v1 = [{ category: 'standard', per: 'day', limit: 1, scope: 'network' }, premium];
    const v2 = [{ category: 'standard', per: 'day', limit: 2, scope: 'network' }, premium];
    const instant = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown;
    const [{ id }] = (await operator.store.db.selectFrom('plans').select('id').execute()) as [{ id: number }];
    expect(await adminGet('/plans')).toEqual({
      status: 200,
      body: {
        items: [
          {
            id,
            name: 'Gold',
            version: 2,
            rules: v2,
            effective_from: instant,
            versions: [
              { version: 1, rules: v1, effective_from: instant },
              { version: 2, rules: v2, effective_from: instant },
            ],
          },
        ],
        next_cursor: null,
      },
    });
    await expectClean(console);
    await screenshots(page, 'network-plans');
  });

  it("when a finance operator sets a partner's and a gym's payout rules, then the page shows the versions in force, a refusal in the form, and the plans read-only", async () => {
    const { partner, gym } = await arrangePartner(operator.services);
    const plan = await operator.services.plans.create(`Basic ${partner.id}`, {
      rules: [{ category: 'standard', per: 'week', limit: 3, scope: 'gym' }],
    });
    const console = await networkOf(
      await issueOperator(baseUrl, ADMIN_TOKEN, 'fiona', 'finance'),
      partner.id,
      390,
    );
    const { page } = console;
    const basic = page.getByRole('article', { name: `Basic ${partner.id} plan ${plan.planId} · version 1` });
    await expect(basic.getByRole('paragraph').innerText()).resolves.toMatch(
      /^3 standard visits a week, at each gym/,
    );
    await expect(page.getByRole('form', { name: 'New plan' }).count()).resolves.toBe(0);
    await expect(basic.getByRole('form').count()).resolves.toBe(0);

    const rules = page.getByRole('region', { name: `Payout rules of ${partner.name}` });
    const inForce = rules.getByTestId(`payout-partners-${partner.id}`);
    await expect(inForce.innerText()).resolves.toBe('None: every visit is paid its list price.');
    const form = rules.getByRole('form', { name: `New payout rules of ${partner.name}` });
    await expect(form.innerText()).resolves.toContain(
      'They apply to visits validated from now on; visits already validated keep what they paid.',
    );
    await form.getByLabel('Paid visits per member a month (empty: no cap)').fill('1');
    await form.getByRole('button', { name: 'Add a tier' }).click();
    await form.getByLabel("Tier 1: once the month's paid total is above").fill('10000');
    await form.getByLabel('Tier 1: % of the price paid').fill('150');
    await form.getByRole('button', { name: 'Set payout rules' }).click();
    await expect(form.getByRole('alert').innerText()).resolves.toBe(
      'must be from 0 to 100, with at most two decimals',
    );
    expect(await adminGet(`/partners/${partner.id}/payout-rules`)).toEqual({
      status: 200,
      body: { versions: [] },
    });
    expect(console.problems.splice(0)).toEqual([
      expect.stringMatching(/^400 http:.*\/admin\/v1\/partners\/\d+\/payout-rules$/),
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);

    await form.getByLabel('Tier 1: % of the price paid').fill('90');
    await form.getByRole('button', { name: 'Set payout rules' }).click();
    await expect
      .poll(() => inForce.innerText())
      .toMatch(
        /^Version 1, from .+: 1 paid visit per member a month, later ones paid 0; 90% of the price once the month's paid total is above 10,000\.00\.$/,
      );
    const instant = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown;
    expect(await adminGet(`/partners/${partner.id}/payout-rules`)).toEqual({
      status: 200,
      body: {
        versions: [
          {
            version: 1,
            monthly_paid_visits_per_member: 1,
            tiers: [{ after_cents: 1_000_000, rate_pct: 90 }],
            effective_from: instant,
          },
        ],
      },
    });

    // The gym's own rules override its partner's there: no cap, no tiers, from now on.
    const own = page.getByRole('region', { name: `Payout rules at gym ${gym.id}` });
    const ownInForce = own.getByTestId(`payout-gyms-${gym.id}`);
    await expect(ownInForce.innerText()).resolves.toBe("None of its own: its partner's apply.");
    await own.getByText(`Set payout rules at gym ${gym.id}`).click();
    await own.getByLabel('Paid visits per member a month (empty: no cap)').fill('3');
    await own.getByRole('button', { name: 'Set payout rules', exact: true }).click();
    await expect
      .poll(() => ownInForce.innerText())
      .toMatch(/^Version 1, from .+: 3 paid visits per member a month, later ones paid 0\.$/);
    expect(await adminGet(`/gyms/${gym.id}/payout-rules`)).toEqual({
      status: 200,
      body: {
        versions: [{ version: 1, monthly_paid_visits_per_member: 3, tiers: [], effective_from: instant }],
      },
    });
    await expectClean(console);
    await screenshots(page, 'network-payout-rules');
  });

  it('when a readonly operator opens Network, then it reads the plans and payout rules and is offered no form to change them', async () => {
    const { partner } = await arrangePartner(operator.services);
    await operator.services.payoutRules.set(
      { partnerId: partner.id },
      { monthlyPaidVisitsPerMember: 8, tiers: [] },
    );
    const console = await networkOf(
      await issueOperator(baseUrl, ADMIN_TOKEN, 'rita', 'readonly'),
      partner.id,
    );
    const { page } = console;
    const rules = page.getByRole('region', { name: `Payout rules of ${partner.name}` });
    await expect
      .poll(() => rules.getByTestId(`payout-partners-${partner.id}`).innerText())
      .toMatch(/^Version 1, from .+: 8 paid visits per member a month, later ones paid 0\.$/);
    await expect(
      page.getByRole('region', { name: 'Plans' }).getByRole('article').count(),
    ).resolves.toBeGreaterThan(0);
    await expect(page.getByRole('form', { name: /payout rules|plan|version of/i }).count()).resolves.toBe(0);
    await expect(
      page.getByRole('button', { name: /Set payout rules|Create plan|Publish/ }).count(),
    ).resolves.toBe(0);
    await expectClean(console);
  });
});
