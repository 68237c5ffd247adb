import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseBearerToken } from '../domain/api-key.js';
import type { Actor } from '../domain/audit.js';
import { gymFromKey, type CompatibilityProfile } from '../domain/compatibility.js';
import type { ApiKey } from '../domain/entities.js';
import { ForbiddenError, InputError, UnauthorizedError } from '../domain/errors.js';
import { parsePositiveInt } from '../domain/identifiers.js';
import type { ApiKeyService } from '../services/api-key-service.js';
import type { PartnerApiOptions } from './index.js';
import { createPartnerRateLimits, type PartnerRateLimits } from './rate-limits.js';

export interface PartnerPrincipal {
  readonly key: ApiKey;
  /** The partner's compatibility profile (docs/contract.md, "Compatibility profiles"). */
  readonly compatibility: CompatibilityProfile;
  readonly gymId: number;
  /** How the audit log names this caller: by the key's non-secret prefix. */
  readonly actor: Actor;
}

declare module 'fastify' {
  interface FastifyRequest {
    partner: PartnerPrincipal | null;
  }
  interface FastifyContextConfig {
    /** The route acts on no gym: X-Gym-Id may be left out (when sent, it is checked all the same). */
    gymOptional?: boolean;
  }
}

/** The principal's gymId on a route that acts on no gym, when the request named none. */
export const NO_GYM = 0;

/**
 * The partner API's onRequest hook: it runs before the body is read, in the documented order of checks
 * (docs/contract.md) — the failed-authentication limit (429), Authorization (401, 403), X-Gym-Id (400), the
 * gym's scope (403) — and then takes one request from the key's rate budget (429).
 */
/** Where a request names the gym it acts on, and the field a bad value is reported under. */
export interface GymSource {
  readonly field: string;
  read(request: FastifyRequest): string | string[] | undefined;
}

/** The partner API's: the X-Gym-Id header. */
export const GYM_HEADER: GymSource = { field: 'X-Gym-Id', read: (request) => request.headers['x-gym-id'] };

export function authenticatePartner(
  apiKeys: ApiKeyService,
  limits: PartnerRateLimits,
  gym: GymSource = GYM_HEADER,
) {
  // A refused key counts against the client address, so keys cannot be guessed at speed.
  const refused = async (request: FastifyRequest, error: unknown): Promise<never> => {
    if (error instanceof ForbiddenError) await limits.recordAuthFailure(request);
    throw error;
  };

  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await limits.assertAuthAllowed(request);
    const token = parseBearerToken(request.headers.authorization);
    if (token === undefined) throw new UnauthorizedError();
    const { key, compatibility } = await apiKeys
      .authenticate(token)
      .catch((error: unknown) => refused(request, error));
    const named = gym.read(request);
    const optional = named === undefined && request.routeOptions.config.gymOptional === true;
    const gymId = named === undefined ? gymFromKey(compatibility, key.gymIds) : parsePositiveInt(named);
    if (gymId === undefined && !optional) throw new InputError(gym.field, 'must be a positive integer');
    if (gymId !== undefined) {
      await apiKeys.authorizeGym(key, gymId).catch((error: unknown) => refused(request, error));
    }
    request.partner = {
      key,
      compatibility,
      gymId: gymId ?? NO_GYM,
      actor: { kind: 'key', prefix: key.prefix },
    };
    await limits.consumeKeyQuota(request, reply, key.id);
  };
}

/** The principal the hook established: every partner route runs behind it. */
export function principalOf(request: FastifyRequest): PartnerPrincipal {
  if (request.partner === null) throw new Error('partner route reached without authentication');
  return request.partner;
}

/**
 * Puts every route `app` registers behind the rate limits and the key, gym and scope checks: the partner API's
 * routes, and the sandbox helper's (which names the gym elsewhere: `gym`).
 */
export async function behindPartnerKeys(
  app: FastifyInstance,
  { services, config, redis }: PartnerApiOptions,
  gym?: GymSource,
): Promise<void> {
  app.decorateRequest('partner', null);
  const limits = await createPartnerRateLimits(app, config, redis);
  app.addHook('onRequest', authenticatePartner(services.apiKeys, limits, gym));
}
