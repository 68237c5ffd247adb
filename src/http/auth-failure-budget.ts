import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { given } from '../domain/given.js';
import { RateLimitedError } from '../domain/errors.js';
import { failureWindow } from './failure-window.js';

const MINUTE_MS = 60_000;

export interface AuthFailureBudget {
  /** Before authentication: an address that has spent its failed-authentication budget gets 429. */
  assertAllowed(request: FastifyRequest): Promise<void>;
  /** Counts a refused credential against the client address. */
  recordFailure(request: FastifyRequest): Promise<void>;
}

/**
 * Registers @fastify/rate-limit's counters for one API (`nameSpace` keeps them apart from the other's), in Redis
 * when given, else in memory. No route is limited globally: each API asks for its counts. A store error lets the
 * request through.
 */
export async function registerRateCounters(
  app: FastifyInstance,
  nameSpace: string,
  redis: Redis | undefined,
): Promise<void> {
  await app.register(rateLimit, { global: false, skipOnError: true, nameSpace, ...given({ redis }) });
}

/**
 * Failed authentications per client address and minute, `limitPerMinute` of them (0: no limit), counted by the
 * @fastify/rate-limit the API registered on `app` (in Redis when `shared`, so across processes). Both APIs refuse
 * a spent budget alike; each counts its own.
 */
export function authFailureBudget(
  app: FastifyInstance,
  limitPerMinute: number,
  shared: boolean,
): AuthFailureBudget {
  const failures = app.createRateLimit({
    max: limitPerMinute,
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `auth-failure:${request.ip}`,
  });
  const limited = limitPerMinute > 0;
  const window = failureWindow(MINUTE_MS, shared);
  return {
    async assertAllowed(request) {
      if (!limited || !window.mayBeOpen()) return;
      const status = await failures(request, { increment: false });
      // A read counts nothing: the address is refused once its failures have reached the limit, not passed it.
      if (!status.isAllowed && status.remaining === 0) throw new RateLimitedError(status.ttlInSeconds);
    },
    async recordFailure(request) {
      if (!limited) return;
      window.counted();
      await failures(request);
    },
  };
}
