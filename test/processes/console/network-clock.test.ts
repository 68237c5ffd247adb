import { describe, expect, it } from 'vitest';
import { useOwnDatabase } from '../../fixtures/processes/arrange.js';
import { useGatehouseProcesses } from '../../fixtures/processes/gatehouse-process.js';
import { expectClean, signInAsOperator, useBrowser } from '../../fixtures/processes/browser.js';

const ADMIN_TOKEN = 'operator-secret-0123456789';

/**
 * Money opens on the network's month, not UTC's: at 22:30 on 30 November in São Paulo (1 December, 01:30 UTC) a
 * finance operator sees November, named in the network's zone, and the period asked of the API starts and ends at
 * São Paulo's midnights.
 */
describe("the console's clock", () => {
  const spawnGatehouse = useGatehouseProcesses();
  const openConsole = useBrowser();
  const ownDatabase = useOwnDatabase();

  it("when it is 22:30 on 30 November in the network's zone but December in UTC, then Money opens on November there", async () => {
    const { url } = await ownDatabase('sqlite');
    const server = await spawnGatehouse({
      GATEHOUSE_DATABASE_URL: url,
      GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
      GATEHOUSE_TIMEZONE: 'America/Sao_Paulo',
    });
    const console = await openConsole(server.baseUrl);
    const { page } = console;
    await page.clock.setFixedTime(new Date('2026-12-01T01:30:00Z'));
    await signInAsOperator(console, ADMIN_TOKEN);
    await page.getByRole('link', { name: 'Live' }).waitFor();

    const asked = page.waitForRequest((request) => request.url().includes('/admin/v1/transactions'));
    await page.getByRole('link', { name: 'Money' }).click();
    const ledger = new URL((await asked).url());

    await expect(page.getByLabel('From (America/Sao_Paulo)').inputValue()).resolves.toBe('2026-11-01');
    await expect(page.getByLabel('To, exclusive (America/Sao_Paulo)').inputValue()).resolves.toBe(
      '2026-12-01',
    );
    expect(Object.fromEntries(ledger.searchParams)).toEqual({
      from: '2026-11-01T03:00:00.000Z',
      to: '2026-12-01T03:00:00.000Z',
      limit: '100',
      order: 'desc',
    });
    await page.getByRole('heading', { name: 'Payouts for the period' }).waitFor();
    await expectClean(console);
  });
});
