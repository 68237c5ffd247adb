import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { errorEnvelope, EXPLICIT_DENY } from '../fixtures/wire-bodies.js';

type Network = Awaited<ReturnType<typeof op.arrangeNetwork>>;

/** The audit log holds exactly these actions on the record, in this order. */
async function expectAudit(t: TestApp, entity: string, id: number, actions: string[]) {
  const rows = await t.store.db
    .selectFrom('audit_log')
    .select(['action', 'entity'])
    .where('entity', '=', entity)
    .where('entity_id', '=', String(id))
    .orderBy('id')
    .execute();
  expect(rows).toEqual(actions.map((action) => ({ action, entity })));
}

async function checkIn(t: TestApp, n: Network, member = platformId()) {
  return op.admin(t, 'POST', '/checkins', {
    platform_id: member,
    gym_id: n.gym.id,
    product_id: n.product.id,
  });
}

describe.each(dialects)('operator API: the catalog over time (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, env: { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true' } });

  test('when a partner and a gym are renamed and the gym moves to another time zone, then 200 the records as changed, stored and audited', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);

    const partner = await op.admin(t, 'PATCH', `/partners/${n.partner.id}`, { name: 'Acme Brasil' });
    const gym = await op.admin(t, 'PATCH', `/gyms/${n.gym.id}`, {
      name: 'Paulista',
      timezone: 'America/Sao_Paulo',
    });

    expectReply(partner, 200, {
      id: n.partner.id,
      name: 'Acme Brasil',
      offboarded_at: null,
      created_at: op.T0,
    });
    expectReply(gym, 200, {
      id: n.gym.id,
      partner_id: n.partner.id,
      name: 'Paulista',
      timezone: 'America/Sao_Paulo',
      retired_at: null,
      created_at: op.T0,
    });
    await expectAudit(t, 'partner', n.partner.id, ['create', 'update']);
    await expectAudit(t, 'gym', n.gym.id, ['create', 'update']);
  });

  test('when a product’s price changes, then validations from then on pay the new price and earlier transactions keep theirs', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const before = await op.createCheckin(t, n.product);
    expect((await op.validate(t, n.key.key, n.gym.id, before.platform_id)).statusCode).toBe(200);

    const changed = await op.admin(t, 'PATCH', `/products/${n.product.id}`, {
      payout_cents: 1800,
      currency: 'USD',
    });
    const after = await op.createCheckin(t, n.product);
    expect((await op.validate(t, n.key.key, n.gym.id, after.platform_id)).statusCode).toBe(200);

    expectReply(changed, 200, { ...n.product, payout_cents: 1800, currency: 'USD', retired_at: null });
    const feed = (await op.partnerTransactions(t, n.key.key, n.gym.id)).json<{ results: unknown[] }>()
      .results;
    expect(feed).toEqual([
      expect.objectContaining({ checkin_id: before.id, payout_cents: 1250, currency: 'BRL' }),
      expect.objectContaining({ checkin_id: after.id, payout_cents: 1800, currency: 'USD' }),
    ]);
  });

  test('when a product or a gym is retired, then new check-ins are 409 product.retired / gym.retired, and a pending check-in still validates', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const pending = await op.createCheckin(t, n.product);

    const retired = await op.admin(t, 'POST', `/products/${n.product.id}/retire`);
    const refused = await checkIn(t, n);
    const again = await op.admin(t, 'POST', `/products/${n.product.id}/retire`);
    const gym = await op.admin(t, 'POST', `/gyms/${n.gym.id}/retire`);
    const gymRefused = await checkIn(t, n);

    expectReply(retired, 200, { ...n.product, retired_at: op.T0 });
    expectReply(
      refused,
      409,
      errorEnvelope('product.retired', 'product is retired: it takes no new check-ins'),
    );
    expectReply(again, 200, { ...n.product, retired_at: op.T0 });
    expect(gym.json()).toMatchObject({ id: n.gym.id, retired_at: op.T0 });
    expectReply(gymRefused, 409, errorEnvelope('gym.retired', 'gym is retired: it takes no new check-ins'));
    expect((await op.validate(t, n.key.key, n.gym.id, pending.platform_id)).statusCode).toBe(200);
  });

  test('when a partner is offboarded, then its keys are refused from the next request, its webhooks disabled and gyms retired, and its ledger stays', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const visited = await op.createCheckin(t, n.product);
    expect((await op.validate(t, n.key.key, n.gym.id, visited.platform_id)).statusCode).toBe(200);
    const webhook = await op.admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, {
      url: 'http://127.0.0.1:9/offboarded',
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const ledgerBefore = await op.admin(t, 'GET', `/transactions?partner_id=${n.partner.id}`);

    const offboarded = await op.admin(t, 'POST', `/partners/${n.partner.id}/offboard`);

    expectReply(offboarded, 200, {
      id: n.partner.id,
      name: n.partner.name,
      offboarded_at: op.T0,
      created_at: op.T0,
    });
    expectReply(await op.partnerTransactions(t, n.key.key, n.gym.id), 403, EXPLICIT_DENY);
    const hook = await op.admin(t, 'GET', `/webhooks/${webhook.json<{ id: number }>().id}`);
    expect(hook.json()).toMatchObject({ status: 'disabled', disabled_reason: 'offboarded' });
    expect((await op.admin(t, 'GET', `/gyms?partner_id=${n.partner.id}`)).json()).toMatchObject({
      items: [{ id: n.gym.id, retired_at: op.T0 }],
    });
    expectReply(
      await checkIn(t, n),
      409,
      errorEnvelope('gym.retired', 'gym is retired: it takes no new check-ins'),
    );
    expectReply(
      await op.admin(t, 'GET', `/transactions?partner_id=${n.partner.id}`),
      200,
      ledgerBefore.json(),
    );
    await expectAudit(t, 'partner', n.partner.id, ['create', 'offboard']);
    await expectAudit(t, 'key', n.key.id, ['issue', 'revoke']);
  });

  test.each([
    ['PATCH', '/partners/999999', { name: 'X' }, 404, 'partner.not-found', 'partner not found'],
    ['PATCH', '/gyms/999999', { name: 'X' }, 404, 'gym.not-found', 'gym not found'],
    ['PATCH', '/products/999999', { payout_cents: 1 }, 404, 'product.not-found', 'product not found'],
    ['POST', '/gyms/999999/retire', undefined, 404, 'gym.not-found', 'gym not found'],
    ['POST', '/partners/999999/offboard', undefined, 404, 'partner.not-found', 'partner not found'],
    ['PATCH', '/gyms/GYM', {}, 400, 'body', 'must change at least one field'],
    [
      'PATCH',
      '/gyms/GYM',
      { timezone: 'Mars/Base' },
      400,
      'timezone',
      'must be an IANA time zone such as UTC or America/Sao_Paulo',
    ],
    ['PATCH', '/products/PRODUCT', { payout_cents: -1 }, 400, 'payout_cents', 'must be >= 0'],
    ['PATCH', '/partners/PARTNER', { name: '' }, 400, 'name', 'must NOT have fewer than 1 characters'],
  ] as const)(
    'when %s %s asks %j, then %i %s and nothing is written',
    async (method, url, body, status, key, message) => {
      const t = app();
      const n = await op.arrangeNetwork(t);
      const path = url
        .replace('GYM', String(n.gym.id))
        .replace('PRODUCT', String(n.product.id))
        .replace('PARTNER', String(n.partner.id));
      const before = await op.wholeStore(t);

      expectReply(await op.admin(t, method, path, body), status, errorEnvelope(key, message));

      expect(await op.wholeStore(t)).toEqual(before);
    },
  );
});
