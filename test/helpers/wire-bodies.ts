/**
 * Every body the tests expect gatehouse to answer with, defined once and written out here rather than imported
 * from src, so that a change to the wire format fails a test instead of following along silently.
 */

/** The content type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** The error envelope: the first problem found, by key and message. */
export function errorEnvelope(key: string, message: string) {
  return { metadata: { total: 0, errors: 1 }, errors: [{ message, key }] };
}

/** The 403 of every key that may not act on the gym: capitalised `Message`, no key, and a top-level copy. */
export const DENY_MESSAGE = 'User is not authorized to access this resource with an explicit deny';
export const EXPLICIT_DENY = {
  metadata: { total: 0, errors: 1 },
  errors: [{ Message: DENY_MESSAGE }],
  Message: DENY_MESSAGE,
};
/** The 401 without a bearer token. */
export const UNAUTHORIZED = { message: 'Unauthorized' };
/** A success with nothing to say (a code created or replaced). */
export const EMPTY_SUCCESS = { metadata: { total: 1, errors: 0 }, results: {} };

export const PLATFORM_ID_ERROR = errorEnvelope('platform_id', 'must be a string of 13 digits');
export const CODE_LENGTH_ERROR = errorEnvelope('custom_code', 'length must be between 1 and 13 characters');
export const GYM_ID_ERROR = errorEnvelope('X-Gym-Id', 'must be a positive integer');
export const UNSUPPORTED_MEDIA_TYPE = errorEnvelope(
  'request.unsupported-media-type',
  'Content-Type must be application/json',
);
export const NOT_FOUND_CHECKIN = errorEnvelope(
  'checkin.validation.notfound',
  'Check-In not found in database',
);
export const CANCELLED = errorEnvelope('checkin.validation.cancelled', 'Check-In cancelled');
export const EXPIRED = errorEnvelope('checkin.validation.expired', 'Check-In expired');
export const ALREADY_VALIDATED = errorEnvelope('checkin.already.validated', 'Check-In already validated');
export const CODE_NOT_FOUND = errorEnvelope(
  'checkin.custom-code.not-found',
  'Custom code not found in database',
);
export const CODE_EXISTS = errorEnvelope(
  'checkin.custom-code.already-exists',
  'Already exists a custom code for that gym and user',
);
export const RATE_LIMITED = errorEnvelope('rate.limited', 'too many requests');
export const SERVICE_UNAVAILABLE = errorEnvelope('service.unavailable', 'service temporarily unavailable');

/** The body validate answers 200 with, for a gym and product. */
export function validationBody(
  gym: { id: number },
  product: { id: number; description: string },
  user: Record<string, string>,
  validatedAt: string,
) {
  return {
    metadata: { total: 1, errors: 0 },
    results: {
      user,
      gym: { Id: gym.id, product: { Id: product.id, description: product.description } },
      validated_at: validatedAt,
    },
  };
}

/** An instant in the wire form of validated_at: UTC, second precision. */
export function secondsOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19) + 'Z';
}
