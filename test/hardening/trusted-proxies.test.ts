import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { arrangePartner, platformId, type Arranged } from '../fixtures/factories.js';
import { CODE_NOT_FOUND, EXPLICIT_DENY, expectReply } from '../fixtures/partner-api.js';
import { build, dialects, type TestApp } from '../fixtures/test-app.js';
import { expectRateLimited, readCode, withToken } from '../fixtures/rate-limits.js';

const PROXY = '10.0.0.1';
const CLIENT = '203.0.113.7';
const OTHER_CLIENT = '203.0.113.8';

/** A token shaped like a real key that was never issued. */
function unknownKey(): string {
  return `ghk_${randomBytes(4).toString('hex')}_${randomBytes(20).toString('hex')}`;
}

/** An address a client made up for its own X-Forwarded-For: a new one on every request. */
function spoofed(): string {
  return `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
}

describe.each(dialects)('GATEHOUSE_TRUST_PROXY and the failed-authentication limit (%s)', (dialect) => {
  async function start(trustProxy: string): Promise<{ t: TestApp; a: Arranged }> {
    const t = await build({
      dialect,
      env: {
        GATEHOUSE_TRUST_PROXY: trustProxy,
        GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '3',
        GATEHOUSE_RATE_LIMIT_PER_SECOND: '0',
      },
    });
    return { t, a: await arrangePartner(t.services) };
  }
  /** A request that reached gatehouse from `remoteAddress` carrying this X-Forwarded-For. */
  const via = (remoteAddress: string, forwardedFor: string) => ({ remoteAddress, forwardedFor });
  function read(
    t: TestApp,
    headers: Record<string, string>,
    from: { remoteAddress: string; forwardedFor: string },
  ) {
    return readCode(t, { ...headers, 'x-forwarded-for': from.forwardedFor }, platformId(), {
      remoteAddress: from.remoteAddress,
    });
  }

  test('when it is one hop and a client writes a new address of its own in front of each refused key, then the address its proxy saw is limited, and another client of the proxy is served', async () => {
    const { t, a } = await start('1');

    for (let i = 0; i < 3; i += 1) {
      const refused = await read(t, withToken(a, unknownKey()), via(PROXY, `${spoofed()}, ${CLIENT}`));
      expectReply(refused, 403, EXPLICIT_DENY);
    }

    expectRateLimited(await read(t, a.headers, via(PROXY, `${spoofed()}, ${CLIENT}`)), 60);
    expectReply(await read(t, a.headers, via(PROXY, OTHER_CLIENT)), 404, CODE_NOT_FOUND);
  });

  test('when the proxies are named by CIDR and two of them forward in turn, then the address the outer one saw is limited, whatever the client wrote before it', async () => {
    const { t, a } = await start('10.0.0.0/8, 192.0.2.10');

    for (let i = 0; i < 3; i += 1) {
      const refused = await read(
        t,
        withToken(a, unknownKey()),
        via('10.0.0.2', `${spoofed()}, ${CLIENT}, 192.0.2.10`),
      );
      expectReply(refused, 403, EXPLICIT_DENY);
    }

    expectRateLimited(await read(t, a.headers, via('10.0.0.2', `${CLIENT}, 192.0.2.10`)), 60);
    expectReply(
      await read(t, a.headers, via('10.0.0.2', `${OTHER_CLIENT}, 192.0.2.10`)),
      404,
      CODE_NOT_FOUND,
    );
  });

  test('when a request comes straight from an address that is not a trusted proxy, then its X-Forwarded-For is ignored and its own address is limited', async () => {
    const { t, a } = await start(PROXY);

    for (let i = 0; i < 3; i += 1) {
      expectReply(await read(t, withToken(a, unknownKey()), via(CLIENT, spoofed())), 403, EXPLICIT_DENY);
    }

    expectRateLimited(await read(t, a.headers, via(CLIENT, spoofed())), 60);
    expectReply(await read(t, a.headers, via(PROXY, OTHER_CLIENT)), 404, CODE_NOT_FOUND);
  });

  test("when another client puts a victim's address in its own X-Forwarded-For, then the victim is not locked out", async () => {
    const { t, a } = await start('1');

    for (let i = 0; i < 3; i += 1) {
      const refused = await read(t, withToken(a, unknownKey()), via(PROXY, `${CLIENT}, ${OTHER_CLIENT}`));
      expectReply(refused, 403, EXPLICIT_DENY);
    }

    expectReply(await read(t, a.headers, via(PROXY, CLIENT)), 404, CODE_NOT_FOUND);
    expectRateLimited(await read(t, a.headers, via(PROXY, OTHER_CLIENT)), 60);
  });
});

describe('GATEHOUSE_TRUST_PROXY values', () => {
  const trustProxy = (value: string) => loadConfig({ GATEHOUSE_TRUST_PROXY: value }).trustProxy;

  test('when it is unset, false, a hop count or a list of addresses and ranges, then the config holds exactly that', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(trustProxy('false')).toBe(false);
    expect(trustProxy('2')).toBe(2);
    expect(trustProxy('10.0.0.0/8, 192.0.2.10,fd00::/8,loopback')).toEqual([
      '10.0.0.0/8',
      '192.0.2.10',
      'fd00::/8',
      'loopback',
    ]);
  });

  test('when it is true, then the process refuses to start and says what to give instead', () => {
    expect(() => trustProxy('true')).toThrow(
      new ConfigError(
        "GATEHOUSE_TRUST_PROXY: true would believe any client's X-Forwarded-For: give the number of proxies in front of gatehouse (e.g. 1) or their addresses",
      ),
    );
  });

  test('when an entry is neither an address nor a range, then the process refuses to start and names it', () => {
    expect(() => trustProxy('10.0.0.0/33, proxy.internal,10.0.0.1')).toThrow(
      new ConfigError(
        'GATEHOUSE_TRUST_PROXY: not a hop count, IP address or CIDR range: "10.0.0.0/33", "proxy.internal"',
      ),
    );
  });
});
