import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { arrangeNetwork, createCheckin } from '../fixtures/operator-api.js';
import { eventually, startReceiver, useReceivers } from '../fixtures/webhook-receiver.js';
import { register, webhookApp } from '../fixtures/webhook-app.js';

const receiver = useReceivers();

type Line = Record<string, unknown>;

/** The server log's "webhook endpoint failing" lines about one endpoint, in order (the app serves the whole file). */
const failingLines = (t: TestApp, webhook: number) =>
  t.logs.lines
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.msg === 'webhook endpoint failing' && line.webhook === webhook);

/** The whole line a failing endpoint leaves: who, why, how many wait; nothing of any payload. */
function failingLine(
  webhook: number,
  partner: number,
  why: { status: number } | { error: string },
  pending: number,
) {
  return {
    level: 40,
    time: expect.any(Number) as unknown,
    pid: expect.any(Number) as unknown,
    hostname: expect.any(String) as unknown,
    webhook,
    partner,
    ...why,
    pending,
    msg: 'webhook endpoint failing',
  };
}

describe.each(dialects)('failing webhook endpoints in the server log (%s)', (dialect) => {
  const app = webhookApp({ dialect, deliver: false });

  test('when an endpoint answers 500 attempt after attempt, then one warning line says so within the minute and another a minute later, and a healthy endpoint leaves none', async () => {
    const t = app();
    const failing = await receiver(() => ({ status: 500 }));
    const healthy = await receiver();
    const a = await arrangeNetwork(t);
    const b = await arrangeNetwork(t);
    const bad = await register(t, a.partner.id, { url: failing.url });
    const good = await register(t, b.partner.id, { url: healthy.url });
    const members = [await createCheckin(t, a.product), await createCheckin(t, a.product)];
    await createCheckin(t, b.product);

    t.webhookRunner.start();
    await eventually(() => failing.received.length >= 4 && healthy.received.length === 1);

    expect(failingLines(t, bad.id)).toEqual([failingLine(bad.id, a.partner.id, { status: 500 }, 2)]);

    expect(failingLines(t, good.id)).toEqual([]);

    t.clock.advance(60_000);
    await eventually(() => failingLines(t, bad.id).length === 2);

    expect(failingLines(t, bad.id)[1]).toEqual(failingLine(bad.id, a.partner.id, { status: 500 }, 2));
    const text = t.logs.text();
    for (const member of members) expect(text).not.toContain(member.platform_id);
    expect(text).not.toContain('"member"');
  });

  test('when an endpoint refuses connections, then its warning line gives the error instead of a status', async () => {
    const t = app();
    const down = await startReceiver();
    await down.close();
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: down.url });
    await createCheckin(t, n.product);

    t.webhookRunner.start();
    await eventually(() => failingLines(t, endpoint.id).length === 1);

    expect(failingLines(t, endpoint.id)).toEqual([
      failingLine(endpoint.id, n.partner.id, { error: 'connection refused' }, 1),
    ]);
  });
});
