import { describe, expect, it } from 'vitest';
import { checkinRow, transactionsOf } from '../../fixtures/store-state.js';
import { arrangeCheckins, useOwnDatabase } from '../../fixtures/processes/arrange.js';
import { useDeskGateway } from '../../fixtures/processes/desk-gateway.js';
import { useGatehouseProcesses } from '../../fixtures/processes/gatehouse-process.js';
import {
  expectClean,
  screenshots,
  signInAtDesk,
  useBrowser,
  type ConsolePage,
  BROWSER_TEST,
} from '../../fixtures/processes/browser.js';

const AMBER = 'rgb(245, 181, 10)';
const GREEN = 'rgb(11, 107, 47)';

/**
 * The desk validates while gatehouse cannot be reached, answers 503 or 429, or its answer is
 * lost. Each shows amber ("not confirmed", with Try again, retried on its own after Retry-After), never red, and the
 * check-in stays pending until a try goes through; a retry that finds the visit made shows green. SQLite: what is
 * tried here is the console's, whatever the dialect behind it.
 */
describe('the front desk when gatehouse does not answer', BROWSER_TEST, () => {
  const spawnGatehouse = useGatehouseProcesses();
  const openConsole = useBrowser();
  const ownDatabase = useOwnDatabase();
  const startGateway = useDeskGateway();

  async function deskBehindGateway(count: number) {
    const { url, operator } = await ownDatabase('sqlite');
    const server = await spawnGatehouse({ GATEHOUSE_DATABASE_URL: url });
    const gateway = await startGateway(server.baseUrl);
    const desk = await arrangeCheckins(operator.services, count);
    const console = await signInAtDesk(await openConsole(gateway.baseUrl, 390), desk.key, desk.gym.id);
    return { operator, gateway, desk, console };
  }

  const answerOf = async ({ page }: ConsolePage) => ({
    title: await page.getByRole('alertdialog').getByRole('heading').innerText(),
    text: await page.locator('#answer-text').innerText(),
    colour: await page.evaluate<string>(
      "getComputedStyle(document.querySelector('.answer')).backgroundColor",
    ),
  });
  /**
   * What the browser logged while gatehouse was away: failed requests only (and the retry's 400 "already validated"
   * where the first try went through), nothing of another host or policy.
   */
  const onlyFailedRequests = (console: ConsolePage) => {
    const problems = console.problems.splice(0);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      expect(problem).toMatch(
        /^(Failed to load resource|(429|503) http:\/\/console\.gatehouse\.test:\d+\/|400 http:\/\/console\.gatehouse\.test:\d+\/access\/v1\/validate$)/,
      );
    }
  };

  it('when gatehouse is unreachable, then busy (429), then unavailable (503), then back, then the desk shows amber each time, the check-in stays pending, and the retry on its own shows green with one visit', async () => {
    const { operator, gateway, desk, console } = await deskBehindGateway(1);
    const { page } = console;
    const [checkin] = desk.checkins as [(typeof desk.checkins)[0]];
    const member = checkin.platformId;

    await gateway.switchTo('down');
    await page.getByRole('button', { name: `Validate ${member}` }).click();
    await expect
      .poll(() => answerOf(console))
      .toEqual({
        title: 'Not confirmed',
        text: 'gatehouse could not be reached: nothing was done, the check-in is unchanged.',
        colour: AMBER,
      });
    await expect.poll(() => page.evaluate<string>('document.activeElement.textContent')).toBe('Try again');
    await expect(page.getByRole('button', { name: 'Next member' }).count()).resolves.toBe(1);
    await screenshots(page, 'front-desk-unreached');
    expect((await checkinRow(operator.store, checkin.id))?.status).toBe('pending');

    await gateway.switchTo('busy');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect
      .poll(() => answerOf(console))
      .toEqual({
        title: 'Not confirmed',
        text: 'gatehouse is busy: nothing was done, the check-in is unchanged.',
        colour: AMBER,
      });
    await expect(
      page.getByRole('status').filter({ hasText: 'Trying again in' }).innerText(),
    ).resolves.toMatch(/^Trying again in [01] s$/);

    await gateway.switchTo('unavailable');
    // Retry-After: 1 — the desk tries again on its own, and the 503 is amber too.
    await expect
      .poll(() => answerOf(console), { timeout: 5_000 })
      .toEqual({
        title: 'Not confirmed',
        text: 'gatehouse could not confirm it: the visit may or may not be recorded.',
        colour: AMBER,
      });
    expect((await checkinRow(operator.store, checkin.id))?.status).toBe('pending');
    expect(await transactionsOf(operator.store, checkin.id)).toEqual([]);

    await gateway.switchTo('pass');
    await expect
      .poll(() => answerOf(console), { timeout: 5_000 })
      .toEqual({
        title: 'Valid',
        text: desk.product.description,
        colour: GREEN,
      });
    expect((await checkinRow(operator.store, checkin.id))?.status).toBe('validated');
    expect(await transactionsOf(operator.store, checkin.id)).toHaveLength(1);
    onlyFailedRequests(console);
    await page.getByRole('button', { name: 'Next member' }).click();
    await page.getByText('No one is waiting.').waitFor();
  });

  it('when the validation goes through but its answer is lost, then amber, and Try again shows green with the one visit', async () => {
    const { operator, gateway, desk, console } = await deskBehindGateway(1);
    const { page } = console;
    const [checkin] = desk.checkins as [(typeof desk.checkins)[0]];

    await gateway.switchTo('answer-lost');
    await page.getByLabel('Member id').fill(checkin.platformId);
    await page.getByRole('button', { name: 'Validate', exact: true }).click();
    await expect
      .poll(() => answerOf(console))
      .toEqual({
        title: 'Not confirmed',
        text: 'gatehouse could not confirm it: the visit may or may not be recorded.',
        colour: AMBER,
      });
    expect(await transactionsOf(operator.store, checkin.id)).toHaveLength(1);

    await gateway.switchTo('pass');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => answerOf(console))
      .toEqual({
        title: 'Valid',
        text: 'Validated: the earlier try went through.',
        colour: GREEN,
      });
    expect(await transactionsOf(operator.store, checkin.id)).toHaveLength(1);
    onlyFailedRequests(console);
    await page.keyboard.press('Escape');
    await expectClean(console);
  });
});
