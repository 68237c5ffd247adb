import { describe, expect, it } from 'vitest';
import { useOwnDatabase } from '../../fixtures/processes/arrange.js';
import { useGatehouseProcesses } from '../../fixtures/processes/gatehouse-process.js';
import { expectClean, signInAsOperator, useBrowser, BROWSER_TEST } from '../../fixtures/processes/browser.js';

const ADMIN_TOKEN = 'operator-secret-0123456789';

/**
 * The console keeps the network's clock, not UTC's nor the browser's: at 22:30 on 30 November in São Paulo
 * (1 December, 01:30 UTC) Live counts from São Paulo's midnight, Money opens on November, named in the network's
 * zone, the period asked of the API starts and ends at São Paulo's midnights, and times show São Paulo's hour.
 */
describe("the console's clock", BROWSER_TEST, () => {
  const spawnGatehouse = useGatehouseProcesses();
  const openConsole = useBrowser();
  const ownDatabase = useOwnDatabase();

  it("when it is 22:30 on 30 November in the network's zone but December in UTC, then Live counts from its midnight, Money opens on November there, and times are its own", async () => {
    const { url } = await ownDatabase('sqlite');
    const server = await spawnGatehouse({
      GATEHOUSE_DATABASE_URL: url,
      GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
      GATEHOUSE_TIMEZONE: 'America/Sao_Paulo',
    });
    const console = await openConsole(server.baseUrl);
    const { page } = console;
    await page.clock.setFixedTime(new Date('2026-12-01T01:30:00Z'));
    // Live counts the last 24 whole hours, and today from São Paulo's midnight of 30 November.
    const stats: Record<string, string>[] = [];
    page.on('request', (request) => {
      const asked = new URL(request.url());
      if (asked.pathname === '/admin/v1/stats/validations')
        stats.push(Object.fromEntries(asked.searchParams));
    });
    await signInAsOperator(console, ADMIN_TOKEN);
    await page.getByRole('link', { name: 'Live' }).waitFor();
    await expect.poll(() => stats.length).toBeGreaterThanOrEqual(2);
    expect(stats.slice(0, 2)).toEqual([
      { from: '2026-11-30T02:00:00.000Z', to: '2026-12-01T02:00:00.000Z' },
      { from: '2026-11-30T03:00:00.000Z', to: '2026-12-01T02:00:00.000Z' },
    ]);
    // The hourly chart is labelled with São Paulo's hours: its first hour, 02:00 UTC, is 23 there.
    const hourly = page.getByRole('img', { name: /^Validations per hour, last 24 hours\./ });
    await expect
      .poll(async () =>
        ((await hourly.getAttribute('aria-label')) ?? '').split('. ')[1]?.split(', ').slice(0, 3),
      )
      .toEqual(['23: 0', '00: 0', '01: 0']);

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

    // A time shown anywhere is São Paulo's, with its zone: the admin token's operator row in Operators.
    const created = await fetch(`${server.baseUrl}/admin/v1/operators`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'clock-reader', role: 'readonly' }),
    });
    expect(created.status).toBe(201);
    const { created_at: createdAt } = (await created.json()) as { created_at: string };
    // São Paulo is UTC−3 all year: the hour shown (of a 12- or 24-hour clock, as the browser's locale has it).
    const [hour = 0, minute = 0] = new Date(Date.parse(createdAt) - 3 * 3_600_000)
      .toISOString()
      .slice(11, 16)
      .split(':')
      .map(Number);
    await page.getByRole('link', { name: 'Operators' }).click();
    const row = page.getByRole('row').filter({ hasText: 'clock-reader' });
    const shown = async () => {
      const time = /(\d{2}):(\d{2}):\d{2}(?:\s[AP]M)?\s(\S+) by /.exec(await row.innerText());
      return time === null ? undefined : [Number(time[1]) % 12, Number(time[2]), time[3]];
    };
    await expect.poll(shown).toEqual([hour % 12, minute, 'GMT-3']);
  });
});
