import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import { RateLimitedError } from '../domain/errors.js';
import { authFailureBudget, registerRateCounters } from '../http/auth-failure-budget.js';

const SECOND_MS = 1000;

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
  await registerRateCounters(app, 'gatehouse-rate-', redis);
  const authFailures = authFailureBudget(app, config.authFailureLimitPerMinute, redis !== undefined);
  const perKey = app.createRateLimit({
    max: config.rateLimitPerSecond,
    timeWindow: SECOND_MS,
    keyGenerator: (request) => `key:${request.partner?.key.id ?? 'none'}`,
  });
  const keyLimited = config.rateLimitPerSecond > 0;

  return {
    assertAuthAllowed: (request) => authFailures.assertAllowed(request),
    recordAuthFailure: (request) => authFailures.recordFailure(request),
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
