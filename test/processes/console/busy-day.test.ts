import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformId } from '../../fixtures/factories.js';
import { useConsoleServer } from '../../fixtures/processes/arrange.js';
import { eventually, startReceiver, type Receiver } from '../../fixtures/webhook-receiver.js';
import {
  expectClean,
  screenshots,
  signInAsOperator,
  signInAtDesk,
  useBrowser,
  type ConsolePage,
  BROWSER_TEST,
} from '../../fixtures/processes/browser.js';

const ADMIN_TOKEN = 'operator-secret-busy-day-0123456789';
/** The day's check-ins; the last VALIDATED of them are validated: 1,000 events, each delivered to the webhook. */
const CHECKINS = 600;
const VALIDATED = 400;
const PAGE = 100;

/*
 * A busy day against one real `gatehouse serve` on SQLite: 600 members checked in and 400 of them validated, each
 * of those 1,000 events delivered to a real receiver on loopback, then one last action. The console's lists show
 * the newest first, a page at a time, so today's latest action is the first row of the Ledger, a delivery log and
 * Audit, and every page down to the day's first can be read.
 */
describe('a busy day in the console', BROWSER_TEST, () => {
  const { baseUrl, operator, desk } = useConsoleServer('busy', ADMIN_TOKEN, 0);
  const openConsole = useBrowser();
  let receiver: Receiver;
  let webhookId: number;

  beforeAll(async () => {
    receiver = await startReceiver();
    const registered = await fetch(`${baseUrl()}/admin/v1/partners/${desk().partner.id}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(registered.status).toBe(201);
    webhookId = ((await registered.json()) as { id: number }).id;
    for (let i = 0; i < CHECKINS; i += 1) {
      const member = platformId();
      const { checkins, validation } = operator().services;
      await checkins.create({ platformId: member, gymId: desk().gym.id, productId: desk().product.id });
      if (i >= CHECKINS - VALIDATED)
        await validation.validate({ gymId: desk().gym.id, platformId: member, customCode: undefined });
    }
    await eventually(() => receiver.received.length === CHECKINS + VALIDATED, 90_000);
    const pending = () =>
      operator()
        .store.db.selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '!=', 'delivered')
        .execute();
    await eventually(async () => (await pending()).length === 0);
  }, 180_000);
  afterAll(() => receiver.close());

  async function signIn(width: number): Promise<ConsolePage> {
    const console = await signInAsOperator(await openConsole(baseUrl(), width), ADMIN_TOKEN);
    await console.page.getByRole('navigation', { name: 'Views' }).waitFor();
    return console;
  }

  /** The table's rows below its header, each as its cells' text. */
  const rowsOf = async (table: Locator) =>
    (await table.getByRole('row').allInnerTexts())
      .slice(1)
      .map((row) => row.split('\t').map((cell) => cell.trim()));

  /**
   * Reads a list from its newest page (shown) to its oldest with its Older button, each page `expected`'s next
   * PAGE rows, and finds no Older button on the last.
   */
  async function readsEveryPage<T>(shown: () => Promise<T[]>, older: Locator, expected: T[]): Promise<void> {
    for (let first = 0; first < expected.length; first += PAGE) {
      if (first > 0) await older.click();
      await expect.poll(shown).toEqual(expected.slice(first, first + PAGE));
    }
    await expect(older.count()).resolves.toBe(0);
  }

  it('when the ledger holds more than a page, then Money lists the newest visit first and Older entries reads on to the first', async () => {
    const visits = await operator()
      .store.db.selectFrom('transactions')
      .select(['id', 'gym_id', 'platform_id'])
      .orderBy('id', 'desc')
      .execute();
    expect(visits).toHaveLength(VALIDATED);
    const console = await signIn(1280);
    const { page } = console;
    await page.getByRole('link', { name: 'Money' }).click();
    const ledger = page.getByRole('region', { name: 'Ledger table' });

    const shown = async () => (await rowsOf(ledger)).map((cells) => cells.slice(1, 4));
    await expect
      .poll(async () => (await shown()).slice(0, 1))
      .toEqual([[`visit ${visits[0]?.id}`, String(desk().gym.id), visits[0]?.platform_id]]);
    const expected = visits.map((visit) => [`visit ${visit.id}`, String(visit.gym_id), visit.platform_id]);
    await readsEveryPage(shown, page.getByRole('button', { name: 'Older entries' }), expected);
    await page.getByRole('button', { name: 'Newest entries' }).click();
    await expect.poll(async () => (await shown()).length).toBe(PAGE);
    await expectClean(console);
    await screenshots(page, 'money-busy-day');
  });

  it("when a webhook's log holds more than a page, then the newest delivery comes first with its attempt and answer, older ones a page at a time", async () => {
    const deliveries = await operator()
      .store.db.selectFrom('webhook_deliveries')
      .select(['event_type', 'event_id', 'status', 'attempts', 'last_status_code'])
      .where('endpoint_id', '=', webhookId)
      .orderBy('id', 'desc')
      .execute();
    expect(deliveries).toHaveLength(CHECKINS + VALIDATED);
    expect(deliveries[0]?.event_type).toBe('checkin.validated');
    const console = await signIn(390);
    const { page } = console;
    await page.getByRole('link', { name: 'Network' }).click();
    await page.getByRole('button', { name: new RegExp(`#${desk().partner.id}$`) }).click();
    await page.getByRole('button', { name: `Deliveries to ${receiver.url}` }).click();
    const log = page.getByRole('region', { name: 'Deliveries table' });

    const expected = deliveries.map((delivery) => [
      `${delivery.event_type} ${delivery.event_id}`,
      delivery.status,
      String(delivery.attempts),
      `HTTP ${delivery.last_status_code}`,
    ]);
    const shown = async () => (await rowsOf(log)).map((cells) => [cells[1], cells[2], cells[3], cells[5]]);
    await expect.poll(async () => (await shown()).slice(0, 1)).toEqual(expected.slice(0, 1));
    await readsEveryPage(shown, page.getByRole('button', { name: 'Older deliveries' }), expected);
    await page.getByRole('button', { name: 'Newest deliveries' }).click();
    await expect.poll(async () => (await shown()).slice(0, 1)).toEqual(expected.slice(0, 1));
    await expectClean(console);
  });

  it("when the day's last action is a key issued, then it is the first row of Audit and the first key of the partner", async () => {
    const console = await signIn(1280);
    const { page } = console;
    await page.getByRole('link', { name: 'Audit' }).click();
    const audit = page.getByRole('region', { name: 'Audit table' });
    await audit.getByRole('cell').first().waitFor();
    // The day's last action, once the console has opened (its live view's stream is audited as it opens).
    const issued = await operator().services.apiKeys.issue(desk().partner.id, {
      label: 'evening desk',
      gymIds: null,
    });
    await page.getByRole('link', { name: 'Network' }).click();
    await page.getByRole('link', { name: 'Audit' }).click();

    await expect
      .poll(async () => (await rowsOf(audit))[0]?.slice(2))
      .toEqual(['issue', `key ${issued.key.id}`]);
    const [last] = await operator()
      .store.db.selectFrom('audit_log')
      .select(['action', 'entity', 'entity_id'])
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    expect(last).toEqual({ action: 'issue', entity: 'key', entity_id: String(issued.key.id) });

    await page.getByRole('link', { name: 'Network' }).click();
    await page.getByRole('button', { name: new RegExp(`#${desk().partner.id}$`) }).click();
    const keys = page.getByRole('region', { name: 'Keys table' });
    await expect
      .poll(async () => (await rowsOf(keys)).map((cells) => cells[1]))
      .toEqual(['evening desk', 'front desk']);
    await page.setViewportSize({ width: 390, height: 900 });
    await expectClean(console);
  });
  it("when the desk's day holds more than a page of visits and a reversal, then Today lists visits only, newest first, a page at a time", async () => {
    const visits = await operator()
      .store.db.selectFrom('transactions')
      .select(['id', 'platform_id'])
      .where('gym_id', '=', desk().gym.id)
      .orderBy('id', 'desc')
      .execute();
    const [reversed] = visits.slice(-1);
    await operator().services.ledger.reverse({
      transactionId: Number(reversed?.id),
      reason: 'charged twice',
    });
    const console = await signInAtDesk(await openConsole(baseUrl(), 390), desk().key, desk().gym.id);
    const { page } = console;
    const today = page.getByRole('region', { name: "Today's validations table" });

    const members = async () => (await rowsOf(today)).map((cells) => cells[1]);
    const expected = visits.map((visit) => visit.platform_id);
    await readsEveryPage(members, page.getByRole('button', { name: 'Older visits' }), expected);
    await expectClean(console);
    await page.getByRole('button', { name: 'Newest visits' }).click();
    await expect.poll(async () => (await members()).slice(0, 1)).toEqual(expected.slice(0, 1));
  });

  it("when an operator searches a member id, then the member's check-ins, visits and audit entries show, and the link opens them again", async () => {
    const [visit] = await operator()
      .store.db.selectFrom('transactions')
      .select(['id', 'checkin_id', 'platform_id'])
      .where('gym_id', '=', desk().gym.id)
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    const member = String(visit?.platform_id);
    const console = await signIn(1280);
    const { page } = console;
    await page.getByRole('link', { name: 'Search' }).click();
    await page.getByRole('search', { name: 'Search a member' }).getByLabel('Member id').fill(member);
    await page.keyboard.press('Enter');

    const checkins = page.getByRole('region', { name: 'Member check-ins table' });
    const visitsTable = page.getByRole('region', { name: 'Member visits table' });
    const audit = page.getByRole('region', { name: 'Member audit table' });
    const shown = async () => ({
      checkins: (await rowsOf(checkins)).map((cells) => cells.slice(0, 3)),
      visits: (await rowsOf(visitsTable)).map((cells) => cells.slice(0, 2)),
      audit: (await rowsOf(audit)).map((cells) => cells.slice(2)),
    });
    const expected = {
      checkins: [[String(visit?.checkin_id), String(desk().gym.id), 'validated']],
      visits: [[`visit ${visit?.id}`, String(desk().gym.id)]],
      audit: [['create', `checkin ${visit?.checkin_id}`]],
    };
    await expect.poll(shown).toEqual(expected);
    expect(new URL(page.url()).hash).toBe(`#/search?member=${member}`);
    await expectClean(console);

    await page.reload();
    await expect.poll(shown).toEqual(expected);
    await page.setViewportSize({ width: 390, height: 900 });
    await expectClean(console);
    await screenshots(page, 'search-busy-day');
  });

  it('when an operator filters partners by part of a name in another case, then only those partners are offered, and the link keeps the filter', async () => {
    const yoga = await operator().services.catalog.createPartner('Yoga Ação Centro');
    const console = await signIn(390);
    const { page } = console;
    await page.getByRole('link', { name: 'Network' }).click();
    const picker = page.getByRole('region', { name: 'Partners' }).locator('ul.pick').getByRole('button');
    await expect.poll(() => picker.count()).toBe(2);

    await page.getByLabel('Name contains').fill('AÇÃO');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => picker.allInnerTexts()).toEqual([`Yoga Ação Centro #${yoga.id}`]);
    await picker.first().click();
    await expect
      .poll(() => new URL(page.url()).hash)
      .toBe(`#/network?name=A%C3%87%C3%83O&partner=${yoga.id}`);
    await page.reload();
    await expect.poll(() => picker.allInnerTexts()).toEqual([`Yoga Ação Centro #${yoga.id}`]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectClean(console);
  });
});
