import { describe, expect, it } from 'vitest';
import { platformId } from '../../fixtures/factories.js';
import { pgAvailable } from '../../fixtures/postgres.js';
import { customCodeRow, transactionsOf } from '../../fixtures/store-state.js';
import { arrangeCheckins, useOwnDatabase, type Operator } from '../../fixtures/processes/arrange.js';
import { useGatehouseProcesses } from '../../fixtures/processes/gatehouse-process.js';
import { DENY_MESSAGE } from '../../fixtures/wire-bodies.js';
import {
  expectClean,
  screenshots,
  signInAtDesk,
  useBrowser,
  BROWSER_TEST,
} from '../../fixtures/processes/browser.js';

const ADMIN_TOKEN = 'operator-secret-0123456789';
const dialects = pgAvailable ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

describe.each(dialects)('the front desk in a browser (%s)', BROWSER_TEST, (dialect) => {
  const spawnGatehouse = useGatehouseProcesses();
  const openConsole = useBrowser();
  const ownDatabase = useOwnDatabase();

  async function serve(): Promise<{ baseUrl: string; operator: Operator }> {
    const { url, operator } = await ownDatabase(dialect);
    const server = await spawnGatehouse({ GATEHOUSE_DATABASE_URL: url, GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN });
    return { baseUrl: server.baseUrl, operator };
  }

  it('when the desk signs in and validates a waiting member, then a typed one, then an unknown one, then it shows green, green, red and the store has the two visits', async () => {
    const { baseUrl, operator } = await serve();
    const desk = await arrangeCheckins(operator.services, 2);
    // Times at the desk are the gym's own: Tokyo's, UTC+9 all year.
    await operator.services.catalogChanges.updateGym(desk.gym.id, { timezone: 'Asia/Tokyo' });
    const [waiting, typed] = desk.checkins as [(typeof desk.checkins)[0], (typeof desk.checkins)[0]];
    const console = await signInAtDesk(await openConsole(baseUrl, 390), desk.key, desk.gym.id);
    const { page } = console;

    const list = page.getByRole('region', { name: 'Waiting at this gym', exact: true });
    await expect
      .poll(() => list.getByRole('listitem').allInnerTexts())
      .toEqual([expect.stringContaining(waiting.platformId), expect.stringContaining(typed.platformId)]);
    // Linux Chromium has no BarcodeDetector: no camera button, and the input is the way in.
    await expect(page.getByRole('button', { name: 'Scan a code' }).count()).resolves.toBe(0);
    await expectClean(console);
    await screenshots(page, 'front-desk');

    // From the waiting list, with the mouse.
    await page.getByRole('button', { name: `Validate ${waiting.platformId}` }).click();
    const answer = page.getByRole('alertdialog');
    await expect(answer.innerText()).resolves.toContain('Valid');
    await expect(answer.getByText(desk.product.description).count()).resolves.toBe(1);
    await expect(answer.boundingBox()).resolves.toEqual({ x: 0, y: 0, width: 390, height: 900 });
    await expect(
      page.evaluate<string>("getComputedStyle(document.querySelector('.answer')).backgroundColor"),
    ).resolves.toBe('rgb(11, 107, 47)');
    await screenshots(page, 'front-desk-valid');
    await expectClean(console);
    // The answer takes the focus, so the desk's next Enter dismisses it.
    await expect.poll(() => page.evaluate<string>('document.activeElement.textContent')).toBe('Next member');
    await page.keyboard.press('Enter');
    await answer.waitFor({ state: 'detached' });

    // Typed, with a custom code, with the keyboard alone: the input has the focus back.
    await page.keyboard.type(typed.platformId);
    await page.keyboard.press('Tab');
    await page.keyboard.type('QR-77');
    await page.keyboard.press('Enter');
    await expect(answer.innerText()).resolves.toContain(desk.product.description);
    await expect.poll(() => page.evaluate<string>('document.activeElement.textContent')).toBe('Next member');
    await page.keyboard.press('Escape');
    await answer.waitFor({ state: 'detached' });

    const stranger = platformId();
    await page.getByLabel('Member id').fill(stranger);
    await page.getByRole('button', { name: 'Validate', exact: true }).click();
    await expect(answer.innerText()).resolves.toMatch(/Refused[\s\S]*Check-In not found in database/);
    await expect(
      page.evaluate<string>("getComputedStyle(document.querySelector('.answer')).backgroundColor"),
    ).resolves.toBe('rgb(161, 21, 26)');
    await page.getByRole('button', { name: 'Next member' }).click();
    // The refusal is the API's answer, logged by the browser as any failed request: expected, and the only one.
    expect(console.problems.splice(0)).toEqual([
      expect.stringMatching(/^404 http:.*\/access\/v1\/validate$/),
      'Failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);

    await page.getByText('No one is waiting.').waitFor();
    const today = page.getByRole('region', { name: "Today's validations", exact: true }).getByRole('row');
    await expect.poll(() => today.count()).toBe(3);
    const [lastVisit] = await transactionsOf(operator.store, typed.id);
    expect(lastVisit).toBeDefined();
    expect(await transactionsOf(operator.store, waiting.id)).toHaveLength(1);
    // Newest first, at Tokyo's hour (of a 12- or 24-hour clock, as the browser's locale has it), zone named.
    const tokyo = new Date(Number(lastVisit?.validated_at) + 9 * 3_600_000).toISOString().slice(11, 16);
    const [hour = 0, minute = 0] = tokyo.split(':').map(Number);
    const times = await today.locator('td:first-child').allInnerTexts();
    expect(times).toHaveLength(2);
    const first = /^(\d{2}):(\d{2}):\d{2}(?:\s[AP]M)?\s(\S+)$/.exec(times[0] ?? '');
    expect([Number(first?.[1]) % 12, Number(first?.[2]), first?.[3]]).toEqual([hour % 12, minute, 'GMT+9']);
    expect(await customCodeRow(operator.store, desk.gym.id, typed.platformId)).toEqual(
      expect.objectContaining({ code: 'QR-77' }),
    );
    await expectClean(console);
  });

  it("when a partner key signs in at another partner's gym, or as an operator, then it is refused and nothing is shown", async () => {
    const { baseUrl, operator } = await serve();
    const desk = await arrangeCheckins(operator.services, 0);
    const stranger = await arrangeCheckins(operator.services, 1);
    const console = await openConsole(baseUrl);
    const { page } = console;
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await expectClean(console);
    await screenshots(page, 'sign-in');

    await page.getByLabel('Partner API key').fill(desk.key);
    await page.getByLabel('Gym id').fill(String(stranger.gym.id));
    await page.getByRole('button', { name: 'Open the front desk' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe(DENY_MESSAGE);

    await page.getByLabel('Operator token').fill(desk.key);
    await page.getByRole('button', { name: 'Sign in as operator' }).click();
    await expect
      .poll(() => page.getByRole('alert').allInnerTexts())
      .toEqual(['invalid admin token', DENY_MESSAGE]);

    await expect(page.getByRole('heading', { level: 1 }).allInnerTexts()).resolves.toEqual(['Sign in']);
    await expect(page.getByText(stranger.checkins[0]?.platformId ?? '-').count()).resolves.toBe(0);
    await expect(page.getByRole('navigation').count()).resolves.toBe(0);
    await expect(page.evaluate<number>('sessionStorage.length')).resolves.toBe(0);
  });
});
