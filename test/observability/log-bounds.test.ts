import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { arrangePartner, platformId } from '../fixtures/factories.js';
import { expectNoWrite } from '../fixtures/fault-app.js';
import { addressOf } from '../fixtures/raw-http.js';
import { build, dialects, type TestApp } from '../fixtures/test-app.js';

type Line = Record<string, unknown>;
const lines = (t: TestApp) => t.logs.lines.map((line) => JSON.parse(line) as Line);

/** Sends the head and part of a body whose Content-Length promises more, then closes the connection. */
async function abortUpload(t: TestApp, head: string, partialBody: string): Promise<void> {
  const { host, port } = addressOf(t.app);
  const socket = connect({ host, port });
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`${head}Content-Length: 1000\r\n\r\n${partialBody}`);
  await sleep(100);
  socket.destroy();
}

/** Waits until the app has logged `count` lines, or the bound passes. */
async function logged(t: TestApp, count: number): Promise<Line[]> {
  for (let waited = 0; t.logs.lines.length < count && waited < 2000; waited += 20) await sleep(20);
  return lines(t);
}

describe.each(dialects)('what one request can make the server log (%s)', (dialect) => {
  test('when a client aborts its upload, then it is logged as the client going away, not as a store outage', async () => {
    const t = await build({ dialect });
    const a = await arrangePartner(t.services);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const before = t.logs.lines.length;

    await expectNoWrite(t.store, async () => {
      await abortUpload(
        t,
        `POST /access/v1/validate HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${a.headers.authorization}\r\n` +
          `X-Gym-Id: ${a.gym.id}\r\nContent-Type: application/json\r\n`,
        `{"platform_id":"${platformId()}",`,
      );
      await logged(t, before + 1);
    });

    await sleep(200); // room for a second line, should one come
    const written = lines(t).slice(before);
    expect(written.filter((line) => line.level !== 30)).toEqual([]);
    expect(written.map((line) => line.msg)).not.toContain('service temporarily unavailable');
    expect(written).toEqual([
      {
        level: 30,
        time: expect.any(Number) as unknown,
        pid: expect.any(Number) as unknown,
        hostname: expect.any(String) as unknown,
        reqId: expect.any(String) as unknown,
        method: 'POST',
        route: '/access/v1/validate',
        url: '/access/v1/validate',
        outcome: 'request.aborted',
        partner_id: a.partner.id,
        gym_id: a.gym.id,
        key_prefix: a.key.split('_', 2).join('_'),
        msg: 'request',
      },
    ]);
  });

  test('when a URL carries a query string, then the log line has the path and no query', async () => {
    const t = await build({ dialect });
    const before = t.logs.lines.length;

    const response = await t.app.inject({ method: 'GET', url: '/health?token=s3cr3t-t0ken&next=%2Fadmin' });

    expect(response.statusCode).toBe(200);
    const [line] = lines(t).slice(before);
    expect(line).toMatchObject({ route: '/health', url: '/health?[redacted]', status: 200, msg: 'request' });
    expect(t.logs.text()).not.toContain('s3cr3t-t0ken');
  });

  test('when a URL is 15 KB long, then its log line stays under 1 KB', async () => {
    const t = await build({ dialect });
    const before = t.logs.lines.length;
    const longPath = `/access/v1/${'x'.repeat(15_000)}`;

    const response = await t.app.inject({ method: 'GET', url: `${longPath}?q=${'y'.repeat(5000)}` });

    expect(response.statusCode).toBe(404);
    const written = t.logs.lines.slice(before);
    expect(written).toHaveLength(1);
    expect(Buffer.byteLength(written[0]!)).toBeLessThan(1024);
    expect(JSON.parse(written[0]!)).toMatchObject({
      route: 'unmatched',
      url: `${longPath.slice(0, 256)}…?[redacted]`,
      status: 404,
      outcome: 'route.not-found',
    });
  });
});
