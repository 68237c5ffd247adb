import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { arrangePartner, platformId } from '../../fixtures/factories.js';
import { arrangeCheckins, useOwnDatabase, type Operator } from '../../fixtures/processes/arrange.js';
import { useGatehouseProcesses } from '../../fixtures/processes/gatehouse-process.js';
import {
  expectClean,
  screenshots,
  useBrowser,
  type ConsolePage,
  BROWSER_TEST,
} from '../../fixtures/processes/browser.js';

const ADMIN_TOKEN = 'operator-secret-0123456789';

/*
 * The operator's views against a real `gatehouse serve` on SQLite: what they read and change goes through the same
 * APIs whose storage is tested on both dialects (test/console, test/operator-api).
 */
describe('the operator views in a browser', BROWSER_TEST, () => {
  const spawnGatehouse = useGatehouseProcesses();
  const openConsole = useBrowser();
  const ownDatabase = useOwnDatabase();

  async function serve(): Promise<{ baseUrl: string; operator: Operator }> {
    const { url, operator } = await ownDatabase('sqlite');
    const server = await spawnGatehouse({
      GATEHOUSE_DATABASE_URL: url,
      GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
      GATEHOUSE_KEY_CACHE_SECONDS: '0',
    });
    return { baseUrl: server.baseUrl, operator };
  }

  /** Signs in with the keyboard alone: type the token, Enter. */
  async function signIn(baseUrl: string, width?: number): Promise<ConsolePage> {
    const console = await openConsole(baseUrl, width);
    await console.page.getByLabel('Operator token').fill(ADMIN_TOKEN);
    await console.page.keyboard.press('Enter');
    await console.page.getByRole('navigation', { name: 'Views' }).waitFor();
    return console;
  }

  const partnerApi = (baseUrl: string, key: string, gymId: number, path: string, body?: unknown) =>
    fetch(`${baseUrl}/access/v1${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'x-gym-id': String(gymId),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('when a member is validated through the partner API, then the Live view shows it as it happens and counts it', async () => {
    const { baseUrl, operator } = await serve();
    const desk = await arrangeCheckins(operator.services, 1);
    const member = desk.checkins[0]?.platformId ?? '';
    const console = await signIn(baseUrl, 390);
    const { page } = console;
    await page.getByRole('status').getByText('Live', { exact: true }).waitFor();
    await expect(page.getByTestId('validations-today').innerText()).resolves.toBe('0');

    const answer = await partnerApi(baseUrl, desk.key, desk.gym.id, '/validate', { platform_id: member });
    expect(answer.status).toBe(200);

    const feed = page.getByRole('region', { name: 'As it happens' }).getByRole('listitem');
    await feed.filter({ hasText: 'checkin.validated' }).waitFor();
    await expect(feed.first().innerText()).resolves.toContain(member);
    await page.getByTestId('validations-today').getByText('1', { exact: true }).waitFor();
    await expect(
      page.getByRole('img', { name: /Validations per gym/ }).getAttribute('aria-label'),
    ).resolves.toContain(`gym ${desk.gym.id}: 1`);
    await expectClean(console);
    await screenshots(page, 'live');
  });

  it('when the operator sets up a partner and issues a key, then the secret is shown once, works, and stops working once revoked', async () => {
    const { baseUrl, operator } = await serve();
    const console = await signIn(baseUrl);
    const { page } = console;
    await page.getByRole('link', { name: 'Network' }).click();

    await page.getByLabel('Partner name').fill('Acme Browser Gyms');
    await page.getByRole('button', { name: 'Add partner' }).click();
    await page.getByRole('heading', { name: 'Gyms of Acme Browser Gyms' }).waitFor();
    await page.getByLabel('Gym id (the X-Gym-Id partners send; optional)').fill('4242');
    await page.getByLabel('Gym name').fill('Acme Downtown');
    await page.getByRole('button', { name: 'Add gym' }).click();
    await page.getByRole('heading', { name: /Acme Downtown/ }).waitFor();
    await page.getByLabel('Description').fill('Day pass');
    await page.getByLabel('Payout per visit').fill('15.50');
    await page.getByLabel('Currency (optional)').fill('brl');
    await page.getByRole('button', { name: 'Add product' }).click();
    await page.getByText(/Day pass · R\$\s?15[.,]50/).waitFor();
    await page.getByLabel('Label').fill('front desk');
    await page.getByRole('button', { name: 'Issue key' }).click();
    const secret = await page.getByTestId('issued-key').innerText();
    await expectClean(console);
    await screenshots(page, 'network');

    expect(secret).toMatch(/^ghk_[0-9a-f]{8}_[0-9a-f]{40}$/);
    expect((await partnerApi(baseUrl, secret, 4242, '/checkins')).status).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(() => page.getByText(secret).count()).toBe(0);
    // Asked in the page: Cancel leaves the key as it was; Yes revokes it.
    await page.getByRole('button', { name: /^Revoke ghk_/ }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await partnerApi(baseUrl, secret, 4242, '/checkins')).status).toBe(200);
    await page.getByRole('button', { name: /^Revoke ghk_/ }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByRole('cell', { name: 'revoked' }).waitFor();
    expect((await partnerApi(baseUrl, secret, 4242, '/checkins')).status).toBe(403);
    const stored = await operator.store.db
      .selectFrom('api_keys')
      .innerJoin('partners', 'partners.id', 'api_keys.partner_id')
      .select(['partners.name', 'api_keys.label', 'api_keys.revoked_at'])
      .execute();
    expect(stored).toEqual([
      { name: 'Acme Browser Gyms', label: 'front desk', revoked_at: expect.any(Number) as number },
    ]);
    const products = await operator.store.db.selectFrom('products').selectAll().execute();
    expect(products).toEqual([
      expect.objectContaining({ gym_id: 4242, description: 'Day pass', payout_cents: 1550, currency: 'BRL' }),
    ]);
  });

  it('when the operator opens Money and Audit, then the ledger lists the visit, its CSV downloads, and the audit shows who did what', async () => {
    const { baseUrl, operator } = await serve();
    const desk = await arrangeCheckins(operator.services, 1);
    const member = desk.checkins[0]?.platformId ?? '';
    expect(
      (await partnerApi(baseUrl, desk.key, desk.gym.id, '/validate', { platform_id: member })).status,
    ).toBe(200);
    const console = await signIn(baseUrl);
    const { page } = console;

    await page.getByRole('link', { name: 'Money' }).click();
    const ledger = page.getByRole('region', { name: 'Ledger table' });
    await ledger.getByRole('cell', { name: member }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download transactions CSV' }).click();
    const file = await (await download).path();
    await expectClean(console);
    await screenshots(page, 'money');

    const csv = readFileSync(file, 'utf8').trim().split(/\r?\n/);
    expect(csv[0]).toBe(
      'id,kind,checkin_id,partner_id,gym_id,product_id,platform_id,payout_cents,currency,validated_at,effective_at,reverses,reason,list_cents,pricing_rule,pricing_version',
    );
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`,${member},1250,BRL,`);

    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    const rows = page.getByRole('region', { name: 'Audit table' }).getByRole('row');
    await rows.nth(1).waitFor();
    const audited = await operator.store.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'entity'])
      .execute();
    await expect.poll(() => rows.count()).toBe(audited.length + 1);
    await page.getByLabel('What').selectOption('key');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => rows.count()).toBe(audited.filter((entry) => entry.entity === 'key').length + 1);
    await expectClean(console);
    await screenshots(page, 'audit');
  });

  it('when the audit holds more than a page, then Audit shows the newest first and Older entries reads on to the oldest', async () => {
    const { baseUrl, operator } = await serve();
    for (let i = 1; i <= 105; i += 1) await operator.services.catalog.createPartner(`Partner ${i}`);
    const console = await signIn(baseUrl);
    const { page } = console;
    // The console's event stream shows members' details in full, which the audit records as it opens: wait for
    // that entry, so that the page and the store agree on which entry is the newest.
    const detailsRead = () =>
      operator.store.db
        .selectFrom('audit_log')
        .select('id')
        .where('entity', '=', 'member')
        .where('action', '=', 'read')
        .execute();
    await expect.poll(async () => (await detailsRead()).length).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Audit' }).click();
    const rows = page.getByRole('region', { name: 'Audit table' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(101);
    const audited = (
      await operator.store.db
        .selectFrom('audit_log')
        .select(['entity', 'entity_id'])
        .orderBy('id', 'desc')
        .execute()
    ).map((row) => `${row.entity} ${row.entity_id}`);
    expect(audited.length).toBeGreaterThan(105);
    /** Each row's last cell: what the entry is about. */
    const shown = async () =>
      (await rows.allInnerTexts()).slice(1).map((row) => row.split('\t').at(-1)?.trim());
    await expect(shown()).resolves.toEqual(audited.slice(0, 100));

    await page.getByRole('button', { name: 'Older entries' }).click();
    await expect.poll(() => rows.count()).toBe(audited.length - 100 + 1);
    await expect(shown()).resolves.toEqual(audited.slice(100));
    await expect(page.getByRole('button', { name: 'Older entries' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Newest entries' }).click();
    await expect.poll(() => rows.count()).toBe(101);
    await expectClean(console);
  });

  it('when the browser speaks Brazilian Portuguese, then the console does too, at the desk and to the operator, and writes counts and money the Brazilian way', async () => {
    const { baseUrl, operator } = await serve();
    const arranged = await arrangePartner(operator.services, {
      payoutCents: 1500,
      description: 'Plano mensal',
    });
    const member = platformId();
    await operator.services.checkins.create({
      platformId: member,
      gymId: arranged.gym.id,
      productId: arranged.product.id,
    });
    const rules = await fetch(`${baseUrl}/admin/v1/partners/${arranged.partner.id}/payout-rules`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        monthly_paid_visits_per_member: 1234,
        tiers: [{ after_cents: 1_000_000, rate_pct: 90 }],
      }),
    });
    expect(rules.status).toBe(200);
    const console = await openConsole(baseUrl, 390, 'pt-BR');
    const { page } = console;
    await page.getByRole('heading', { name: 'Entrar', level: 1 }).waitFor();
    await expect(page.evaluate<string>('document.documentElement.lang')).resolves.toBe('pt-BR');
    await expect(page.title()).resolves.toBe('console do gatehouse');

    // At the front desk: its labels, buttons and the green answer in Portuguese; the product as the API named it.
    await page.getByLabel('Chave da API de parceiros').fill(arranged.key);
    await page.getByLabel('Id da academia').fill(String(arranged.gym.id));
    await page.getByRole('button', { name: 'Abrir a recepção' }).click();
    await page.getByRole('status').getByText('Ao vivo', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Aguardando nesta academia' }).waitFor();
    await page.getByRole('button', { name: `Validar ${member}` }).click();
    const answer = page.getByRole('alertdialog');
    await expect(answer.locator('h2').textContent()).resolves.toBe('Válido');
    await expect(answer.locator('.answer-text').textContent()).resolves.toBe('Plano mensal');
    await expect(answer.locator('.answer-member').textContent()).resolves.toBe(`Membro ${member}`);
    await expect
      .poll(() => page.evaluate<string>('document.activeElement.textContent'))
      .toBe('Próximo membro');
    await expectClean(console);
    await screenshots(page, 'front-desk-valid-pt-BR');
    await page.keyboard.press('Enter');
    await answer.waitFor({ state: 'detached' });
    await page.getByText('Ninguém aguardando.').waitFor();
    await page.getByRole('button', { name: 'Sair' }).click();

    // To the operator: the day's count and payouts, then the partner's product price and payout rules.
    await page.getByLabel('Token de operador').fill(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Telas' }).waitFor();
    await page.getByRole('heading', { name: 'Ao vivo', level: 1 }).waitFor();
    const today = page.getByRole('region', { name: 'Hoje' });
    await page.getByTestId('validations-today').getByText('1', { exact: true }).waitFor();
    await expect(today.locator('p').allTextContents()).resolves.toEqual(['1 validação', 'R$\u00a015,00']);
    await expectClean(console);

    await page.getByRole('link', { name: 'Rede' }).click();
    await page
      .getByRole('button', { name: new RegExp(`^${arranged.partner.name} #${arranged.partner.id}`) })
      .click();
    await page.getByRole('heading', { name: `Academias de ${arranged.partner.name}` }).waitFor();
    const product = page.getByRole('article', { name: new RegExp(arranged.gym.name) }).getByRole('listitem');
    await expect(product.textContent()).resolves.toMatch(
      new RegExp(`^Plano mensal · R\\$\\u00a015,00 produto ${arranged.product.id}`),
    );
    await expect(page.getByTestId(`payout-partners-${arranged.partner.id}`).textContent()).resolves.toMatch(
      /^Versão 1, desde \d{1,2} de [a-zç]+\.? de \d{4}, \d{2}:\d{2} \S+: 1\.234 visitas pagas por membro ao mês, as seguintes pagam 0; 90% do preço quando o total pago no mês passa de 10\.000,00\.$/,
    );
    await expectClean(console);
    await screenshots(page, 'network-pt-BR');
  });
});
