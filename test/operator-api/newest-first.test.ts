import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';

interface Listed {
  items: { id: number }[];
  next_cursor: string | null;
}

/** Every page of a list, `limit` at a time, following next_cursor; the pages' items in the order they came. */
async function walk(t: TestApp, path: string, limit: number): Promise<{ items: unknown[]; pages: number }> {
  const items: unknown[] = [];
  let pages = 0;
  for (let cursor: string | null = ''; cursor !== null; pages += 1) {
    const response = await op.admin(
      t,
      'GET',
      `${path}&limit=${limit}${cursor === '' ? '' : `&cursor=${cursor}`}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const page = JSON.parse(response.body) as Listed;
    items.push(...page.items);
    cursor = page.next_cursor;
  }
  return { items, pages };
}

/** The list oldest first in one page: the documented default order, which newest first must reverse exactly. */
async function oldestFirst(t: TestApp, path: string): Promise<Listed['items']> {
  const response = await op.admin(t, 'GET', `${path}&limit=1000`);
  const listed = JSON.parse(response.body) as Listed;
  expect(listed.next_cursor).toBeNull();
  return listed.items;
}

/**
 * Lists an operator reads newest first (`order=desc`): the same rows as oldest first, reversed, a page at a time;
 * the default order unchanged; a cursor of one order refused by the other.
 */
describe.each(dialects)('operator API: lists newest first (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  /** Newest first through `path`, 2 at a time, is the oldest-first list reversed; the first page's whole answer. */
  async function expectNewestFirst(t: TestApp, path: string, count: number) {
    const oldest = await oldestFirst(t, path);
    const newest = [...oldest].reverse();
    expect(oldest).toHaveLength(count);
    expect(oldest.map((item) => item.id)).toEqual([...oldest.map((item) => item.id)].sort((a, b) => a - b));

    const first = await op.admin(t, 'GET', `${path}&order=desc&limit=2`);
    const walked = await walk(t, `${path}&order=desc`, 2);

    expectReply(first, 200, { items: newest.slice(0, 2), next_cursor: op.A_CURSOR });
    expect(walked).toEqual({ items: newest, pages: Math.ceil(count / 2) });
    expectReply(
      await op.admin(
        t,
        'GET',
        `${path}&order=desc&cursor=${(JSON.parse((await op.admin(t, 'GET', `${path}&limit=1`)).body) as Listed).next_cursor}`,
      ),
      400,
      errorEnvelope('cursor', 'is not a cursor this API returned'),
    );
  }

  test('when the ledger holds visits and a reversal, then order=desc lists the newest entry first and pages back to the oldest', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t, { payout_cents: 1250, currency: 'BRL' });
    const first = await op.validatedVisit(t, n);
    t.clock.advance(1000);
    await op.validatedVisit(t, n);
    t.clock.advance(1000);
    const reversal = await op.admin(t, 'POST', `/transactions/${first.transactionId}/reversals`, {
      reason: 'charged twice',
    });
    expect(reversal.statusCode, reversal.body).toBe(201);
    t.clock.advance(1000);
    await op.validatedVisit(t, n);

    await expectNewestFirst(t, `/transactions?partner_id=${n.partner.id}`, 4);
    const newest = JSON.parse((await op.admin(t, 'GET', '/transactions?order=desc&limit=1')).body) as {
      items: { kind: string }[];
    };
    expect(newest.items.map((item) => item.kind)).toEqual(['visit']);
  });

  test('when settlements are closed for several partners, then order=desc lists the newest settlement first', async () => {
    const t = app();
    for (let i = 0; i < 5; i += 1) await op.validatedVisit(t, await op.arrangeNetwork(t));
    t.clock.set('2026-03-03T00:00:00Z');
    const closed = await op.admin(t, 'POST', '/settlements', {
      period_start: '2026-03-02',
      period_end: '2026-03-03',
    });
    expect(closed.statusCode, closed.body).toBe(201);

    await expectNewestFirst(t, '/settlements?status=closed', 5);
  });

  test('when a partner has several keys, then order=desc lists its newest key first', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    for (let i = 0; i < 3; i += 1) await op.issueKey(t, partner.id, { label: `desk ${i}` });

    await expectNewestFirst(t, `/partners/${partner.id}/keys?`, 3);
  });

  test.each([
    ['/transactions?order=newest'],
    ['/settlements?order=DESC'],
    ['/partners/1/keys?order=desc,asc'],
    ['/webhooks/1/deliveries?order='],
  ])('when GET /admin/v1%s, then 400 key order', async (url) => {
    expectReply(await op.admin(app(), 'GET', url), 400, errorEnvelope('order', 'must be one of asc, desc'));
  });
});
