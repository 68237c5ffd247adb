import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope, EXPLICIT_DENY } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

const NO_VISITS = {
  metadata: { total: 0, errors: 0 },
  results: [],
  next_cursor: op.A_CURSOR,
  has_more: false,
};
/** gatehouse's key shape is `ghk_<8 hex>_<40 hex>` with `ghk_<8 hex>` the prefix. */
const A_KEY: unknown = expect.stringMatching(/^ghk_[0-9a-f]{8}_[0-9a-f]{40}$/);

const keyRow = (t: TestApp, id: number) =>
  t.store.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The listed form of a key: the issue answer without its secret. */
function listed(issued: op.IssuedKey): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...issued };
  delete copy.key;
  return copy;
}

describe.each(dialects)('operator API: API keys (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a key is issued without gym_ids, then 201 with the secret once, gym_ids null, only its hash stored, and it opens every gym of the partner, present and future', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    const existing = await op.createGym(t, partner.id);

    const response = await op.admin(t, 'POST', `/partners/${partner.id}/keys`, { label: 'front desk' });
    const issued = JSON.parse(response.body) as { id: number; key: string; prefix: string };
    const future = await op.createGym(t, partner.id);

    expectReply(response, 201, {
      id: issued.id,
      key: A_KEY,
      prefix: issued.key.slice(0, 12),
      label: 'front desk',
      gym_ids: null,
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
      created_at: op.T0,
    });
    const row = await keyRow(t, issued.id);
    expect(row).toEqual({
      id: issued.id,
      partner_id: partner.id,
      prefix: issued.prefix,
      key_hash: createHash('sha256').update(issued.key).digest('hex'),
      label: 'front desk',
      scope: 'all',
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
      created_at: op.T0_MS,
    });
    expect(JSON.stringify(await op.wholeStore(t))).not.toContain(issued.key);
    expectReply(await op.partnerTransactions(t, issued.key, existing.id), 200, NO_VISITS);
    expectReply(await op.partnerTransactions(t, issued.key, future.id), 200, NO_VISITS);
  });

  test('when a key is issued for some gyms (out of order, one twice), then its scope is those gyms ascending, in the answer and the list, and it gets 403 at another gym of the same partner', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    const [g1, g2, g3] = [
      await op.createGym(t, partner.id),
      await op.createGym(t, partner.id),
      await op.createGym(t, partner.id),
    ];

    const issued = await op.issueKey(t, partner.id, { gym_ids: [g2.id, g1.id, g2.id] });

    expect(issued).toMatchObject({ gym_ids: [g1.id, g2.id], label: null });
    expectReply(await op.admin(t, 'GET', `/partners/${partner.id}/keys`), 200, {
      items: [listed(issued)],
      next_cursor: null,
    });
    expect((await keyRow(t, issued.id)).scope).toBe('list');
    const scope = await t.store.db
      .selectFrom('api_key_gyms')
      .selectAll()
      .where('key_id', '=', issued.id)
      .orderBy('gym_id')
      .execute();
    expect(scope).toEqual([
      { key_id: issued.id, gym_id: g1.id },
      { key_id: issued.id, gym_id: g2.id },
    ]);
    expectReply(await op.partnerTransactions(t, issued.key, g1.id), 200, NO_VISITS);
    expectReply(await op.partnerTransactions(t, issued.key, g2.id), 200, NO_VISITS);
    expectReply(await op.partnerTransactions(t, issued.key, g3.id), 403, EXPLICIT_DENY);
  });

  test.each([
    ['an empty gym_ids', 'gym_ids', 'must NOT have fewer than 1 items', { gym_ids: [] }],
    ['a gym id as a string', 'gym_ids', 'must be integer', { gym_ids: ['1'] }],
    [
      'an expires_at that is not ISO-8601',
      'expires_at',
      'must be an ISO-8601 date or date-time',
      { expires_at: 'tomorrow' },
    ],
    [
      'a label of 201 characters',
      'label',
      'must NOT have more than 200 characters',
      { label: 'x'.repeat(201) },
    ],
  ])(
    'when a key is issued with %s, then 400 key %s and nothing is written',
    async (_c, key, message, body) => {
      const t = app();
      const partner = await op.createPartner(t);
      const before = await op.wholeStore(t);

      const response = await op.admin(t, 'POST', `/partners/${partner.id}/keys`, body);

      expectReply(response, 400, errorEnvelope(key, message));
      expect(await op.wholeStore(t)).toEqual(before);
    },
  );

  test('when a key is issued for a gym of another partner, then 400 key gym_ids and nothing is written', async () => {
    const t = app();
    const [mine, theirs] = [await op.createPartner(t), await op.createPartner(t)];
    const foreign = await op.createGym(t, theirs.id);
    const before = await op.wholeStore(t);

    const response = await op.admin(t, 'POST', `/partners/${mine.id}/keys`, { gym_ids: [foreign.id] });

    expectReply(
      response,
      400,
      errorEnvelope('gym_ids', `gym ${foreign.id} is not a gym of partner ${mine.id}`),
    );
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when keys of an unknown partner are issued or listed, then 404 partner.not-found', async () => {
    const t = app();
    const notFound = errorEnvelope('partner.not-found', 'partner not found');

    expectReply(await op.admin(t, 'POST', '/partners/999999/keys', {}), 404, notFound);
    expectReply(await op.admin(t, 'GET', '/partners/999999/keys'), 404, notFound);
    expectReply(
      await op.admin(t, 'GET', '/partners/x/keys'),
      400,
      errorEnvelope('partner_id', 'must be a positive integer'),
    );
  });

  test('when a partner’s keys are listed, then they come without secrets, in id order, paginated, and no other partner’s key', async () => {
    const t = app();
    const [partner, other] = [await op.createPartner(t), await op.createPartner(t)];
    const gym = await op.createGym(t, partner.id);
    const first = await op.issueKey(t, partner.id, { label: 'desk 1' });
    const second = await op.issueKey(t, partner.id, { label: null, gym_ids: [gym.id] });
    await op.issueKey(t, other.id);

    const all = await op.admin(t, 'GET', `/partners/${partner.id}/keys`);
    const page = await op.admin(t, 'GET', `/partners/${partner.id}/keys?limit=1`);
    const cursor = (JSON.parse(page.body) as { next_cursor: string }).next_cursor;
    const rest = await op.admin(t, 'GET', `/partners/${partner.id}/keys?limit=1&cursor=${cursor}`);

    expectReply(all, 200, { items: [listed(first), listed(second)], next_cursor: null });
    expect(all.body).not.toContain(first.key);
    expect(all.body).not.toContain(second.key);
    expectReply(page, 200, { items: [listed(first)], next_cursor: op.A_CURSOR });
    expectReply(rest, 200, { items: [listed(second)], next_cursor: null });
  });

  test('when a key is issued with expires_at, then it works until that instant and gets 403 from it on', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    const gym = await op.createGym(t, partner.id);

    const issued = await op.issueKey(t, partner.id, { expires_at: '2026-03-02T10:00:00-03:00' });

    expect(issued).toMatchObject({ expires_at: '2026-03-02T13:00:00.000Z' });
    expect((await keyRow(t, issued.id)).expires_at).toBe(Date.parse('2026-03-02T13:00:00Z'));
    t.clock.set('2026-03-02T12:59:59.999Z');
    expectReply(await op.partnerTransactions(t, issued.key, gym.id), 200, NO_VISITS);
    t.clock.set('2026-03-02T13:00:00.000Z');
    expectReply(await op.partnerTransactions(t, issued.key, gym.id), 403, EXPLICIT_DENY);
  });

  test('when a key is revoked, then 204 with no body, its next partner request is 403, and revoking again keeps the first revoked_at', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    const gym = await op.createGym(t, partner.id);
    const issued = await op.issueKey(t, partner.id);
    expectReply(await op.partnerTransactions(t, issued.key, gym.id), 200, NO_VISITS);
    t.clock.advance(60_000);

    const revoked = await op.admin(t, 'DELETE', `/keys/${issued.id}`);
    const next = await op.partnerTransactions(t, issued.key, gym.id);
    t.clock.advance(60_000);
    const again = await op.admin(t, 'DELETE', `/keys/${issued.id}`);

    expect({ status: revoked.statusCode, body: revoked.body }).toEqual({ status: 204, body: '' });
    expectReply(next, 403, EXPLICIT_DENY);
    expect(again.statusCode).toBe(204);
    expect((await keyRow(t, issued.id)).revoked_at).toBe(op.T0_MS + 60_000);
    expectReply(await op.admin(t, 'GET', `/partners/${partner.id}/keys`), 200, {
      items: [{ ...listed(issued), revoked_at: op.at(60_000) }],
      next_cursor: null,
    });
  });

  test('when an unknown or malformed key id is revoked, then 404 key.not-found / 400 key_id, and nothing is written', async () => {
    const t = app();

    await op.expectAdminNoWrite(
      t,
      'DELETE',
      '/keys/999999',
      404,
      errorEnvelope('key.not-found', 'key not found'),
    );
    await op.expectAdminNoWrite(
      t,
      'DELETE',
      '/keys/abc',
      400,
      errorEnvelope('key_id', 'must be a positive integer'),
    );
  });

  test('when a second key is issued (rotation), then both work, and after the first is revoked the second still does', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    const gym = await op.createGym(t, partner.id);
    const old = await op.issueKey(t, partner.id, { label: 'old' });

    const fresh = await op.issueKey(t, partner.id, { label: 'new' });
    const bothWork = [
      await op.partnerTransactions(t, old.key, gym.id),
      await op.partnerTransactions(t, fresh.key, gym.id),
    ];
    await op.admin(t, 'DELETE', `/keys/${old.id}`);

    expect(bothWork.map((response) => response.statusCode)).toEqual([200, 200]);
    expectReply(await op.partnerTransactions(t, old.key, gym.id), 403, EXPLICIT_DENY);
    expectReply(await op.partnerTransactions(t, fresh.key, gym.id), 200, NO_VISITS);
  });
});

describe.each(dialects)('operator API: last_used_at, written in batches (%s)', (dialect) => {
  // The timer never fires within a test: only flushUsage() writes.
  const app = op.operatorApp({ dialect, env: { GATEHOUSE_KEY_USAGE_FLUSH_SECONDS: '3600' } });

  test('when a key is used, then no request writes last_used_at; flushUsage() writes the latest use', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    const gym = await op.createGym(t, partner.id);
    const used = await op.issueKey(t, partner.id, { label: 'used' });
    const idle = await op.issueKey(t, partner.id, { label: 'idle' });
    const before = await op.wholeStore(t);

    t.clock.advance(5_000);
    await op.partnerTransactions(t, used.key, gym.id);
    t.clock.advance(2_000);
    await op.partnerTransactions(t, used.key, gym.id);
    const afterRequests = await op.wholeStore(t);
    await t.services.apiKeys.flushUsage();

    expect(afterRequests).toEqual(before);
    expect((await keyRow(t, used.id)).last_used_at).toBe(op.T0_MS + 7_000);
    expectReply(await op.admin(t, 'GET', `/partners/${partner.id}/keys`), 200, {
      items: [{ ...listed(used), last_used_at: op.at(7_000) }, listed(idle)],
      next_cursor: null,
    });
  });
});
