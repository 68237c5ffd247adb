import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useConsoleServer } from '../../fixtures/processes/arrange.js';
import { eventually } from '../../fixtures/webhook-receiver.js';
import {
  expectClean,
  issueOperator,
  screenshots,
  signInAsOperator,
  useBrowser,
  BROWSER_TEST,
} from '../../fixtures/processes/browser.js';

const ADMIN_TOKEN = 'operator-secret-integration-0123456';

/** A loopback receiver that verifies each delivery's Standard Webhooks signature: 204, or 401. */
async function startVerifyingReceiver(secret: () => string) {
  const verified: { type: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const payload = new Webhook(secret()).verify(Buffer.concat(chunks).toString('utf8'), {
          'webhook-id': String(request.headers['webhook-id']),
          'webhook-timestamp': String(request.headers['webhook-timestamp']),
          'webhook-signature': String(request.headers['webhook-signature']),
        }) as { type: string };
        verified.push(payload);
        response.writeHead(204).end();
      } catch {
        response.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    verified,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/*
 * The Network view's compatibility profile, test events and endpoint health, against one real `gatehouse serve`
 * on SQLite; test events go to a real receiver on loopback that verifies their signature.
 */
describe(
  "the console: a partner's compatibility profile, test events and endpoint health",
  BROWSER_TEST,
  () => {
    const { baseUrl, operator, desk } = useConsoleServer('integration', ADMIN_TOKEN, 1);
    const openConsole = useBrowser();
    let receiver: Awaited<ReturnType<typeof startVerifyingReceiver>>;
    let receiverSecret = '';

    beforeAll(async () => {
      receiver = await startVerifyingReceiver(() => receiverSecret);
    });
    afterAll(() => receiver.close());

    const openPartner = async (token: string) => {
      const console = await signInAsOperator(await openConsole(baseUrl()), token);
      await console.page.getByRole('link', { name: 'Network' }).click();
      await console.page.getByRole('button', { name: new RegExp(`#${desk().partner.id}$`) }).click();
      return console;
    };
    const profileRow = () =>
      operator()
        .store.db.selectFrom('partners')
        .select(['cancelled_spelling', 'gym_from_key'])
        .where('id', '=', desk().partner.id)
        .executeTakeFirstOrThrow();

    it('when the operator sets the profile, then it is shown and stored, and the partner API answers with it', async () => {
      const console = await openPartner(ADMIN_TOKEN);
      const { page } = console;
      const shown = page.getByTestId('compatibility-profile');
      await expect
        .poll(() => shown.innerText())
        .toBe(
          "Cancelled check-ins are spelt cancelled (the spec's); a key limited to one gym may not leave X-Gym-Id out.",
        );

      const form = page.getByRole('form', { name: `Compatibility profile of ${desk().partner.name}` });
      await form.getByLabel('Spelling of a cancelled check-in').selectOption('canceled');
      await form.getByLabel('A key limited to one gym may leave X-Gym-Id out').check();
      await form.getByRole('button', { name: 'Save profile' }).click();

      await expect
        .poll(() => shown.innerText())
        .toBe(
          "Cancelled check-ins are spelt canceled (Wellhub's legacy sandbox); a key limited to one gym may leave X-Gym-Id out.",
        );
      expect(await profileRow()).toEqual({ cancelled_spelling: 'canceled', gym_from_key: 1 });
      await expect(form.getByLabel('Spelling of a cancelled check-in').inputValue()).resolves.toBe(
        'canceled',
      );
      const integration = await fetch(`${baseUrl()}/access/v1/integration`, {
        headers: { authorization: `Bearer ${desk().key}` },
      });
      expect(
        ((await integration.json()) as { results: { compatibility: unknown } }).results.compatibility,
      ).toEqual({ cancelled_spelling: 'canceled', gym_from_key: true });

      await form.getByLabel('Spelling of a cancelled check-in').selectOption('cancelled');
      await form.getByLabel('A key limited to one gym may leave X-Gym-Id out').uncheck();
      await form.getByRole('button', { name: 'Save profile' }).click();
      await expect.poll(() => shown.innerText()).toMatch(/^Cancelled check-ins are spelt cancelled/);
      expect(await profileRow()).toEqual({ cancelled_spelling: 'cancelled', gym_from_key: 0 });
      await expectClean(console);
    });

    it('when the operator sends a test event, then the outcome is shown, nothing is logged, and the health cell follows the deliveries', async () => {
      const registered = await fetch(`${baseUrl()}/admin/v1/partners/${desk().partner.id}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url }),
      });
      const created = (await registered.json()) as { secret: string };
      receiverSecret = created.secret;
      const console = await openPartner(ADMIN_TOKEN);
      const { page } = console;
      const row = page
        .getByRole('region', { name: 'Webhooks table' })
        .getByRole('row')
        .filter({ hasText: receiver.url });
      await expect.poll(() => row.innerText()).toMatch(/enabled\s+no attempt yet; none in 24 h; 0 pending/);

      await row.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();

      const outcome = page.getByTestId('test-outcome');
      await expect
        .poll(() => outcome.innerText().catch(() => ''))
        .toMatch(new RegExp(`^Test event test\\.ping to ${receiver.url}: delivered, HTTP 204, \\d+ ms$`));
      expect(receiver.verified).toEqual([expect.objectContaining({ type: 'test.ping' })]);
      const deliveries = () =>
        operator().store.db.selectFrom('webhook_deliveries').select('status').execute();
      expect(await deliveries()).toEqual([]);

      // The receiver loses the secret: the next test says why it was refused.
      receiverSecret = 'whsec_' + Buffer.from('not the secret of this endpoint').toString('base64');
      await row.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
      await expect
        .poll(() => outcome.innerText().catch(() => ''))
        .toMatch(/: not delivered, HTTP 401, \d+ ms$/);
      expect(await deliveries()).toEqual([]);

      // A real visit is delivered; the health cell shows it after the next action.
      receiverSecret = created.secret;
      const validated = await fetch(`${baseUrl()}/access/v1/validate`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${desk().key}`,
          'x-gym-id': String(desk().gym.id),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ platform_id: desk().checkins[0]?.platformId }),
      });
      expect(validated.status).toBe(200);
      await eventually(async () => {
        const made = await deliveries();
        return made.length > 0 && made.every((delivery) => delivery.status === 'delivered');
      });
      await row.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
      await expect
        .poll(() => row.innerText())
        .toMatch(/enabled\s+last .+: HTTP 204; 100% in 24 h; 0 pending/);
      await expectClean(console);
      await screenshots(page, 'integration');
    });

    it('when a readonly operator opens the partner, then it sees the profile and health but no form or test button', async () => {
      const console = await openPartner(await issueOperator(baseUrl(), ADMIN_TOKEN, 'rosa', 'readonly'));
      const { page } = console;
      await page.getByTestId('compatibility-profile').waitFor();
      await page
        .getByRole('region', { name: 'Webhooks table' })
        .getByText(/% in 24 h/)
        .waitFor();
      await expect(page.getByRole('button', { name: 'Save profile' }).count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: /^Send test event/ }).count()).resolves.toBe(0);
      await expectClean(console);
    });

    it("when a desk enters its key, then the key's gyms are offered with their time zones, and one picked opens the desk", async () => {
      await operator().services.catalogChanges.updateGym(desk().gym.id, { timezone: 'America/Sao_Paulo' });
      const second = await operator().services.catalog.createGym({
        partnerId: desk().partner.id,
        name: 'Second gym',
      });
      const console = await openConsole(baseUrl(), 390);
      const { page } = console;

      await page.getByLabel('Partner API key').fill(desk().key);
      await page.keyboard.press('Tab');

      const offered = page.getByRole('group', { name: "This key's gyms" });
      await expect
        .poll(() => offered.getByRole('button').allInnerTexts())
        .toEqual([
          `${desk().gym.name} #${desk().gym.id} · America/Sao_Paulo`,
          `Second gym #${second.id} · UTC`,
        ]);
      await offered.getByRole('button', { name: new RegExp(`#${desk().gym.id} `) }).click();
      await expect(page.getByLabel('Gym id').inputValue()).resolves.toBe(String(desk().gym.id));
      await page.getByRole('button', { name: 'Open the front desk' }).click();
      await page.getByText('Live', { exact: true }).waitFor();
      await expectClean(console);
    });

    it('when the key entered is refused, then no gym is offered and the gym id is typed as before', async () => {
      const console = await openConsole(baseUrl(), 390);
      const { page } = console;
      await page.getByLabel('Partner API key').fill('ghk_00000000_not-a-key');
      await page.keyboard.press('Tab');
      await page.getByLabel('Gym id').fill(String(desk().gym.id));
      await expect.poll(() => console.problems.length).toBe(2);

      await expect(page.getByRole('group', { name: "This key's gyms" }).count()).resolves.toBe(0);
      // The refusal is the API's answer, logged by the browser as any failed request: expected, and the only one.
      expect(console.problems.splice(0).sort()).toEqual([
        expect.stringMatching(/^403 http:.*\/access\/v1\/integration$/),
        'Failed to load resource: the server responded with a status of 403 (Forbidden)',
      ]);
      await expectClean(console);
    });
  },
);
