import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { platformId } from '../../fixtures/factories.js';
import { arrangeCheckins, openOperator } from '../../fixtures/processes/arrange.js';
import { reply, send, validate } from '../../fixtures/processes/http.js';
import { postHead, tricklingClient, type Closed } from '../../fixtures/processes/raw-socket.js';
import { useServeProcesses, useTempDir, type ServeProcess } from '../../fixtures/processes/serve-process.js';
import { VERSION } from '../../../src/config/version.js';
import { errorEnvelope, NOT_FOUND_CHECKIN } from '../../fixtures/wire-bodies.js';

const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;
// Node checks for expired requests once per connectionsCheckingInterval (1 s, src/app.ts), plus scheduling slack.
const CHECK_INTERVAL_MS = 1000;
const SLACK_MS = 1000;
const TIMEOUT_BODY = errorEnvelope('request.timeout', 'request timed out');

/** Other clients, served meanwhile: one request every 100 ms until `until` settles, each outcome recorded. */
async function servedMeanwhile(
  server: ServeProcess,
  headers: Record<string, string>,
  until: Promise<unknown>,
) {
  let done = false;
  void until.finally(() => (done = true));
  const outcomes: { status: unknown; elapsedMs: number }[] = [];
  for (let i = 0; i < 100 && !done; i += 1) {
    const health = await send(server.baseUrl, 'GET', '/health', { timeoutMs: 1000 });
    const check = await validate(server.baseUrl, headers, platformId(), 1000);
    for (const outcome of [health, check])
      outcomes.push({ status: reply(outcome), elapsedMs: outcome.elapsedMs });
    await sleep(100);
  }
  return outcomes;
}

function expectAllServed(others: Awaited<ReturnType<typeof servedMeanwhile>>): void {
  expect(others.length, 'other clients were served while the slow one held its connection').toBeGreaterThan(
    3,
  );
  const served = [
    { status: 200, body: { status: 'ok', version: VERSION } },
    { status: 404, body: NOT_FOUND_CHECKIN },
  ];
  for (const { status, elapsedMs } of others) {
    expect(served).toContainEqual(status);
    expect(elapsedMs).toBeLessThan(500);
  }
}

/** Row 29's outcome for one slow connection: closed by the server, within the bound, after a 408 envelope. */
function expectClosedByTimeout(closed: Closed, timeoutMs: number): void {
  expect(closed.beforeDone, `the server closed the connection (${closed.bytesSent} bytes sent)`).toBe(true);
  expect(closed.elapsedMs).toBeGreaterThanOrEqual(timeoutMs - 50);
  expect(closed.elapsedMs).toBeLessThanOrEqual(timeoutMs + CHECK_INTERVAL_MS + SLACK_MS);
  const [head = '', body = ''] = closed.received.split('\r\n\r\n');
  expect(head.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
  expect(JSON.parse(body)).toEqual(TIMEOUT_BODY);
}

describe('slow clients are cut off by the configurable timeouts', () => {
  const dir = useTempDir('gatehouse-slow-');
  const start = useServeProcesses();

  async function arranged() {
    const url = `sqlite:${join(dir(), 'gatehouse.db')}`;
    const operator = openOperator(url);
    try {
      await operator.store.migrate();
      const { headers, checkins } = await arrangeCheckins(operator.services, 1);
      const server = await start({
        GATEHOUSE_DATABASE_URL: url,
        GATEHOUSE_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        GATEHOUSE_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      });
      return { server, headers, member: checkins[0]!.platformId, operator };
    } catch (error) {
      await operator.close();
      throw error;
    }
  }

  test('when a client sends its headers one byte every 100 ms, then the server closes the connection after GATEHOUSE_HEADERS_TIMEOUT_MS with a 408, and other clients are served meanwhile', async () => {
    const { server, headers, operator } = await arranged();
    try {
      const head = postHead('/access/v1/validate', { ...headers, 'x-padding': 'p'.repeat(200) }, 2);
      const slow = tricklingClient(server.address, { trickle: head }, { intervalMs: 100, giveUpMs: 10_000 });
      const others = await servedMeanwhile(server, headers, slow);
      expectClosedByTimeout(await slow, HEADERS_TIMEOUT_MS);
      expectAllServed(others);
      expect(server.isAlive()).toBe(true);
    } finally {
      await operator.close();
    }
  });

  test('when a client sends a validate body one byte every 100 ms, then the server closes the connection after GATEHOUSE_REQUEST_TIMEOUT_MS with a 408, nothing is validated, and other clients are served meanwhile', async () => {
    const { server, headers, member, operator } = await arranged();
    try {
      const body = JSON.stringify({ platform_id: member, custom_code: 'Slow#Body1' });
      const request = postHead('/access/v1/validate', headers, body.length);
      // The head goes at once; only the body trickles (50-odd bytes: 5 s at this pace, past the timeout).
      const slowBody = tricklingClient(
        server.address,
        { preamble: request, trickle: body },
        { intervalMs: 100, giveUpMs: 10_000 },
      );
      const others = await servedMeanwhile(server, headers, slowBody);
      expectClosedByTimeout(await slowBody, REQUEST_TIMEOUT_MS);
      expectAllServed(others);
      const checkin = await operator.store.db
        .selectFrom('checkins')
        .select('status')
        .where('platform_id', '=', member)
        .executeTakeFirstOrThrow();
      expect(checkin.status, 'the cut-off validate changed nothing').toBe('pending');
      expect(server.isAlive()).toBe(true);
    } finally {
      await operator.close();
    }
  });
});
