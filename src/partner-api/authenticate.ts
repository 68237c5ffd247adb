import type { FastifyRequest } from 'fastify';
import { parseBearerToken } from '../domain/api-key.js';
import type { Actor } from '../domain/audit.js';
import type { ApiKey } from '../domain/entities.js';
import { InputError, UnauthorizedError } from '../domain/errors.js';
import { parsePositiveInt } from '../domain/identifiers.js';
import type { ApiKeyService } from '../services/api-key-service.js';

export interface PartnerPrincipal {
  readonly key: ApiKey;
  readonly gymId: number;
  /** How the audit log names this caller: by the key's non-secret prefix. */
  readonly actor: Actor;
}

declare module 'fastify' {
  interface FastifyRequest {
    partner: PartnerPrincipal | null;
  }
}

/**
 * The partner API's onRequest hook: it runs before the body is read, in the order product.md §2.5 fixes —
 * Authorization (401, 403), then X-Gym-Id (400), then the gym's scope (403).
 */
export function authenticatePartner(apiKeys: ApiKeyService) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = parseBearerToken(request.headers.authorization);
    if (token === undefined) throw new UnauthorizedError();
    const key = await apiKeys.authenticate(token);
    const gymId = parsePositiveInt(request.headers['x-gym-id']);
    if (gymId === undefined) throw new InputError('X-Gym-Id', 'must be a positive integer');
    await apiKeys.authorizeGym(key, gymId);
    request.partner = { key, gymId, actor: { kind: 'key', prefix: key.prefix } };
  };
}

/** The principal the hook established: every partner route runs behind it. */
export function principalOf(request: FastifyRequest): PartnerPrincipal {
  if (request.partner === null) throw new Error('partner route reached without authentication');
  return request.partner;
}
