import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { createStore } from '../../src/store/create-store.js';
import { arrangePartner, platformId, type Arranged } from '../fixtures/factories.js';
import { captureLogs } from '../fixtures/log-capture.js';
import { CODE_NOT_FOUND, EXPLICIT_DENY, expectReply } from '../fixtures/partner-api.js';
import { dialects, startTestApp, type TestApp } from '../fixtures/test-app.js';
import { expectRateLimited, readCode, startKeyIdsAt, withToken } from '../fixtures/rate-limits.js';
import { requireService } from '../fixtures/required-services.js';

const REDIS_URL = process.env.GATEHOUSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const COUNTER_PREFIX = 'gatehouse-rate-';

async function probeRedis(): Promise<boolean> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
const redisAvailable = requireService('Redis', await probeRedis(), `no server answers at ${REDIS_URL}`);

test.skipIf(redisAvailable)(
  `SKIPPED: no Redis answers at ${REDIS_URL}; the shared rate-limit tests did not run`,
  () => {
    process.stderr.write(`\n\n*** Redis rate-limit tests SKIPPED: no server at ${REDIS_URL} ***\n\n`);
  },
);

/** A client address of the test's own: the failed-authentication counter in Redis outlives the run. */
function freshAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

describe.skipIf(!redisAvailable).each(dialects)(
  'limits shared by two processes through GATEHOUSE_REDIS_URL (%s)',
  (dialect) => {
    const opened: { close(): Promise<void> }[] = [];
    const counters: string[] = [];
    afterEach(async () => {
      for (const resource of opened.splice(0).reverse()) await resource.close();
      const redis = new Redis(REDIS_URL);
      if (counters.length > 0) await redis.del(...counters.splice(0));
      await redis.quit();
    });

    /** Two apps on one database and one Redis, as two processes behind a load balancer. */
    async function twoApps(env: Record<string, string>): Promise<[TestApp, App]> {
      const t = await startTestApp({ dialect, env: { GATEHOUSE_REDIS_URL: REDIS_URL, ...env } });
      opened.push(t);
      const store = createStore(t.config);
      const second = await buildApp({
        config: t.config,
        store,
        clock: t.clock,
        logger: captureLogs().logger,
      });
      opened.push({ close: async () => void (await second.server.close(), await store.close()) });
      // Key ids name the counters, and the Redis server outlives this run: ids of this test's own.
      await startKeyIdsAt(t.store, randomInt(1_000_000_000, 2_000_000_000));
      return [t, second];
    }

    function arrange(t: TestApp): Promise<Arranged> {
      return arrangePartner(t.services).then((a) => {
        counters.push(`${COUNTER_PREFIX}key:${a.keyId}`);
        return a;
      });
    }

    /**
     * The Redis connection is made in the background and a request meanwhile is let through uncounted (a limiter
     * must not slow the door down): wait, bounded, until each app's answers show a counted request.
     */
    async function untilCounting(apps: FastifyInstance[], warmUp: Arranged, address: string) {
      for (const server of apps) {
        let counted = false;
        for (let attempt = 0; attempt < 100 && !counted; attempt += 1) {
          const response = await readCode({ app: server }, warmUp.headers, platformId(), {
            remoteAddress: address,
          });
          counted = response.headers['ratelimit-remaining'] !== response.headers['ratelimit-limit'];
          if (!counted) await sleep(20);
        }
        expect(counted, 'the app counts in Redis').toBe(true);
      }
    }

    test("when a key's requests are split across two apps, then they share the key's limit: the 6th of a second gets 429 on either app, and another partner's key is served", async () => {
      const [t, second] = await twoApps({
        GATEHOUSE_RATE_LIMIT_PER_SECOND: '5',
        GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
      });
      const address = freshAddress();
      const [a, b, warmUp] = [await arrange(t), await arrange(t), await arrange(t)];
      await untilCounting([t.app, second.server], warmUp, address);
      const on = (app: FastifyInstance, who: Arranged) =>
        readCode({ app }, who.headers, platformId(), { remoteAddress: address });
      const [first, other] = [t.app, second.server];

      const started = performance.now();
      const served = [await on(first, a), await on(other, a), await on(first, a)];
      served.push(await on(other, a), await on(first, a));
      const sixth = await on(other, a);
      const seventh = await on(first, a);
      const partnerB = [await on(first, b), await on(other, b)];
      expect(performance.now() - started, 'the burst fits in one window').toBeLessThan(1000);

      for (const response of served) expectReply(response, 404, CODE_NOT_FOUND);
      expectRateLimited(sixth, 1);
      expectRateLimited(seventh, 1);
      expect(sixth.headers['ratelimit-limit']).toBe('5');
      expect(sixth.headers['ratelimit-remaining']).toBe('0');
      for (const response of partnerB) expectReply(response, 404, CODE_NOT_FOUND);
    });

    test('when refused keys from one address are split across two apps, then they share its failed-authentication limit', async () => {
      const [t, second] = await twoApps({
        // High enough never to refuse here; on, so that its headers show when each app counts in Redis.
        GATEHOUSE_RATE_LIMIT_PER_SECOND: '1000',
        GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '3',
      });
      const address = freshAddress();
      counters.push(`${COUNTER_PREFIX}auth-failure:${address}`);
      const [a, warmUp] = [await arrange(t), await arrange(t)];
      await untilCounting([t.app, second.server], warmUp, freshAddress());
      const bad = () =>
        withToken(a, `ghk_${randomBytes(4).toString('hex')}_${randomBytes(20).toString('hex')}`);
      const apps = [t.app, second.server, t.app];
      for (const app of apps) {
        const refused = await readCode({ app }, bad(), platformId(), { remoteAddress: address });
        expectReply(refused, 403, EXPLICIT_DENY);
      }
      for (const app of [t.app, second.server]) {
        expectRateLimited(await readCode({ app }, a.headers, platformId(), { remoteAddress: address }), 60);
      }
      const elsewhere = await readCode({ app: second.server }, a.headers, platformId(), {
        remoteAddress: freshAddress(),
      });
      expectReply(elsewhere, 404, CODE_NOT_FOUND);
    });
  },
);
