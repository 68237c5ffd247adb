import { describe, expect, test } from 'vitest';
import { openStream } from '../fixtures/event-stream-reader.js';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';

const ANA = {
  first_name: 'Ana',
  last_name: 'Souza',
  email: 'ana@example.com',
  phone_number: '+5511999990000',
};
const MASKED = {
  first_name: 'A**',
  last_name: 'S****',
  email: 'a**************',
  phone_number: '+*************',
};

async function tokenOf(t: TestApp, role: string): Promise<string> {
  const response = await op.admin(t, 'POST', '/operators', { name: `${role}-${platformId()}`, role });
  expect(response.statusCode, response.body).toBe(201);
  return (JSON.parse(response.body) as { token: string }).token;
}

function get(t: TestApp, token: string, url: string) {
  return t.app.inject({
    method: 'GET',
    url: `/admin/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
  });
}

/** The audit's reads of member details, newest last. */
async function detailReads(t: TestApp) {
  return t.store.db
    .selectFrom('audit_log')
    .select(['actor', 'action', 'entity', 'entity_id'])
    .where('entity', '=', 'member')
    .where('action', '=', 'read')
    .orderBy('id')
    .execute();
}

describe.each(dialects)("members' details by role (%s)", (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  test.each([
    ['admin', ANA],
    ['support', ANA],
    ['finance', MASKED],
    ['readonly', MASKED],
  ])(
    'when %s lists check-ins and events, then the member details are shown so, and a full read is audited once per request',
    async (role, shown) => {
      const t = app();
      const n = await op.arrangeNetwork(t);
      const member = platformId();
      const created = await op.admin(t, 'POST', '/checkins', {
        platform_id: member,
        gym_id: n.gym.id,
        product_id: n.product.id,
        member: ANA,
      });
      expect(created.statusCode, created.body).toBe(201);
      expect((await op.validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);
      const token = await tokenOf(t, role);
      const operatorName = (JSON.parse((await get(t, token, '/me')).body) as { name: string }).name;
      const readsBefore = await detailReads(t);

      const checkins = await get(t, token, `/checkins?platform_id=${member}`);
      const events = await get(t, token, '/events');

      expect(checkins.statusCode).toBe(200);
      const checkin = JSON.parse(created.body) as op.Checkin;
      expect(JSON.parse(checkins.body)).toEqual({
        items: [op.shownCheckin(checkin, { status: 'validated', validated_at: op.T0, member: shown })],
        next_cursor: null,
      });
      expect(events.statusCode).toBe(200);
      const listed = JSON.parse(events.body) as { items: { type: string; data: { member?: unknown } }[] };
      expect(listed.items.map((event) => [event.type, event.data.member])).toEqual([
        ['checkin.created', shown],
        ['checkin.validated', shown],
      ]);
      const audited = (await detailReads(t)).slice(readsBefore.length);
      expect(audited).toEqual(
        shown === ANA
          ? [
              {
                actor: `operator:${operatorName}`,
                action: 'read',
                entity: 'member',
                entity_id: 'GET /admin/v1/checkins',
              },
              {
                actor: `operator:${operatorName}`,
                action: 'read',
                entity: 'member',
                entity_id: 'GET /admin/v1/events',
              },
            ]
          : [],
      );
    },
  );

  test('when an answer carries no member details, then reading it in full is not audited', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    await op.createCheckin(t, n.product);
    const before = await detailReads(t);

    const listed = await op.admin(t, 'GET', '/checkins');

    expect(listed.statusCode).toBe(200);
    expect(await detailReads(t)).toEqual(before);
  });

  test.each([
    ['readonly', MASKED, 0],
    ['support', ANA, 1],
  ])(
    'when %s opens the operator event stream, then the member details in its events are shown so, and a full read is audited once as it opens',
    async (role, shown, audited) => {
      const t = app();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const n = await op.arrangeNetwork(t);
      const token = await tokenOf(t, role);
      const before = (await detailReads(t)).length;
      const stream = await openStream(t, '/admin/v1/events/stream', { authorization: `Bearer ${token}` });
      try {
        expect(stream.status).toBe(200);
        const [ready] = await stream.next(1);
        expect(ready?.event).toBe('ready');

        await op.admin(t, 'POST', '/checkins', {
          platform_id: platformId(),
          gym_id: n.gym.id,
          product_id: n.product.id,
          member: ANA,
        });

        const [created] = await stream.next(1);
        expect(created?.event).toBe('checkin.created');
        expect((created?.data as { data: { member: unknown } }).data.member).toEqual(shown);
        const reads = (await detailReads(t)).slice(before);
        expect(reads.map((read) => read.entity_id)).toEqual(
          audited === 1 ? ['GET /admin/v1/events/stream'] : [],
        );
      } finally {
        await stream.close();
      }
    },
  );
});
