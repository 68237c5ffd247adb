import type { FastifyRequest } from 'fastify';
import { AppError } from '../domain/errors.js';
import { requireBearerToken } from '../http/bearer-token.js';

/**
 * The operator API's onRequest hook: Bearer GATEHOUSE_ADMIN_TOKEN, compared in constant time. Unset, the operator
 * API refuses everything and says how to enable it. A partner key is just a wrong token.
 */
export function authenticateOperator(adminToken: string | undefined) {
  if (adminToken !== undefined) return requireBearerToken(adminToken, 'invalid admin token');
  return async (_request: FastifyRequest): Promise<void> => {
    throw new AppError(
      403,
      'authorization',
      'the operator API is disabled: set GATEHOUSE_ADMIN_TOKEN to enable it',
    );
  };
}
