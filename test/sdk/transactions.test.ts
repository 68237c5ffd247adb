import { describe, expect, it } from 'vitest';
import { arrangeCheckin } from '../fixtures/partner-api.js';
import { transactionsOf } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import { liveGatehouse } from '../fixtures/live-gatehouse.js';

const NOW = '2026-03-02T12:00:00Z';

describe.each(dialects)('the SDK’s listTransactions against a live gatehouse (%s)', (dialect) => {
  const live = liveGatehouse(dialect);

  it('when three check-ins were validated, then listTransactions pages through them in order', async () => {
    const a = await live.arrange();
    const t = live.app();
    const client = live.client(a);
    const checkins = [];
    for (let i = 0; i < 3; i += 1) {
      const checkin = await arrangeCheckin(t, a);
      await client.validate({ platformId: checkin.platformId });
      checkins.push(checkin);
    }
    const expected = await Promise.all(
      checkins.map(async (checkin) => {
        const [row] = await transactionsOf(t.store, checkin.id);
        return {
          id: row?.id,
          kind: 'visit',
          checkin_id: checkin.id,
          platform_id: checkin.platformId,
          product: { Id: a.product.id, description: a.product.description },
          payout_cents: 1250,
          currency: 'BRL',
          validated_at: NOW,
          effective_at: NOW,
          reverses: null,
          reason: null,
          pricing: { list_cents: 1250, paid_cents: 1250, rule: 'list' as const, version: null },
        };
      }),
    );

    const first = await client.listTransactions({ limit: 2 });
    expect(first).toEqual({
      transactions: expected.slice(0, 2),
      nextCursor: expect.any(String) as string,
      hasMore: true,
      resumeCursor: first.nextCursor,
    });
    const second = await client.listTransactions({ limit: 2, cursor: first.nextCursor ?? '' });
    expect(second).toEqual({
      transactions: expected.slice(2),
      nextCursor: null,
      hasMore: false,
      resumeCursor: expect.any(String) as string,
    });

    // Polling later from the last page's resumeCursor gives exactly what came since.
    const later = await arrangeCheckin(t, a);
    await client.validate({ platformId: later.platformId });
    const resumed = await client.listTransactions({ cursor: second.resumeCursor ?? '' });
    expect(resumed.transactions.map((row) => row.checkin_id)).toEqual([later.id]);
    expect(resumed.nextCursor).toBeNull();
    const idle = await client.listTransactions({ cursor: resumed.resumeCursor ?? '' });
    expect(idle).toEqual({
      transactions: [],
      nextCursor: null,
      hasMore: false,
      resumeCursor: resumed.resumeCursor,
    });
  });

  it('when a client loops until nextCursor is null, then it stops after the last page', async () => {
    const a = await live.arrange();
    const t = live.app();
    const client = live.client(a);
    for (let i = 0; i < 3; i += 1) {
      const checkin = await arrangeCheckin(t, a);
      await client.validate({ platformId: checkin.platformId });
    }
    const seen: number[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const page = await client.listTransactions({ limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.transactions.map((row) => row.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(3);
  });

  it('when a period is given, then only the visits inside it are listed', async () => {
    const a = await live.arrange();
    const client = live.client(a);
    const checkin = await arrangeCheckin(live.app(), a);
    await client.validate({ platformId: checkin.platformId });

    const inside = await client.listTransactions({ from: new Date(NOW), to: '2026-03-02T12:00:01Z' });
    const before = await client.listTransactions({ to: new Date(NOW) });

    expect(inside.transactions.map((row) => row.checkin_id)).toEqual([checkin.id]);
    expect(before).toEqual({
      transactions: [],
      nextCursor: null,
      hasMore: false,
      resumeCursor: expect.any(String) as string,
    });
  });
});
