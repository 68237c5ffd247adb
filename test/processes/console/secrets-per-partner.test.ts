import { describe, expect, it } from 'vitest';
import { arrangePartner } from '../../fixtures/factories.js';
import { useOwnDatabase } from '../../fixtures/processes/arrange.js';
import { useGatehouseProcesses } from '../../fixtures/processes/gatehouse-process.js';
import { expectClean, signInAsOperator, useBrowser, BROWSER_TEST } from '../../fixtures/processes/browser.js';

const ADMIN_TOKEN = 'operator-secret-0123456789';

/** A secret shown once belongs to what it was made for: it leaves the screen when the selected partner changes. */
describe('secrets shown once in the console', BROWSER_TEST, () => {
  const spawnGatehouse = useGatehouseProcesses();
  const openConsole = useBrowser();
  const ownDatabase = useOwnDatabase();

  it("when a key is issued for partner B and then partner A is selected, then B's key is no longer shown, and back on B neither", async () => {
    const { url, operator } = await ownDatabase('sqlite');
    const server = await spawnGatehouse({ GATEHOUSE_DATABASE_URL: url, GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN });
    const a = await arrangePartner(operator.services);
    const b = await arrangePartner(operator.services);
    const console = await signInAsOperator(await openConsole(server.baseUrl), ADMIN_TOKEN);
    const { page } = console;
    await page.getByRole('link', { name: 'Network' }).click();
    await page.getByRole('button', { name: `${b.partner.name} #${b.partner.id}` }).click();
    await page.getByRole('heading', { name: `Keys of ${b.partner.name}` }).waitFor();
    await page.getByRole('button', { name: 'Issue key' }).click();
    const shown = page.getByTestId('issued-key');
    const issued = await shown.innerText();
    expect(issued).toMatch(/^ghk_/);
    const keys = await operator.store.db.selectFrom('api_keys').select(['partner_id']).execute();
    expect(keys.filter((key) => key.partner_id === b.partner.id)).toHaveLength(2);

    await page.getByRole('button', { name: `${a.partner.name} #${a.partner.id}` }).click();
    await page.getByRole('heading', { name: `Keys of ${a.partner.name}` }).waitFor();
    await expect(shown.count()).resolves.toBe(0);
    await expect(page.getByText(issued).count()).resolves.toBe(0);

    await page.getByRole('button', { name: `${b.partner.name} #${b.partner.id}` }).click();
    await page.getByRole('heading', { name: `Keys of ${b.partner.name}` }).waitFor();
    await expect(shown.count()).resolves.toBe(0);
    await expectClean(console);
  });

  it('when a partner is selected, then the URL names it: a reload, and a sign-in from that link, show the same partner', async () => {
    const { url, operator } = await ownDatabase('sqlite');
    const server = await spawnGatehouse({ GATEHOUSE_DATABASE_URL: url, GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN });
    await arrangePartner(operator.services);
    const b = await arrangePartner(operator.services);
    const console = await signInAsOperator(await openConsole(server.baseUrl), ADMIN_TOKEN);
    const { page } = console;
    await page.getByRole('link', { name: 'Network' }).click();
    await page.getByRole('button', { name: `${b.partner.name} #${b.partner.id}` }).click();
    await page.getByRole('heading', { name: `Keys of ${b.partner.name}` }).waitFor();
    const link = page.url();
    expect(new URL(link).hash).toBe(`#/network?partner=${b.partner.id}`);

    await page.reload();
    await page.getByRole('heading', { name: `Keys of ${b.partner.name}` }).waitFor();
    await expect(
      page.getByRole('button', { name: `${b.partner.name} #${b.partner.id}` }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');

    const fresh = await openConsole(server.baseUrl);
    await fresh.page.goto(link);
    await signInAsOperator(fresh, ADMIN_TOKEN);
    await fresh.page.getByRole('heading', { name: `Keys of ${b.partner.name}` }).waitFor();
    await expect(
      fresh.page.getByRole('link', { name: 'Network' }).getAttribute('aria-current'),
    ).resolves.toBe('page');
    await expectClean(console);
    await expectClean(fresh);
  });
});
