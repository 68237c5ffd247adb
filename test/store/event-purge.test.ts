import { describe, expect, test } from 'vitest';
import { appendEvents } from '../../src/store/events/event-repository.js';
import { purgeEventPayloads, type PurgeStep } from '../../src/store/events/retention-repository.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';

/** Appends one event per time, in this order (so in this position order), each with its own payload. */
async function appendAt(t: TestApp, times: readonly number[]): Promise<void> {
  const n = await op.arrangeNetwork(t);
  await t.store.write((trx) =>
    appendEvents(
      trx,
      times.map((at) => ({
        type: 'checkin.created' as const,
        occurredAt: at,
        partnerId: n.partner.id,
        gymId: n.gym.id,
        data: { at },
      })),
    ),
  );
}

async function log(t: TestApp) {
  const rows = await t.store.db
    .selectFrom('events')
    .select(['position', 'occurred_at', 'data'])
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ position: Number(row.position), at: Number(row.occurred_at), data: row.data }));
}

/** Every step of a purge, each in a transaction of its own, as the retention service runs them. */
async function walk(t: TestApp, before: number, window: number): Promise<PurgeStep[]> {
  const steps: PurgeStep[] = [];
  let after: number | undefined = 0;
  while (after !== undefined) {
    const from: number = after;
    const step = await t.store.write((trx) => purgeEventPayloads(trx, before, from, window));
    steps.push(step);
    after = step.next;
  }
  return steps;
}

describe.each(dialects)('the event payload purge walks the log by position (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  test('when the log is older than the bound, then window by window every payload before it is purged, one already purged is not counted again, and the walk ends at the first window with nothing due', async () => {
    const t = app();
    await appendAt(t, [1, 2, 3, 4, 5, 6, 10, 11, 12, 1]);
    const before = await log(t);
    const positions = before.map((row) => row.position);
    await t.store.db
      .updateTable('events')
      .set({ data: null })
      .where('position', '=', positions[3]!)
      .execute();

    const steps = await walk(t, 10, 3);

    expect(steps).toEqual([
      { purged: 3, next: positions[2] },
      { purged: 2, next: positions[5] },
      { purged: 0, next: undefined },
    ]);
    expect(await log(t)).toEqual(
      before.map((row, i) => ({ ...row, data: i < 6 ? null : JSON.stringify({ at: row.at }) })),
    );
  });

  test('when a window mixes older and younger events, then only the older payloads go, and the walk goes on past it', async () => {
    const t = app();
    await appendAt(t, [1, 12, 3, 4, 13, 14]);
    const before = await log(t);
    const positions = before.map((row) => row.position);

    const steps = await walk(t, 10, 3);

    expect(steps).toEqual([
      { purged: 2, next: positions[2] },
      { purged: 1, next: positions[5] },
      { purged: 0, next: undefined },
    ]);
    expect((await log(t)).map((row) => [row.at, row.data])).toEqual([
      [1, null],
      [12, '{"at":12}'],
      [3, null],
      [4, null],
      [13, '{"at":13}'],
      [14, '{"at":14}'],
    ]);
  });

  test('when the log is empty or wholly younger than the bound, then the first step purges nothing and ends the walk', async () => {
    const t = app();
    expect(await walk(t, 10, 3)).toEqual([{ purged: 0, next: undefined }]);
    await appendAt(t, [10, 11]);
    const before = await log(t);

    expect(await walk(t, 10, 3)).toEqual([{ purged: 0, next: undefined }]);
    expect(await log(t)).toEqual(before);
  });
});
