/** The partner API's wire envelopes (success, error, explicit deny), built here and nowhere else. */

export interface ErrorEnvelope {
  metadata: { total: 0; errors: 1 };
  errors: { message: string; key: string; details?: object }[];
  request_id?: string;
}

export function errorEnvelope(
  key: string,
  message: string,
  requestId?: string,
  details?: object,
): ErrorEnvelope {
  const error = details === undefined ? { message, key } : { message, key, details };
  const body: ErrorEnvelope = { metadata: { total: 0, errors: 1 }, errors: [error] };
  if (requestId !== undefined) body.request_id = requestId;
  return body;
}

export const EXPLICIT_DENY = 'User is not authorized to access this resource with an explicit deny';

/**
 * The 403 of every refused key: an error object with a capitalised `Message` and no key, plus a top-level copy of
 * it, as partner clients written against the production gateway read it.
 */
export function explicitDenyBody() {
  return {
    metadata: { total: 0, errors: 1 },
    errors: [{ Message: EXPLICIT_DENY }],
    Message: EXPLICIT_DENY,
  } as const;
}

export function successEnvelope<T>(results: T, total = 1) {
  return { metadata: { total, errors: 0 }, results } as const;
}

export const UNEXPECTED_ERROR_MESSAGE = 'There was an unexpected internal server error';
