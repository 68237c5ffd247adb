import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import {
  authFailureBudget,
  registerRateCounters,
  type AuthFailureBudget,
} from '../http/auth-failure-budget.js';

/** Counts a refused token (403) against the client address; before authentication, refuses a spent budget. */
export type AuthFailureLimit = AuthFailureBudget;

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
  await registerRateCounters(app, 'gatehouse-operator-', redis);
  return authFailureBudget(app, limitPerMinute, redis !== undefined);
}
