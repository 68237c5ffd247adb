import type { ErrorEnvelope, ExplicitDenyBody, UnauthorizedBody } from './types.js';

/** The keys the partner API documents; any other key the server sends is passed through as is. */
export type GatehouseErrorKey =
  | 'checkin.validation.notfound'
  | 'checkin.validation.cancelled'
  | 'checkin.validation.expired'
  | 'checkin.already.validated'
  | 'checkin.validation.unexpected-error'
  | 'custom_code'
  | 'checkin.custom-code.already-exists'
  | 'checkin.custom-code.not-found'
  | 'checkin.custom-code.unexpected-error'
  | 'platform_id'
  | 'X-Gym-Id'
  | 'body'
  | 'rate.limited'
  | 'service.unavailable'
  /** The 403 explicit deny, whose body has `Message` and no key. */
  | 'forbidden'
  /** The 401 `{"message":"Unauthorized"}`: no bearer token. */
  | 'unauthorized'
  /** A body that is none of the service's shapes (a proxy's error page, say). */
  | 'unexpected-response'
  | (string & {});

/** The service answered with an error: its HTTP status, `key` and `message`. */
export class GatehouseError extends Error {
  override readonly name = 'GatehouseError';

  constructor(
    readonly status: number,
    readonly key: GatehouseErrorKey,
    message: string,
    /** The parsed body, or the raw text when it was not JSON. */
    readonly body: unknown,
    /** X-Request-Id of the answer: quote it to the operator. */
    readonly requestId: string | undefined,
  ) {
    super(message);
  }
}

/**
 * No answer came back (a timeout or a network failure), so whether the request took effect is unknown. For
 * validate that means the check-in may or may not have been validated: see the `retry` option.
 */
export class OutcomeUnknownError extends Error {
  override readonly name = 'OutcomeUnknownError';

  constructor(
    readonly reason: 'timeout' | 'network',
    /** How many times the request was sent. */
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(
      reason === 'timeout'
        ? `no answer within the timeout after ${attempts} attempt(s): the outcome is unknown`
        : `network failure after ${attempts} attempt(s): the outcome is unknown`,
      options,
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function envelopeError(body: unknown): { key: string; message: string } | undefined {
  if (!isRecord(body) || !Array.isArray(body.errors)) return undefined;
  const first: unknown = (body as Partial<ErrorEnvelope>).errors?.[0];
  if (isRecord(first) && typeof first.key === 'string' && typeof first.message === 'string') {
    return { key: first.key, message: first.message };
  }
  return undefined;
}

function denyMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const deny = body as Partial<ExplicitDenyBody>;
  const first: unknown = deny.errors?.[0];
  if (isRecord(first) && typeof first.Message === 'string') return first.Message;
  return typeof deny.Message === 'string' ? deny.Message : undefined;
}

/** Reads an error answer into a GatehouseError, whichever of the service's three error shapes it has. */
export function errorFromAnswer(
  status: number,
  body: unknown,
  requestId: string | undefined,
): GatehouseError {
  const envelope = envelopeError(body);
  if (envelope !== undefined)
    return new GatehouseError(status, envelope.key, envelope.message, body, requestId);
  const deny = status === 403 ? denyMessage(body) : undefined;
  if (deny !== undefined) return new GatehouseError(status, 'forbidden', deny, body, requestId);
  const unauthorized = isRecord(body) ? (body as Partial<UnauthorizedBody>).message : undefined;
  if (status === 401 && typeof unauthorized === 'string') {
    return new GatehouseError(status, 'unauthorized', unauthorized, body, requestId);
  }
  return new GatehouseError(
    status,
    'unexpected-response',
    `unexpected answer: HTTP ${status}`,
    body,
    requestId,
  );
}
