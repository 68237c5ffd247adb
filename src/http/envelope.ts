/** The spec's wire envelopes (§2.3, §2.4, §7), built here and nowhere else. */

export interface ErrorEnvelope {
  metadata: { total: 0; errors: 1 };
  errors: { message: string; key: string }[];
  request_id?: string;
}

export function errorEnvelope(key: string, message: string, requestId?: string): ErrorEnvelope {
  const body: ErrorEnvelope = { metadata: { total: 0, errors: 1 }, errors: [{ message, key }] };
  if (requestId !== undefined) body.request_id = requestId;
  return body;
}

export const EXPLICIT_DENY = 'User is not authorized to access this resource with an explicit deny';

/** Product.md §2.5: the spec's 403 object (capitalised `Message`, no key) plus the gateway's top-level copy. */
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
