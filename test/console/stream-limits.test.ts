import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { openStream, type OpenStream } from '../fixtures/event-stream-reader.js';
import { parsePrometheusText, seriesOf } from '../observability/prometheus-text.js';

const PER_CREDENTIAL = 2;
const PER_PROCESS = 5;
const PER_KEY_GYM = errorEnvelope(
  'stream.limit',
  `at most ${PER_CREDENTIAL} event streams may be open per key and gym: close one before opening another`,
);
const PER_OPERATOR = errorEnvelope(
  'stream.limit',
  `at most ${PER_CREDENTIAL} event streams may be open per operator token: close one before opening another`,
);
const PER_PROCESS_BODY = errorEnvelope(
  'stream.limit',
  `this server has its ${PER_PROCESS} event streams open: try again later`,
);

const DESK = '/access/v1/events/stream';
const OPERATOR = '/admin/v1/events/stream';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function metrics(t: TestApp) {
  const text = parsePrometheusText((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
  return {
    refusals: seriesOf(text, 'gatehouse_quota_refusals_total'),
    open: seriesOf(text, 'gatehouse_event_streams_open'),
  };
}

const refused = (t: TestApp, url: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url, headers });

async function operatorToken(t: TestApp): Promise<string> {
  const response = await op.admin(t, 'POST', '/operators', { name: `desk-${Date.now()}`, role: 'readonly' });
  expect(response.statusCode, response.body).toBe(201);
  return (JSON.parse(response.body) as { token: string }).token;
}

describe.each(dialects)('event stream quotas (%s)', (dialect) => {
  const app = op.operatorApp({
    dialect,
    env: {
      GATEHOUSE_STREAMS_PER_CREDENTIAL: String(PER_CREDENTIAL),
      GATEHOUSE_STREAMS_PER_PROCESS: String(PER_PROCESS),
    },
  });
  const open: OpenStream[] = [];
  beforeAll(async () => {
    await app().app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    for (const stream of open.splice(0)) await stream.close();
    await streamsClosed(app());
  });
  /** Opens a stream that must be accepted: 200 and its `ready`. */
  const accepted = async (t: TestApp, path: string, headers: Record<string, string>) => {
    const stream = await openStream(t, path, headers);
    open.push(stream);
    expect(stream.status).toBe(200);
    expect((await stream.next(1))[0]?.event).toBe('ready');
    return stream;
  };

  test('when one key at one gym opens streams past its quota, then 429 stream.limit, counted; the same key at another gym, and a place freed, are served', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const second = await op.createGym(t, n.partner.id);
    const before = await metrics(t);
    const first = await accepted(t, DESK, op.partnerHeaders(n.key.key, n.gym.id));
    await accepted(t, DESK, op.partnerHeaders(n.key.key, n.gym.id));

    expectReply(await refused(t, DESK, op.partnerHeaders(n.key.key, n.gym.id)), 429, PER_KEY_GYM);
    await accepted(t, DESK, op.partnerHeaders(n.key.key, second.id));
    const after = await metrics(t);

    expect(after.open).toEqual({ 'api=partner': 3, 'api=operator': 0 });
    expect(after.refusals['quota=event_streams_per_key_gym'] ?? 0).toBe(
      (before.refusals['quota=event_streams_per_key_gym'] ?? 0) + 1,
    );
    await first.close();
    await until(async () => (await metrics(t)).open['api=partner'] === 2);
    await accepted(t, DESK, op.partnerHeaders(n.key.key, n.gym.id));
  });

  test('when one operator token opens streams past its quota, then 429 stream.limit, counted; the admin token is another credential', async () => {
    const t = app();
    const token = await operatorToken(t);
    const before = await metrics(t);
    await accepted(t, OPERATOR, bearer(token));
    await accepted(t, OPERATOR, bearer(token));

    expectReply(await refused(t, OPERATOR, bearer(token)), 429, PER_OPERATOR);
    await accepted(t, OPERATOR, op.ADMIN);
    const after = await metrics(t);

    expect(after.open).toEqual({ 'api=partner': 0, 'api=operator': 3 });
    expect(after.refusals['quota=event_streams_per_operator'] ?? 0).toBe(
      (before.refusals['quota=event_streams_per_operator'] ?? 0) + 1,
    );
  });

  test('when the process has its quota of streams, then the next one of any credential is 429 stream.limit, counted', async () => {
    const t = app();
    const a = await op.arrangeNetwork(t);
    const b = await op.arrangeNetwork(t);
    const token = await operatorToken(t);
    const before = await metrics(t);
    for (const headers of [a, a, b, b].map((n) => op.partnerHeaders(n.key.key, n.gym.id))) {
      await accepted(t, DESK, headers);
    }
    await accepted(t, OPERATOR, op.ADMIN);

    expectReply(await refused(t, OPERATOR, bearer(token)), 429, PER_PROCESS_BODY);
    const after = await metrics(t);

    expect(after.open).toEqual({ 'api=partner': 4, 'api=operator': 1 });
    expect(after.refusals['quota=event_streams_per_process'] ?? 0).toBe(
      (before.refusals['quota=event_streams_per_process'] ?? 0) + 1,
    );
  });
});

async function until(condition: () => Promise<boolean>, withinMs = 5000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not so within ${withinMs} ms`);
    await sleep(20);
  }
}

/** The server has seen every client of the last test go. */
function streamsClosed(t: TestApp): Promise<void> {
  return until(async () => {
    const counts = t.services.eventStreams.counts();
    return counts.partner + counts.operator === 0;
  });
}
