import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { admin, arrangeNetwork, partnerHeaders, wholeStore, type Network } from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';
import { parsePrometheusText, seriesOf } from '../observability/prometheus-text.js';
import { register, webhookApp, type Endpoint } from '../fixtures/webhook-app.js';

const LIMIT = 3;
const AT_LIMIT = errorEnvelope(
  'webhook.limit',
  `a partner may have at most ${LIMIT} webhook endpoints, disabled ones included: remove one before adding another`,
);
const HOOK_URL = 'https://127.0.0.1:9/hooks';

/** POST a new endpoint through the operator API or with the partner's own key. */
function create(t: TestApp, n: Network, via: 'operator' | 'partner') {
  if (via === 'operator') return admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, { url: HOOK_URL });
  return t.app.inject({
    method: 'POST',
    url: '/access/v1/webhooks',
    headers: { ...partnerHeaders(n.key.key, n.gym.id), 'content-type': 'application/json' },
    payload: JSON.stringify({ url: HOOK_URL }),
  });
}

const endpointsOf = async (t: TestApp, partnerId: number) =>
  (
    await t.store.db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('partner_id', '=', partnerId)
      .orderBy('id')
      .execute()
  ).map((row) => row.id);

async function refusals(t: TestApp): Promise<number> {
  const metrics = parsePrometheusText((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
  return seriesOf(metrics, 'gatehouse_quota_refusals_total')['quota=webhook_endpoints'] ?? 0;
}

async function fill(t: TestApp, n: Network, count: number): Promise<Endpoint[]> {
  const made: Endpoint[] = [];
  for (let i = 0; i < count; i += 1) made.push(await register(t, n.partner.id, { url: HOOK_URL }));
  return made;
}

describe.each(dialects)('webhook endpoints per partner (%s)', (dialect) => {
  const app = webhookApp({
    dialect,
    deliver: false,
    env: { GATEHOUSE_WEBHOOK_ENDPOINTS_PER_PARTNER: String(LIMIT) },
  });

  test('when a partner has its quota, one disabled, then one more through either API is 409 webhook.limit, nothing is written and /metrics counts it', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const [first] = await fill(t, n, LIMIT);
    await t.store.write((trx) => t.services.webhooks.endpoints.disableInTransaction(trx, first!.id, 'gone'));
    const before = await wholeStore(t);
    const counted = await refusals(t);

    expectReply(await create(t, n, 'operator'), 409, AT_LIMIT);
    expectReply(await create(t, n, 'partner'), 409, AT_LIMIT);

    expect(await wholeStore(t)).toEqual(before);
    expect(await endpointsOf(t, n.partner.id)).toHaveLength(LIMIT);
    expect((await refusals(t)) - counted).toBe(2);
  });

  test('when a partner at its quota removes an endpoint, then its next creation succeeds, and another partner is never limited by it', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const made = await fill(t, n, LIMIT);
    const other = await arrangeNetwork(t);

    expect((await create(t, other, 'partner')).statusCode).toBe(201);
    expect((await admin(t, 'DELETE', `/webhooks/${made[1]!.id}`)).statusCode).toBe(204);
    const created = await create(t, n, 'partner');

    expect(created.statusCode).toBe(201);
    const { id } = (JSON.parse(created.body) as { results: Endpoint }).results;
    expect(await endpointsOf(t, n.partner.id)).toEqual([made[0]!.id, made[2]!.id, id]);
    expect(await endpointsOf(t, other.partner.id)).toHaveLength(1);
  });

  test('when creations through both APIs race for the last place, then exactly one gets it and the others are 409', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    await fill(t, n, LIMIT - 1);
    const counted = await refusals(t);

    const answers = await Promise.all(
      (['operator', 'partner', 'operator', 'partner', 'operator', 'partner'] as const).map((via) =>
        create(t, n, via),
      ),
    );

    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
      expect(JSON.parse(refused.body)).toEqual(AT_LIMIT);
    }
    expect(await endpointsOf(t, n.partner.id)).toHaveLength(LIMIT);
    expect((await refusals(t)) - counted).toBe(5);
  });
});
