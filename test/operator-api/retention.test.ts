import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { scheduleDailyPurge } from '../../src/cli/purge-schedule.js';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';

const DAY_MS = 86_400_000;

async function rows(t: TestApp) {
  const [checkins, transactions, codes, events, audit] = await Promise.all([
    t.store.db.selectFrom('checkins').select(['id', 'status']).orderBy('id').execute(),
    t.store.db.selectFrom('transactions').select('checkin_id').execute(),
    t.store.db.selectFrom('custom_codes').select('platform_id').execute(),
    t.store.db.selectFrom('events').select(['type', 'data']).orderBy('position').execute(),
    t.store.db.selectFrom('audit_log').select('id').execute(),
  ]);
  return { checkins, transactions, codes, events, audit: audit.length };
}

/** A paid check-in, a cancelled one, a pending one that expired, and a code: all made at T0. */
async function arrange(t: TestApp) {
  const n = await op.arrangeNetwork(t);
  const paid = await op.createCheckin(t, n.product);
  expect((await op.validate(t, n.key.key, n.gym.id, paid.platform_id)).statusCode).toBe(200);
  const cancelled = await op.createCheckin(t, n.product);
  expect((await op.admin(t, 'POST', `/checkins/${cancelled.id}/cancel`)).statusCode).toBe(200);
  const expired = await op.createCheckin(t, n.product);
  await t.services.customCodes.create({ gymId: n.gym.id, platformId: platformId() }, '4321');
  return { paid, cancelled, expired };
}

describe.each(dialects)('retention (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  test('when 30 days have passed to the millisecond, then nothing is purged; a millisecond later, every event payload is, and the events stay', async () => {
    const t = app();
    await arrange(t);
    const before = await rows(t);
    t.clock.set(op.T0_MS + 30 * DAY_MS);

    expect(await t.services.retention.purge()).toEqual({ eventPayloads: 0, checkins: 0 });
    expect(await rows(t)).toEqual(before);

    t.clock.advance(1);
    expect(await t.services.retention.purge()).toEqual({ eventPayloads: before.events.length, checkins: 0 });

    const after = await rows(t);
    expect(after).toEqual({
      ...before,
      events: before.events.map((event) => ({ type: event.type, data: null })),
    });
  });

  test('when 400 days have passed, then check-ins that never became transactions are deleted; the paid one, its transaction, codes and the audit log stay', async () => {
    const t = app();
    const { paid } = await arrange(t);
    const before = await rows(t);
    t.clock.set(op.T0_MS + 400 * DAY_MS + 1);

    const purged = await t.services.retention.purge();

    expect(purged).toEqual({ eventPayloads: before.events.length, checkins: 2 });
    const after = await rows(t);
    expect(after.checkins).toEqual([{ id: paid.id, status: 'validated' }]);
    expect(after.transactions).toEqual([{ checkin_id: paid.id }]);
    expect(after.codes).toEqual(before.codes);
    expect(after.audit).toBe(before.audit);
    expect(await t.services.retention.purge()).toEqual({ eventPayloads: 0, checkins: 0 });
  });

  test('when more is due than one batch holds, then the purge goes on batch by batch until none is left', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    for (let i = 0; i < 1100; i += 1) {
      await t.services.checkins.create({
        platformId: platformId(),
        gymId: n.gym.id,
        productId: n.product.id,
      });
    }
    t.clock.set(op.T0_MS + 400 * DAY_MS + 1);

    expect(await t.services.retention.purge()).toEqual({ eventPayloads: 1100, checkins: 1100 });
    expect(await t.store.db.selectFrom('checkins').select('id').execute()).toEqual([]);
  });

  test('when serve schedules the daily purge, then it runs, logs what it purged, and runs again on schedule until stopped', async () => {
    const t = app();
    await arrange(t);
    t.clock.set(op.T0_MS + 31 * DAY_MS);
    const count = () => t.logs.lines.filter((line) => line.includes('"msg":"retention purge"')).length;

    const stop = scheduleDailyPurge(t.services, t.app.log, { firstMs: 10, everyMs: 50 });
    for (let waited = 0; count() < 2 && waited < 5000; waited += 20) await sleep(20);
    stop();
    const runs = count();
    await sleep(200);

    expect(runs).toBeGreaterThanOrEqual(2);
    expect(count()).toBe(runs);
    const first = JSON.parse(t.logs.lines.find((line) => line.includes('retention purge')) ?? '{}') as object;
    expect(first).toMatchObject({ level: 30, msg: 'retention purge', event_payloads: 6, checkins: 0 });
    expect((await rows(t)).events.every((event) => event.data === null)).toBe(true);
  });
});
