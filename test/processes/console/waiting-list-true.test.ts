import { describe, expect, it } from 'vitest';
import { platformId } from '../../fixtures/factories.js';
import { arrangeCheckins, useOwnDatabase } from '../../fixtures/processes/arrange.js';
import { useDeskGateway } from '../../fixtures/processes/desk-gateway.js';
import { useGatehouseProcesses } from '../../fixtures/processes/gatehouse-process.js';
import { expectClean, signInAtDesk, useBrowser, BROWSER_TEST } from '../../fixtures/processes/browser.js';

const ADMIN_TOKEN = 'operator-secret-0123456789';

/**
 * The desk's waiting list stays true: members greeted by name (first name, last initial) there and in the answer,
 * a check-in leaves the list at its expiry (which makes no event), and what happened while the desk was cut off
 * is there once it is back.
 */
describe('the waiting list at the desk, over time', BROWSER_TEST, () => {
  const spawnGatehouse = useGatehouseProcesses();
  const openConsole = useBrowser();
  const ownDatabase = useOwnDatabase();
  const startGateway = useDeskGateway();

  it('when members wait, one expires and one checks in while the desk is cut off, then names show, the expired one leaves, the new one appears, and the answer greets by name', async () => {
    const { url, operator } = await ownDatabase('sqlite');
    const server = await spawnGatehouse({
      GATEHOUSE_DATABASE_URL: url,
      GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
      GATEHOUSE_CHECKIN_TTL_SECONDS: '5',
    });
    const gateway = await startGateway(server.baseUrl);
    const desk = await arrangeCheckins(operator.services, 0);
    const checkIn = async (member?: Record<string, string>) => {
      const response = await fetch(`${server.baseUrl}/admin/v1/checkins`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          platform_id: platformId(),
          gym_id: desk.gym.id,
          product_id: desk.product.id,
          ...(member === undefined ? {} : { member }),
        }),
      });
      expect(response.status).toBe(201);
      return (await response.json()) as { id: number; platform_id: string };
    };
    const console = await signInAtDesk(await openConsole(gateway.baseUrl, 390), desk.key, desk.gym.id);
    const { page } = console;
    await page.getByText('Live', { exact: true }).waitFor();
    await page.getByText('No one is waiting.').waitFor();
    // Checked in once the desk is open (a loaded machine may take longer than the check-in lives to open it).
    const ana = await checkIn({ first_name: 'Ana', last_name: 'souza', email: 'ana@example.com' });
    const list = page.getByRole('region', { name: 'Waiting at this gym', exact: true }).getByRole('listitem');
    await expect
      .poll(() => list.allInnerTexts(), { timeout: 4_000 })
      .toEqual([expect.stringMatching(new RegExp(`^${ana.platform_id}\\s+Ana S\\.`))]);

    // Five seconds on, Ana's check-in expires: no event says so, and the list lets her go.
    await expect.poll(() => list.count(), { timeout: 8_000 }).toBe(0);
    await page.getByText('No one is waiting.').waitFor();

    await gateway.switchTo('down');
    const rui = await checkIn({ first_name: 'Rui', last_name: 'Barbosa' });
    await gateway.switchTo('pass');
    await expect
      .poll(() => list.allInnerTexts(), { timeout: 10_000 })
      .toEqual([expect.stringMatching(new RegExp(`^${rui.platform_id}\\s+Rui B\\.`))]);

    await page.getByRole('button', { name: `Validate ${rui.platform_id}` }).click();
    await expect(page.locator('.answer-member').first().innerText()).resolves.toBe(
      `Rui B. · Member ${rui.platform_id}`,
    );
    const rows = await operator.store.db.selectFrom('checkins').select(['platform_id', 'status']).execute();
    expect(rows.sort((x, y) => x.platform_id.localeCompare(y.platform_id))).toEqual(
      [
        { platform_id: ana.platform_id, status: 'pending' },
        { platform_id: rui.platform_id, status: 'validated' },
      ].sort((x, y) => x.platform_id.localeCompare(y.platform_id)),
    );
    console.problems.splice(0);
    await page.getByRole('button', { name: 'Next member' }).click();
    await expectClean(console);
  });
});
