import { beforeAll, describe, expect, it } from 'vitest';
import { arrangeCheckins, useOwnDatabase, type Operator } from '../../fixtures/processes/arrange.js';
import { useGatehouseProcesses } from '../../fixtures/processes/gatehouse-process.js';
import {
  expectClean,
  issueOperator,
  screenshots,
  signInAsOperator,
  useBrowser,
  type ConsolePage,
} from '../../fixtures/processes/browser.js';

const ADMIN_TOKEN = 'operator-secret-operators-0123456789';

/*
 * The Operators view against one real `gatehouse serve` on SQLite: an admin creates and disables an operator, a
 * member's data is erased after the page said what would happen, a sandbox partner is added in Network; each role
 * is shown only what it may do there.
 */
describe('operators, erasure and sandbox partners in the console', () => {
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
      `Member ${member} is now ${pseudonym?.platform_id}. Changed: 1 checkins, 1 events. Not reached: payloads already delivered to webhook receivers and event streams; backups made before the erasure.`,
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
});
