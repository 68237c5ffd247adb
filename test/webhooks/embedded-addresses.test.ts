import { beforeAll, describe, expect, test } from 'vitest';
import { dialects, useApp, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';
import { startWebhookApp, type Endpoint } from '../fixtures/webhook-app.js';

const REFUSED = errorEnvelope(
  'url',
  'must not point to a loopback, private, link-local or multicast address (GATEHOUSE_WEBHOOK_ALLOW_PRIVATE)',
);
/** Host names this resolver knows: each points at an IPv6 address carrying a private IPv4 address, or public. */
const names: Record<string, string[]> = {
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'sixtofour.example.com': ['2002:c0a8:101::1'],
  'relay.example.com': ['192.88.99.1'],
};

describe.each(dialects)('webhook URLs at IPv6 addresses carrying an IPv4 address (%s)', (dialect) => {
  let t: TestApp;
  const shared = useApp({
    start: () =>
      startWebhookApp({
        dialect,
        env: { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'false' },
        resolver: async (host) => names[host] ?? [],
        deliver: false,
      }),
  });
  beforeAll(async () => {
    t = shared();
  });

  test.each([
    'http://[::ffff:10.0.0.1]/in',
    'http://[::ffff:a9fe:a9fe]/latest/meta-data',
    'http://[::a00:1]/in',
    'http://[::8.8.8.8]/in',
    'http://[64:ff9b::127.0.0.1]:8080/in',
    'http://[64:ff9b:1::808:808]/in',
    'http://[2002:a00:1::1]/in',
    'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/in',
    'http://192.88.99.1/in',
    'http://mapped.example.com/in',
    'http://sixtofour.example.com/in',
    'http://relay.example.com/in',
  ])('when the URL is %s, then it is refused with key url and nothing is written', async (url) => {
    const n = await op.arrangeNetwork(t);
    const before = await op.wholeStore(t);

    expectReply(await op.admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, { url }), 400, REFUSED);
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when the URL is at an IPv6 address carrying a public IPv4 address, then it is registered', async () => {
    const n = await op.arrangeNetwork(t);
    const created = await op.admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, {
      url: 'https://[::ffff:93.184.216.34]/in',
    });

    expect(created.statusCode).toBe(201);
    expect((JSON.parse(created.body) as Endpoint).url).toBe('https://[::ffff:5db8:d822]/in');
  });
});
