import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { parseBearerToken } from '../domain/api-key.js';
import { InvalidTokenError, OperatorApiDisabledError, TokenRequiredError } from '../domain/errors.js';
import type { OperatorPrincipal } from '../domain/operator.js';
import { actorOf, BOOTSTRAP_ADMIN, type OperatorService } from '../services/operator-service.js';
import type { AuthFailureLimit } from './auth-failure-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who called the operator API, and with which role: set by authenticateOperator. */
    operatorPrincipal: OperatorPrincipal | null;
  }
}

function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

/**
 * The operator API's onRequest hook. The caller is one of the environment's admin tokens (GATEHOUSE_ADMIN_TOKEN,
 * comma-separated so it can be rotated without downtime: each compared in constant time) or an operator's `gho_`
 * token (looked up by its hash on every request, so a revocation holds from the next request in every process).
 * With neither an admin token nor a live operator, the API refuses everything and says how to enable it. A refused
 * token counts against the client address; once it has spent its budget, the address gets 429.
 */
export function authenticateOperator(
  adminTokens: readonly string[],
  operators: OperatorService,
  limit: AuthFailureLimit,
) {
  const expected = adminTokens.map(digest);
  const isAdminToken = (token: string) => {
    const given = digest(token);
    // Every configured token is compared, whichever matches: the time taken never says which one did.
    return expected.reduce((found, candidate) => timingSafeEqual(given, candidate) || found, false);
  };

  return async (request: FastifyRequest): Promise<void> => {
    if (expected.length === 0 && !(await operators.anyLive())) {
      throw new OperatorApiDisabledError();
    }
    await limit.assertAllowed(request);
    const token = parseBearerToken(request.headers.authorization);
    if (token === undefined) throw new TokenRequiredError();
    if (isAdminToken(token)) {
      request.operatorPrincipal = BOOTSTRAP_ADMIN;
      return;
    }
    const operator = await operators.authenticate(token);
    if (operator === undefined) {
      await limit.recordFailure(request);
      throw new InvalidTokenError('admin');
    }
    request.operatorPrincipal = { role: operator.role, operator };
  };
}

/** The principal the hook established: every operator route runs behind it. */
export function principalOf(request: FastifyRequest): OperatorPrincipal {
  if (request.operatorPrincipal === null) throw new Error('operator route reached without authentication');
  return request.operatorPrincipal;
}

/** How the audit log names the caller: `operator` for the environment's tokens, `operator:<name>` otherwise. */
export function actorOfRequest(request: FastifyRequest) {
  return actorOf(principalOf(request));
}
