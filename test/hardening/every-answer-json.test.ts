import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects } from '../fixtures/test-app.js';
import { rawRequest, type RawResponse } from '../fixtures/raw-http.js';
import { expectNoWrite, useFaultApp } from '../fixtures/fault-app.js';
import { errorEnvelope, JSON_TYPE } from '../fixtures/wire-bodies.js';
import { VERSION } from '../../src/config/version.js';

const NOT_FOUND = errorEnvelope('route.not-found', 'no route matches this path');
const NO_HOST = errorEnvelope('request.malformed', 'the Host header is required');
const NOT_ALLOWED = errorEnvelope('route.method-not-allowed', 'method not allowed on this path');

/** Status, type and whole body of a raw answer in one value, so a failure shows all three. */
function answer(response: RawResponse) {
  return {
    status: response.status,
    type: response.headers['content-type'],
    body: JSON.parse(response.body) as unknown,
  };
}

describe.each(dialects)(
  'every answer is the JSON errorEnvelope, whatever reaches the socket (%s)',
  (dialect) => {
    const ctx = useFaultApp(dialect);

    test.each([
      '/docs/static/%2e%2e/%2e%2e/package.json',
      '/docs/static/%2e%2e%2f%2e%2e%2fpackage.json',
      '/docs/static/..%2f..%2fpackage.json',
      '/docs/static/../../package.json',
    ])(
      'when a docs asset path climbs out of its directory (%s), then 404 route.not-found, never a file',
      async (path) => {
        const { t } = ctx;
        await t.app.listen({ port: 0, host: '127.0.0.1' });

        const response = await rawRequest(
          t.app,
          `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
        );

        expect(answer(response)).toEqual({ status: 404, type: JSON_TYPE, body: NOT_FOUND });
      },
    );

    test('when an HTTP/1.1 request has no Host header, then 400 request.malformed in the errorEnvelope and nothing is written', async () => {
      const { t } = ctx;
      const a = await ctx.arrange();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const body = JSON.stringify({ custom_code: 'NO-HOST-1' });

      await expectNoWrite(t.store, async () => {
        const response = await rawRequest(
          t.app,
          `POST /access/v1/code/${platformId()} HTTP/1.1\r\nAuthorization: ${a.headers.authorization}\r\n` +
            `X-Gym-Id: ${a.gym.id}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
            `Connection: close\r\n\r\n${body}`,
        );
        expect(answer(response)).toEqual({ status: 400, type: JSON_TYPE, body: NO_HOST });
        expect(response.headers['x-request-id']).toMatch(/^\S+$/);
      });
    });

    test('when an HTTP/1.0 request has no Host header (it need not), then it is served', async () => {
      const { t } = ctx;
      await t.app.listen({ port: 0, host: '127.0.0.1' });

      const response = await rawRequest(t.app, 'GET /health HTTP/1.0\r\n\r\n');

      expect(answer(response)).toEqual({
        status: 200,
        type: JSON_TYPE,
        body: { status: 'ok', version: VERSION },
      });
    });

    test('when a client sends CONNECT, then 405 in the errorEnvelope and the connection is closed; the server keeps serving', async () => {
      const { t } = ctx;
      await t.app.listen({ port: 0, host: '127.0.0.1' });

      const response = await rawRequest(
        t.app,
        'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      );

      expect(answer(response)).toEqual({ status: 405, type: JSON_TYPE, body: NOT_ALLOWED });
      expect(response.headers.connection).toBe('close');
      const health = await rawRequest(
        t.app,
        'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      );
      expect(answer(health)).toEqual({
        status: 200,
        type: JSON_TYPE,
        body: { status: 'ok', version: VERSION },
      });
    });
  },
);
