import { describe, expect, test } from 'vitest';
import { platformId, unique } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { codeRequest, expectReply } from '../fixtures/partner-api.js';
import { errorEnvelope, PLATFORM_ID_ERROR } from '../fixtures/wire-bodies.js';

interface Listed<T = Record<string, unknown>> {
  items: T[];
  next_cursor: string | null;
}
interface AuditItem {
  id: number;
  action: string;
  entity: string;
  entity_id: string;
}

const list = async <T = Record<string, unknown>>(t: TestApp, url: string) =>
  op.ok<Listed<T>>(await op.admin(t, 'GET', url), 200);

/**
 * A member's day as its history: a check-in cancelled, another validated, the visit reversed in part, a custom
 * code set by the front desk; and another member validated at the same gym meanwhile, who must never show.
 */
async function arrangeMemberHistory(t: TestApp) {
  const n = await op.arrangeNetwork(t);
  const member = platformId();
  const cancelled = await op.createCheckin(t, n.product, { platform_id: member });
  t.clock.advance(1000);
  op.ok(await op.admin(t, 'POST', `/checkins/${cancelled.id}/cancel`), 200);
  t.clock.advance(1000);
  const validated = await op.createCheckin(t, n.product, { platform_id: member });
  expect((await op.validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);
  t.clock.advance(1000);
  const other = await op.validatedVisit(t, n);
  t.clock.advance(1000);
  const [visit] = (await list<{ id: number }>(t, `/transactions?platform_id=${member}`)).items;
  op.ok(
    await op.admin(t, 'POST', `/transactions/${visit?.id}/reversals`, {
      reason: 'wrong plan',
      amount_cents: 250,
    }),
    201,
  );
  t.clock.advance(1000);
  const code = await codeRequest(t, 'POST', member, op.partnerHeaders(n.key.key, n.gym.id), {
    custom_code: '4321',
  });
  expect(code.statusCode, code.body).toBe(201);
  return { n, member, cancelled, validated, visitId: Number(visit?.id), other };
}

/** Every page of `url` (which has a query), `limit` at a time, following next_cursor. */
async function walk(t: TestApp, url: string, limit: number) {
  const items: unknown[] = [];
  let pages = 0;
  for (let cursor: string | null = ''; cursor !== null; pages += 1) {
    const page: Listed = await list(t, `${url}&limit=${limit}${cursor === '' ? '' : `&cursor=${cursor}`}`);
    items.push(...page.items);
    cursor = page.next_cursor;
  }
  return { items, pages };
}

describe.each(dialects)('operator API: search by member and by partner name (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test("when an operator searches a member id, then its check-ins come newest first and no one else's", async () => {
    const t = app();
    const { n, member, cancelled, validated, other } = await arrangeMemberHistory(t);
    const gymCheckins = await list(t, `/checkins?gym_id=${n.gym.id}&limit=1000`);

    const found = await op.admin(t, 'GET', `/checkins?platform_id=${member}&order=desc`);

    const mine = gymCheckins.items.filter((checkin) => checkin.platform_id === member).reverse();
    expect(mine.map((checkin) => [checkin.id, checkin.status])).toEqual([
      [validated.id, 'validated'],
      [cancelled.id, 'cancelled'],
    ]);
    expectReply(found, 200, { items: mine, next_cursor: null });
    expect(gymCheckins.items.map((checkin) => checkin.id)).toContain(other.checkin.id);
    expect(await walk(t, `/checkins?platform_id=${member}&order=desc`, 1)).toEqual({ items: mine, pages: 2 });
  });

  test("when an operator searches a member id, then its visits and their reversals come newest first and no one else's", async () => {
    const t = app();
    const { n, member, visitId, other } = await arrangeMemberHistory(t);
    const ledger = await list(t, `/transactions?partner_id=${n.partner.id}&limit=1000`);

    const found = await op.admin(t, 'GET', `/transactions?platform_id=${member}&order=desc`);
    const visitsOnly = await op.admin(t, 'GET', `/transactions?platform_id=${member}&kind=visit`);

    const mine = ledger.items.filter((entry) => entry.platform_id === member).reverse();
    expect(mine.map((entry) => [entry.kind, entry.kind === 'visit' ? entry.id : entry.reverses])).toEqual([
      ['reversal', visitId],
      ['visit', visitId],
    ]);
    expectReply(found, 200, { items: mine, next_cursor: null });
    expectReply(visitsOnly, 200, {
      items: mine.filter((entry) => entry.kind === 'visit'),
      next_cursor: null,
    });
    expect(ledger.items.map((entry) => entry.id)).toContain(other.transactionId);
    expect(await walk(t, `/transactions?platform_id=${member}&order=desc`, 1)).toEqual({
      items: mine,
      pages: 2,
    });
  });

  test("when an operator searches a member id, then the audit entries of its check-ins, codes, plan and visits come newest first and no one else's", async () => {
    const t = app();
    const { n, member, cancelled, validated, visitId, other } = await arrangeMemberHistory(t);
    const plan = op.ok<{ id: number }>(
      await op.admin(t, 'POST', '/plans', {
        name: `Gold ${unique()}`,
        rules: [{ category: 'standard', per: 'day', limit: 1, scope: 'network' }],
      }),
      201,
    );
    t.clock.advance(1000);
    op.ok(await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: plan.id }), 200);
    const all = await list<AuditItem>(t, '/audit?limit=1000');
    const before = await op.wholeStore(t);

    const found = await op.admin(t, 'GET', `/audit?platform_id=${member}&order=desc`);

    const about = (entry: AuditItem) =>
      (entry.entity === 'checkin' &&
        [String(cancelled.id), String(validated.id)].includes(entry.entity_id)) ||
      (entry.entity === 'transaction' && entry.entity_id === String(visitId)) ||
      (entry.entity === 'custom-code' && entry.entity_id === `${n.gym.id}:${member}`) ||
      (entry.entity === 'member' && entry.entity_id === member);
    const mine = all.items.filter(about).reverse();
    expect(mine.map((entry) => [entry.action, entry.entity])).toEqual([
      ['update', 'member'],
      ['create', 'custom-code'],
      ['reverse', 'transaction'],
      ['create', 'checkin'],
      ['cancel', 'checkin'],
      ['create', 'checkin'],
    ]);
    expectReply(found, 200, { items: mine, next_cursor: null });
    expect(all.items.map((entry) => entry.entity_id)).toContain(String(other.checkin.id));
    expect(await walk(t, `/audit?platform_id=${member}&order=desc`, 2)).toEqual({ items: mine, pages: 3 });
    expect(all.items.map((entry) => [entry.entity, entry.entity_id])).toContainEqual([
      'plan',
      String(plan.id),
    ]);
    expectReply(await op.admin(t, 'GET', `/audit?platform_id=${member}&entity=checkin`), 200, {
      items: mine.filter((entry) => entry.entity === 'checkin').reverse(),
      next_cursor: null,
    });
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when a member id has no history, then each search answers an empty page', async () => {
    const t = app();
    const nobody = platformId();
    for (const url of [
      `/checkins?platform_id=${nobody}`,
      `/transactions?platform_id=${nobody}`,
      `/audit?platform_id=${nobody}`,
    ]) {
      expectReply(await op.admin(t, 'GET', `${url}&order=desc`), 200, { items: [], next_cursor: null });
    }
  });

  test('when an operator filters partners by part of a name, then those whose name holds it in any case come, in id order', async () => {
    const t = app();
    const tag = unique();
    const first = await op.createPartner(t, `Academia AÇÃO ${tag} Sul`);
    await op.createPartner(t, `Acme Fitness ${tag}`);
    const second = await op.createPartner(t, `Yoga ação ${tag}`);

    const found = await op.admin(t, 'GET', `/partners?name=${encodeURIComponent(`ação ${tag}`)}`);
    const paged = await op.admin(t, 'GET', `/partners?name=${encodeURIComponent(`ação ${tag}`)}&limit=1`);

    expectReply(found, 200, { items: [first, second], next_cursor: null });
    expectReply(paged, 200, { items: [first], next_cursor: op.A_CURSOR });
    expect(await walk(t, `/partners?name=${encodeURIComponent(`ação ${tag}`)}`, 1)).toEqual({
      items: [first, second],
      pages: 2,
    });
    expectReply(await op.admin(t, 'GET', `/partners?name=nowhere-${tag}`), 200, {
      items: [],
      next_cursor: null,
    });
  });

  test.each([
    ['/checkins?platform_id=123', PLATFORM_ID_ERROR],
    ['/transactions?platform_id=12345678901234', PLATFORM_ID_ERROR],
    ['/transactions?platform_id=%D9%A1234567890123', PLATFORM_ID_ERROR],
    ['/audit?platform_id=abcdefghijklm', PLATFORM_ID_ERROR],
    ['/audit?platform_id=', PLATFORM_ID_ERROR],
    ['/checkins?platform_id=1234567890123&order=newest', errorEnvelope('order', 'must be one of asc, desc')],
    ['/transactions?kind=refund', errorEnvelope('kind', 'must be one of visit, reversal')],
    ['/partners?name=', errorEnvelope('name', 'must NOT have fewer than 1 characters')],
    ['/partners?name=%20%20', errorEnvelope('name', 'must not be blank')],
    ['/partners?name=a%00b', errorEnvelope('name', 'must be text without control characters')],
    [`/partners?name=${'x'.repeat(201)}`, errorEnvelope('name', 'must NOT have more than 200 characters')],
  ])('when GET /admin/v1%s, then 400 in the envelope and nothing changes', async (url, body) => {
    await op.expectAdminNoWrite(app(), 'GET', url, 400, body);
  });
});

describe.each(dialects)("partner API: a desk's day newest first (%s)", (dialect) => {
  const app = op.operatorApp({ dialect });
  type Page = { results: { id: number; kind: string }[]; next_cursor: string; has_more: boolean };
  const page = async (t: TestApp, n: op.Network, query: string) =>
    op.ok<Page>(await op.partnerTransactions(t, n.key.key, n.gym.id, query), 200);

  test('when a desk reads visits newest first, then each page holds the next older visits and no reversal', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const visits = [];
    for (let i = 0; i < 3; i += 1) {
      visits.push(await op.validatedVisit(t, n));
      t.clock.advance(1000);
    }
    op.ok(
      await op.admin(t, 'POST', `/transactions/${visits[1]?.transactionId}/reversals`, { reason: 'twice' }),
      201,
    );
    const feed = await page(t, n, '?limit=1000');
    expect(feed.results.map((entry) => entry.kind)).toEqual(['visit', 'visit', 'visit', 'reversal']);
    const newest = feed.results.filter((entry) => entry.kind === 'visit').reverse();

    const first = await op.partnerTransactions(t, n.key.key, n.gym.id, '?order=desc&kind=visit&limit=2');
    const firstPage = JSON.parse(first.body) as Page;
    const second = await page(t, n, `?order=desc&kind=visit&limit=2&cursor=${firstPage.next_cursor}`);

    expectReply(first, 200, {
      metadata: { total: 2, errors: 0 },
      results: newest.slice(0, 2),
      next_cursor: op.A_CURSOR,
      has_more: true,
    });
    expect(second).toEqual({
      metadata: { total: 1, errors: 0 },
      results: newest.slice(2),
      next_cursor: op.A_CURSOR,
      has_more: false,
    });
    expect((await page(t, n, '?order=desc&limit=1')).results).toEqual([feed.results[3]]);
  });

  test.each([
    ['?order=newest', errorEnvelope('order', 'must be one of asc, desc')],
    ['?kind=refund', errorEnvelope('kind', 'must be one of visit, reversal')],
    [
      `?order=desc&cursor=${Buffer.from('at:1:1').toString('base64url')}`,
      errorEnvelope('cursor', 'is not a cursor this API returned'),
    ],
  ])(
    'when GET /access/v1/transactions%s, then 400 in the envelope and nothing changes',
    async (query, body) => {
      const t = app();
      const n = await op.arrangeNetwork(t);
      const before = await op.wholeStore(t);
      expectReply(await op.partnerTransactions(t, n.key.key, n.gym.id, query), 400, body);
      expect(await op.wholeStore(t)).toEqual(before);
    },
  );
});
