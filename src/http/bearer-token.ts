import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { parseBearerToken } from '../domain/api-key.js';
import { InvalidTokenError, TokenRequiredError, type TokenKind } from '../domain/errors.js';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * An onRequest check of `Authorization: Bearer <token>` against one configured secret, compared in constant time
 * (digests of equal length, whatever was sent): 401 without a token, 403 with another one, naming whose token was
 * wanted.
 */
export function requireBearerToken(token: string, kind: TokenKind) {
  const expected = digest(token);
  return async (request: FastifyRequest): Promise<void> => {
    const given = parseBearerToken(request.headers.authorization);
    if (given === undefined) throw new TokenRequiredError();
    if (!timingSafeEqual(digest(given), expected)) throw new InvalidTokenError(kind);
  };
}
