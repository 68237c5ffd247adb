import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useConsoleServer } from '../../fixtures/processes/arrange.js';
import { eventually, startReceiver, type Receiver } from '../../fixtures/webhook-receiver.js';
import {
  expectClean,
  issueOperator,
  screenshots,
  signInAsOperator,
  useBrowser,
  BROWSER_TEST,
} from '../../fixtures/processes/browser.js';

const ADMIN_TOKEN = 'operator-secret-roles-0123456789';

/*
 * The Network view's webhooks, and what each role is shown, against one real `gatehouse serve` on SQLite shared by
 * the file; the webhook is delivered to a real HTTP receiver on loopback.
 */
describe('the console by role, and webhooks in the Network view', BROWSER_TEST, () => {
  const { baseUrl, operator, desk } = useConsoleServer('roles', ADMIN_TOKEN, 1);
  const openConsole = useBrowser();
  let receiver: Receiver;

  beforeAll(async () => {
    // An answer with an escape sequence: the console shows it written out, never as a control character.
    receiver = await startReceiver(() => ({ status: 200, body: 'thanks\u001b[0m' }));
  });
  afterAll(() => receiver.close());

  const signIn = async (token: string) => signInAsOperator(await openConsole(baseUrl()), token);
  const issue = (name: string, role: string) => issueOperator(baseUrl(), ADMIN_TOKEN, name, role);

  it('when the operator registers a webhook, then its secret is shown once, a validation is delivered signed with it, and the log shows it, sends it again and lists its attempts when expanded', async () => {
    const console = await signIn(ADMIN_TOKEN);
    const { page } = console;
    await page.getByRole('link', { name: 'Network' }).click();
    await page.getByRole('button', { name: new RegExp(`#${desk().partner.id}$`) }).click();
    const add = page.getByRole('form', { name: 'Register a webhook' });
    await add.getByLabel('Receiver URL').fill(receiver.url);
    await add.getByLabel('Only these event types').fill('checkin.validated');
    await add.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await page.getByTestId('webhook-secret').innerText();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const table = page.getByRole('region', { name: 'Webhooks table' });
    await table.getByRole('cell', { name: receiver.url, exact: true }).waitFor();
    await expect(table.getByRole('row').nth(1).innerText()).resolves.toMatch(
      /checkin\.validated\s+all\s+enabled/,
    );
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(() => page.getByText(secret).count()).toBe(0);

    const member = desk().checkins[0]?.platformId ?? '';
    const validated = await fetch(`${baseUrl()}/access/v1/validate`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${desk().key}`,
        'x-gym-id': String(desk().gym.id),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ platform_id: member }),
    });
    expect(validated.status).toBe(200);
    await eventually(() => receiver.received.length === 1);
    const [first] = receiver.received;
    const headers = {
      'webhook-id': String(first?.headers['webhook-id']),
      'webhook-timestamp': String(first?.headers['webhook-timestamp']),
      'webhook-signature': String(first?.headers['webhook-signature']),
    };
    const payload = new Webhook(secret).verify(first?.body ?? '', headers) as {
      type: string;
      data: { platform_id: string; gym_id: number };
    };
    expect(payload.type).toBe('checkin.validated');
    expect(payload.data).toMatchObject({ platform_id: member, gym_id: desk().gym.id });

    await page.getByRole('button', { name: `Deliveries to ${receiver.url}` }).click();
    const log = page.getByRole('region', { name: 'Deliveries table' });
    const row = log.getByRole('row').filter({ hasText: 'checkin.validated' });
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return /delivered\t1\t[^\t]+\tHTTP 200\t/.test(await row.innerText().catch(() => ''));
    });
    await row.getByRole('button', { name: /^Send again evt_[0-9a-f]{32}$/ }).click();
    await eventually(() => receiver.received.length === 2);
    expect(receiver.received[1]?.headers['webhook-id']).toBe(headers['webhook-id']);
    expect(receiver.received[1]?.body).toBe(first?.body);
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return /delivered\t2\t[^\t]+\tHTTP 200\t/.test(await row.innerText().catch(() => ''));
    });
    const stored = await operator()
      .store.db.selectFrom('webhook_deliveries')
      .select(['event_type', 'status', 'attempts'])
      .execute();
    expect(stored).toEqual([{ event_type: 'checkin.validated', status: 'delivered', attempts: 2 }]);

    await row.getByRole('button', { name: /^Attempts of evt_[0-9a-f]{32}$/ }).click();
    const attempts = page.getByRole('list', { name: /^Attempts of delivery \d+$/ });
    await attempts.getByRole('listitem').nth(1).waitFor();
    const shown = await attempts.getByRole('listitem').allInnerTexts();
    expect(shown.map((text) => text.split('\n')[0])).toEqual([
      expect.stringMatching(/^Attempt 1, .+: HTTP 200 in \d+ ms$/),
      expect.stringMatching(/^Attempt 2, .+: HTTP 200 in \d+ ms$/),
    ]);
    const second = attempts.getByRole('listitem').nth(1);
    await expect(second.locator('pre.answer').innerText()).resolves.toBe('thanks\\u001b[0m');
    await second.getByText('Body sent').click();
    await expect(second.locator('details pre').innerText()).resolves.toBe(first?.body);
    const kept = await operator()
      .store.db.selectFrom('webhook_attempts')
      .select(['attempt', 'status_code', 'request_body', 'response_excerpt'])
      .orderBy('id')
      .execute();
    expect(kept).toEqual(
      [1, 2].map((attempt) => ({
        attempt,
        status_code: 200,
        request_body: null,
        response_excerpt: 'thanks\\u001b[0m',
      })),
    );
    await expectClean(console);
    await screenshots(page, 'webhooks');
  });

  it('when a readonly, a support and a member-app operator sign in, then each is shown only what its role may do', async () => {
    const readonly = await issue('rita', 'readonly');
    const support = await issue('sam', 'support');
    const memberApp = await issue('the-app', 'member-app');
    const partnerButton = new RegExp(`#${desk().partner.id}$`);

    const reader = await signIn(readonly);
    await reader.page.getByTestId('signed-in-as').getByText('rita · readonly').waitFor();
    await reader.page.getByRole('link', { name: 'Network' }).click();
    await reader.page.getByRole('button', { name: partnerButton }).click();
    await reader.page.getByRole('heading', { name: /^Webhooks of / }).waitFor();
    await reader.page
      .getByRole('region', { name: 'Keys table' })
      .getByRole('cell', { name: 'active' })
      .waitFor();
    for (const hidden of ['Add partner', 'Add gym', 'Add product', 'Issue key', 'Add webhook']) {
      await expect(reader.page.getByRole('button', { name: hidden }).count(), hidden).resolves.toBe(0);
    }
    await expect(reader.page.getByRole('button', { name: /^(Revoke|Rotate|Remove) / }).count()).resolves.toBe(
      0,
    );
    await expectClean(reader);

    const helper = await signIn(support);
    await helper.page.getByTestId('signed-in-as').getByText('sam · support').waitFor();
    await helper.page.getByRole('link', { name: 'Network' }).click();
    await helper.page.getByRole('button', { name: 'Add partner' }).waitFor();
    await helper.page.getByRole('button', { name: partnerButton }).click();
    for (const shown of ['Add gym', 'Add product', 'Issue key', 'Add webhook']) {
      await helper.page.getByRole('button', { name: shown }).waitFor();
    }
    await helper.page.getByRole('button', { name: /^Revoke ghk_/ }).waitFor();
    await expectClean(helper);

    const app = await signIn(memberApp);
    await app.page
      .getByRole('alert')
      .getByText('The member-app role may not read the operator API: the console has nothing to show it.')
      .waitFor();
    await expect(app.page.getByRole('navigation', { name: 'Views' }).count()).resolves.toBe(0);
    await expect(app.page.evaluate<number>('sessionStorage.length')).resolves.toBe(0);
    await expectClean(app);
  });
});
