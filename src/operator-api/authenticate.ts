import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { parseBearerToken } from '../domain/api-key.js';
import { AppError } from '../domain/errors.js';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * The operator API's onRequest hook (product.md §4): Bearer GATEHOUSE_ADMIN_TOKEN, compared in constant time.
 * Unset, the operator API refuses everything and says how to enable it. A partner key is just a wrong token.
 */
export function authenticateOperator(adminToken: string | undefined) {
  const expected = adminToken === undefined ? undefined : digest(adminToken);
  return async (request: FastifyRequest): Promise<void> => {
    if (expected === undefined) {
      throw new AppError(
        403,
        'authorization',
        'the operator API is disabled: set GATEHOUSE_ADMIN_TOKEN to enable it',
      );
    }
    const token = parseBearerToken(request.headers.authorization);
    if (token === undefined) throw new AppError(401, 'authorization', 'a bearer token is required');
    if (!timingSafeEqual(digest(token), expected))
      throw new AppError(403, 'authorization', 'invalid admin token');
  };
}
