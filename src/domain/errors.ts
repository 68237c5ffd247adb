import type { StreamQuota } from './event-streams.js';
import type { Role } from './operator.js';

/**
 * Typed errors: each carries the HTTP status, its stable key and its message. Services throw them; the one error
 * mapper (src/http/error-mapper.ts) turns them into the envelope. Nothing else writes an error body.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** What the refusal is about, beside its key and message (a plan's rule, the count used): the envelope shows it. */
  readonly details?: object;
}

export class InputError extends AppError {
  constructor(key: string, message: string) {
    super(400, key, message);
  }
}

export class NotFoundError extends AppError {
  constructor(key: string, message: string) {
    super(404, key, message);
  }
}

export class ConflictError extends AppError {
  constructor(key: string, message: string) {
    super(409, key, message);
  }
}

export class CheckinNotFoundError extends NotFoundError {
  constructor() {
    super('checkin.validation.notfound', 'Check-In not found in database');
  }
}

export class CheckinCancelledError extends InputError {
  constructor() {
    super('checkin.validation.cancelled', 'Check-In cancelled');
  }
}

/** The cancelled refusal as Wellhub's legacy sandbox spells it, for a partner whose profile asks for it. */
export class CheckinCanceledError extends InputError {
  constructor() {
    super('checkin.validation.canceled', 'Check-In canceled');
  }
}

export class CheckinExpiredError extends InputError {
  constructor() {
    super('checkin.validation.expired', 'Check-In expired');
  }
}

export class CheckinAlreadyValidatedError extends InputError {
  constructor() {
    super('checkin.already.validated', 'Check-In already validated');
  }
}

/** The validated-check-in 409 of the operator side shares the partner API's key. */
export class CheckinValidatedConflictError extends ConflictError {
  constructor() {
    super('checkin.already.validated', 'Check-In already validated');
  }
}

export class CustomCodeExistsError extends ConflictError {
  constructor() {
    super('checkin.custom-code.already-exists', 'Already exists a custom code for that gym and user');
  }
}

export class CustomCodeNotFoundError extends NotFoundError {
  constructor() {
    super('checkin.custom-code.not-found', 'Custom code not found in database');
  }
}

export class DailyLimitError extends ConflictError {
  constructor() {
    super('checkin.daily-limit', 'daily visit limit reached for this member at this gym');
  }
}

/** `gym.retired`, `product.retired`: no new check-ins for what the operator retired. */
export class RetiredError extends ConflictError {
  constructor(entity: 'gym' | 'product') {
    super(`${entity}.retired`, `${entity} is retired: it takes no new check-ins`);
  }
}

/**
 * A partner at its quota of webhook endpoints. Disabled endpoints count (they can be enabled again); removed ones
 * do not.
 */
export class WebhookLimitError extends ConflictError {
  constructor(readonly limit: number) {
    super(
      'webhook.limit',
      `a partner may have at most ${limit} webhook endpoint${limit === 1 ? '' : 's'}, disabled ones included: remove one before adding another`,
    );
  }
}

/** 429 `stream.limit`: one more event stream would pass a quota (README, "The event streams"). */
export class StreamLimitError extends AppError {
  constructor(
    readonly quota: StreamQuota,
    readonly limit: number,
  ) {
    const streams = `${limit} event stream${limit === 1 ? '' : 's'}`;
    const whose = quota === 'event_streams_per_key_gym' ? 'key and gym' : 'operator token';
    super(
      429,
      'stream.limit',
      quota === 'event_streams_per_process'
        ? `this server has its ${streams} open: try again later`
        : `at most ${streams} may be open per ${whose}: close one before opening another`,
    );
  }
}

/** `partner.not-found`, `gym.not-found`, … (the operator API's). */
export class EntityNotFoundError extends NotFoundError {
  constructor(entity: string) {
    super(`${entity}.not-found`, `${entity.replace('-', ' ')} not found`);
  }
}

export class EntityExistsError extends ConflictError {
  constructor(entity: string) {
    super(`${entity}.already-exists`, `${entity.replace('-', ' ')} already exists`);
  }
}

/** The store cannot be reached or is busy beyond its timeout: 503 with Retry-After. */
export class ServiceUnavailableError extends AppError {
  constructor() {
    super(503, 'service.unavailable', 'service temporarily unavailable');
  }
}

/** 429 with Retry-After (seconds until the window resets). */
export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate.limited', 'too many requests');
  }
}

/** Why a key was refused: for the operator's log only, never the client's answer. */
export type RefusalReason =
  | 'unknown-key'
  | 'revoked-key'
  | 'expired-key'
  | 'unknown-gym'
  | 'other-partner-gym'
  | 'out-of-scope-gym'
  /** A live key on a sandbox route: the sandbox is for sandbox partners' keys only. */
  | 'live-key';

/**
 * Every refused key gets this one body, so a key cannot probe which gyms exist. The reason and the key's prefix
 * ride along for the request log.
 */
export class ForbiddenError extends AppError {
  constructor(
    readonly reason?: RefusalReason,
    readonly keyPrefix?: string,
  ) {
    super(403, 'forbidden', 'User is not authorized to access this resource with an explicit deny');
  }
}

export class UnauthorizedError extends AppError {
  constructor() {
    super(401, 'unauthorized', 'Unauthorized');
  }
}

/**
 * `authorization`: the refusals of the operator API and of /metrics, in the envelope (the partner API's refusals
 * are the two above, in the spec's own shapes).
 */
export class AuthorizationError extends AppError {
  constructor(statusCode: 401 | 403, message: string) {
    super(statusCode, 'authorization', message);
  }
}

/** 401: no `Authorization: Bearer <token>` at all. */
export class TokenRequiredError extends AuthorizationError {
  constructor() {
    super(401, 'a bearer token is required');
  }
}

/** Whose bearer token was wanted: the operator API's (an admin token or an operator's), or /metrics'. */
export type TokenKind = 'admin' | 'metrics';

/** 403: a bearer token that is not one of those wanted. */
export class InvalidTokenError extends AuthorizationError {
  constructor(kind: TokenKind) {
    super(403, `invalid ${kind} token`);
  }
}

/** 403 to everything while the operator API has neither an admin token nor a live operator. */
export class OperatorApiDisabledError extends AuthorizationError {
  constructor() {
    super(
      403,
      'the operator API is disabled: set GATEHOUSE_ADMIN_TOKEN or create an operator (gatehouse operator create) to enable it',
    );
  }
}

/** 403 naming the caller's role and what it may not do (`call this route`, `grant the admin role`, …). */
export class RoleForbiddenError extends AuthorizationError {
  constructor(role: Role, action: string) {
    super(403, `the ${role} role may not ${action}`);
  }
}
