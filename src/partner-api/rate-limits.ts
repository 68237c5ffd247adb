import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import { RateLimitedError } from '../domain/errors.js';
import { failureWindow } from '../http/failure-window.js';

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;

export interface PartnerRateLimits {
  /** Before authentication: a client address over its failed-authentication budget gets 429. */
  assertAuthAllowed(request: FastifyRequest): Promise<void>;
  /** Counts a failed authentication (401, 403) against the client address. */
  recordAuthFailure(request: FastifyRequest): Promise<void>;
  /** After authentication: consumes one request of the key's budget, with RateLimit headers; 429 when spent. */
  consumeKeyQuota(request: FastifyRequest, reply: FastifyReply, keyId: number): Promise<void>;
}

/**
 * A Redis connection for the counters, tuned to fail fast: a rate limiter must never slow the door down. The
 * client is loaded only when Redis is configured (it is about 10 MiB of resident memory otherwise spent for nothing).
 */
export async function connectRateLimitRedis(url: string): Promise<Redis> {
  const { Redis: RedisClient } = await import('ioredis');
  return new RedisClient(url, { connectTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false });
}

/**
 * Per-key and failed-authentication limits (docs/contract.md, rate limits), counted by @fastify/rate-limit in
 * memory or, with GATEHOUSE_REDIS_URL, in Redis so the limits hold across processes. A store error lets the
 * request through.
 */
export async function createPartnerRateLimits(
  app: FastifyInstance,
  config: Pick<Config, 'rateLimitPerSecond' | 'authFailureLimitPerMinute'>,
  redis: Redis | undefined,
): Promise<PartnerRateLimits> {
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    nameSpace: 'gatehouse-rate-',
    ...(redis === undefined ? {} : { redis }),
  });
  const failures = app.createRateLimit({
    max: config.authFailureLimitPerMinute,
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `auth-failure:${request.ip}`,
  });
  const perKey = app.createRateLimit({
    max: config.rateLimitPerSecond,
    timeWindow: SECOND_MS,
    keyGenerator: (request) => `key:${request.partner?.key.id ?? 'none'}`,
  });
  const authLimited = config.authFailureLimitPerMinute > 0;
  const keyLimited = config.rateLimitPerSecond > 0;
  const window = failureWindow(MINUTE_MS, redis !== undefined);

  return {
    async assertAuthAllowed(request) {
      if (!authLimited || !window.mayBeOpen()) return;
      const status = await failures(request, { increment: false });
      // A read counts nothing: the address is refused once its failures have reached the limit, not passed it.
      if (!status.isAllowed && status.remaining === 0) throw new RateLimitedError(status.ttlInSeconds);
    },
    async recordAuthFailure(request) {
      if (!authLimited) return;
      window.counted();
      await failures(request);
    },
    async consumeKeyQuota(request, reply, keyId) {
      if (!keyLimited) return;
      const status = await perKey(request);
      if (status.isAllowed) return;
      reply.header('ratelimit-limit', status.max);
      reply.header('ratelimit-remaining', status.remaining);
      reply.header('ratelimit-reset', status.ttlInSeconds);
      if (status.isExceeded) {
        request.log.info({ keyId }, 'rate limited');
        throw new RateLimitedError(status.ttlInSeconds);
      }
    },
  };
}
