import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimitedError } from '../domain/errors.js';
import { failureWindow } from '../http/failure-window.js';

const MINUTE_MS = 60_000;

export interface AuthFailureLimit {
  /** Before authentication: an address that has spent its failed-authentication budget gets 429. */
  assertAllowed(request: FastifyRequest): Promise<void>;
  /** Counts a refused token (403) against the client address. */
  recordFailure(request: FastifyRequest): Promise<void>;
}

/**
 * Failed operator authentications per client address and minute (GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE, as for
 * partner keys, counted apart from them), in memory or in Redis when configured; 0 turns it off. A correct token
 * from another address is never affected.
 */
export async function createAuthFailureLimit(
  app: FastifyInstance,
  limitPerMinute: number,
  redis: Redis | undefined,
): Promise<AuthFailureLimit> {
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    nameSpace: 'gatehouse-operator-',
    ...(redis === undefined ? {} : { redis }),
  });
  const failures = app.createRateLimit({
    max: limitPerMinute,
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `auth-failure:${request.ip}`,
  });
  const limited = limitPerMinute > 0;
  const window = failureWindow(MINUTE_MS, redis !== undefined);
  return {
    async assertAllowed(request) {
      if (!limited || !window.mayBeOpen()) return;
      const status = await failures(request, { increment: false });
      if (!status.isAllowed && status.remaining === 0) throw new RateLimitedError(status.ttlInSeconds);
    },
    async recordFailure(request) {
      if (!limited) return;
      window.counted();
      await failures(request);
    },
  };
}
