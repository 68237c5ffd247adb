import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSender, type SendRequest } from '../../src/services/webhooks/sender.js';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const BODY = JSON.stringify({ type: 'checkin.validated', data: { member: 'Zoë Ødegård' } });

interface Received {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly socket: Socket;
}

/** A loopback receiver whose answer each test chooses by the request's path. */
function startReceiver(answer: (path: string, response: ServerResponse) => void) {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        socket: request.socket,
      });
      answer(new URL(request.url ?? '/', 'http://x').pathname, response);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise<{ url: string; received: Received[]; close(): Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        received,
        close: () => {
          sockets.forEach((socket) => socket.destroy());
          return new Promise((done) => server.close(() => done()));
        },
      });
    }),
  );
}

describe('the webhook sender, against real loopback receivers', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const sender = createSender(async (host) => {
    if (host === 'receiver.test') return ['127.0.0.1'];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  }, true);
  const stopping = new AbortController();
  const request = (path: string, extra: Partial<SendRequest> = {}): SendRequest => ({
    url: `${receiver.url}${path}`,
    headers: {},
    body: BODY,
    timeoutMs: 2000,
    signal: stopping.signal,
    ...extra,
  });

  beforeAll(async () => {
    receiver = await startReceiver((path, response) => {
      if (path === '/ok') {
        response.writeHead(200, { 'retry-after': '120', 'content-type': 'text/plain' });
        response.end('received, thanks — all of it');
      } else if (path === '/twice') {
        // Two Retry-After lines: the first is the answer's.
        response.setHeader('retry-after', ['30', '90']);
        response.writeHead(503);
        response.end();
      } else if (path === '/moved') {
        response.writeHead(302, { location: '/ok' });
        response.end();
      } else if (path === '/reset') {
        response.socket?.destroy();
      } else if (path === '/cut') {
        response.writeHead(200, { 'content-length': '100' });
        response.write('only part of it');
        setTimeout(() => response.socket?.destroy(), 20);
      } else if (path === '/silent') {
        // Never answers: the attempt's own timeout ends it.
      } else if (path === '/slow-body') {
        response.writeHead(200, { 'content-length': '10' });
        response.write('12345');
      } else {
        response.writeHead(404);
        response.end();
      }
    });
  });
  afterAll(async () => {
    sender.close();
    await receiver.close();
  });

  test('POSTs the body byte for byte with its Standard Webhooks signature, and answers the status, Retry-After and the excerpt asked for', async () => {
    const result = await sender.send(
      request('/ok?source=test', {
        headers: { 'x-extra': 'yes' },
        signing: { secrets: [SECRET], id: 'evt_1', timestampSeconds: Math.floor(Date.now() / 1000) },
        excerptBytes: 8,
      }),
    );
    expect(result).toEqual({ kind: 'answer', statusCode: 200, retryAfter: '120', excerpt: 'received' });
    const got = receiver.received.at(-1);
    expect(got?.method).toBe('POST');
    expect(got?.url).toBe('/ok?source=test');
    expect(got?.body).toBe(BODY);
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.headers['content-length']).toBe(String(Buffer.byteLength(BODY)));
    expect(got?.headers['user-agent']).toBe('gatehouse-webhooks');
    expect(got?.headers['x-extra']).toBe('yes');
    expect(got?.headers['webhook-id']).toBe('evt_1');
    const verified = new Webhook(SECRET).verify(got?.body ?? '', {
      'webhook-id': String(got?.headers['webhook-id']),
      'webhook-timestamp': String(got?.headers['webhook-timestamp']),
      'webhook-signature': String(got?.headers['webhook-signature']),
    });
    expect(verified).toEqual(JSON.parse(BODY));
  });

  test('keeps connections for the next attempts to the same origin, and reads no excerpt unless asked', async () => {
    const before = receiver.received.length;
    const results = [];
    for (let n = 0; n < 6; n++) results.push(await sender.send(request('/ok')));
    expect(results).toEqual(
      Array.from({ length: 6 }, () => ({ kind: 'answer', statusCode: 200, retryAfter: '120' })),
    );
    const sockets = new Set(receiver.received.slice(before).map((got) => got.socket));
    // One after another, six attempts need no more than two connections: each is kept for the next.
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  test('a Retry-After given twice is read as its first value', async () => {
    expect(await sender.send(request('/twice'))).toEqual({
      kind: 'answer',
      statusCode: 503,
      retryAfter: '30',
    });
  });

  test('an attempt cut short before the HTTP client has loaded sends nothing and says why', async () => {
    const fresh = createSender(async () => ['127.0.0.1'], true);
    const before = receiver.received.length;
    const results: unknown[] = [];
    // The client loads in the background when the sender is made: this attempt is asked, and cut, before then.
    const cutShort = fresh.start(request('/ok'), (result) => results.push(result));
    cutShort('sending stopped');
    expect(await fresh.send(request('/ok'))).toEqual({ kind: 'answer', statusCode: 200, retryAfter: '120' });
    expect(results).toEqual([{ kind: 'no-answer', error: 'sending stopped' }]);
    expect(receiver.received.slice(before).map((got) => got.url)).toEqual(['/ok']);
    fresh.close();
  });

  test('does not follow a redirect: the 302 is the answer', async () => {
    const before = receiver.received.length;
    expect(await sender.send(request('/moved'))).toEqual({ kind: 'answer', statusCode: 302 });
    expect(receiver.received.length).toBe(before + 1);
  });

  test('names each way an attempt gets no answer', async () => {
    expect(await sender.send(request('/reset'))).toEqual({ kind: 'no-answer', error: 'connection reset' });
    expect(await sender.send(request('/cut'))).toEqual({ kind: 'no-answer', error: 'answer cut short' });
    expect(await sender.send(request('/silent', { timeoutMs: 150 }))).toEqual({
      kind: 'no-answer',
      error: 'timed out after 150 ms',
    });
    // The whole answer, body included, has to come within the timeout.
    expect(await sender.send(request('/slow-body', { timeoutMs: 150 }))).toEqual({
      kind: 'no-answer',
      error: 'timed out after 150 ms',
    });
  });

  test('dials only what the resolver allows, and says so when a name does not resolve or nothing listens', async () => {
    const port = new URL(receiver.url).port;
    const byName = await sender.send(request('/ok', { url: `http://receiver.test:${port}/ok` }));
    expect(byName).toEqual({ kind: 'answer', statusCode: 200, retryAfter: '120' });
    expect(receiver.received.at(-1)?.headers.host).toBe(`receiver.test:${port}`);
    expect(await sender.send(request('/ok', { url: `http://nowhere.test:${port}/ok` }))).toEqual({
      kind: 'no-answer',
      error: 'host name does not resolve',
    });
    const closed = await startReceiver(() => undefined);
    const refusedUrl = `${closed.url}/ok`;
    await closed.close();
    expect(await sender.send(request('/ok', { url: refusedUrl }))).toEqual({
      kind: 'no-answer',
      error: 'connection refused',
    });
  });

  test('refuses private addresses, literal or resolved, unless they are allowed', async () => {
    const guarded = createSender(async () => ['127.0.0.1'], false);
    const before = receiver.received.length;
    const blocked = {
      kind: 'no-answer',
      error: 'address not allowed for webhooks (GATEHOUSE_WEBHOOK_ALLOW_PRIVATE)',
    };
    expect(await guarded.send(request('/ok'))).toEqual(blocked);
    const port = new URL(receiver.url).port;
    expect(await guarded.send(request('/ok', { url: `http://receiver.test:${port}/ok` }))).toEqual(blocked);
    expect(receiver.received.length).toBe(before);
    guarded.close();
  });

  test('an attempt in flight when the sender is asked to stop ends then, not at its timeout', async () => {
    const stop = new AbortController();
    const before = receiver.received.length;
    const pending = sender.send(request('/silent', { timeoutMs: 30_000, signal: stop.signal }));
    while (receiver.received.length === before) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    expect(await pending).toEqual({ kind: 'no-answer', error: 'sending stopped' });
    const already = await sender.send(request('/ok', { signal: stop.signal }));
    expect(already).toEqual({ kind: 'no-answer', error: 'sending stopped' });
    expect(receiver.received.length).toBe(before + 1);
  });
});
