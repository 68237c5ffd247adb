import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  AppError,
  ForbiddenError,
  InputError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../domain/errors.js';
import { BODY_TOO_LARGE_MESSAGE } from './body-limit.js';
import { UNEXPECTED_ERROR_MESSAGE, errorEnvelope, explicitDenyBody } from './envelope.js';
import { loggableError } from './logging.js';
import { schemaErrorsToInputError } from './validation-errors.js';

declare module 'fastify' {
  interface FastifyReply {
    /** The error key this reply carries (the request log and metrics read it); null on success. */
    outcome: string | null;
    /** Why a key was refused, and which: the request log's, never the answer's. */
    refusal: { reason: string | undefined; keyPrefix: string | undefined } | null;
  }
  interface FastifyContextConfig {
    /** The key of this route's 500 (one per endpoint family: validation, custom codes, the rest). */
    unexpectedErrorKey?: string;
  }
}

const DEFAULT_UNEXPECTED_KEY = 'internal.unexpected-error';

/** Fastify's own errors, each as the AppError the client sees: every answer is the envelope, with a stable key. */
const FRAMEWORK_ERRORS: Record<string, () => AppError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError(415, 'request.unsupported-media-type', 'Content-Type must be application/json'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AppError(413, 'request.too-large', BODY_TOO_LARGE_MESSAGE),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new InputError('body', 'malformed JSON'),
  FST_ERR_BAD_URL: () => new AppError(400, 'request.invalid-url', 'malformed URL'),
  FST_ERR_MAX_PARAM_LENGTH: () => routeNotFound(),
  // A path that climbs out of the docs' static files names no file gatehouse serves.
  FST_STATIC_FORBIDDEN_PATH: () => routeNotFound(),
};

function requestAborted(): AppError {
  return new AppError(400, 'request.aborted', 'the connection closed before the whole request was sent');
}

export function routeNotFound(): AppError {
  return new AppError(404, 'route.not-found', 'no route matches this path');
}

/**
 * What the error mapper needs to know of the store, handed in by the app so that HTTP never imports the store:
 * whether an error means "the database cannot serve now, retry later" (→ 503) rather than a bug (→ 500).
 */
export interface ErrorMapperOptions {
  readonly isStoreUnavailable: (error: unknown) => boolean;
}

/** Classifies any thrown value as an AppError, or undefined for a genuine bug (→ 500). */
function toAppError(
  error: FastifyError,
  request: FastifyRequest,
  { isStoreUnavailable }: ErrorMapperOptions,
): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error.validation !== undefined) {
    return schemaErrorsToInputError(error.validationContext ?? 'body', error.validation, request.body);
  }
  const framework = error.code === undefined ? undefined : FRAMEWORK_ERRORS[error.code];
  if (framework !== undefined) return framework();
  // The body stream ended before its end: the client went away mid-upload (its ECONNRESET is not the store's).
  if (request.raw.readableAborted) return requestAborted();
  if (isStoreUnavailable(error)) return new ServiceUnavailableError();
  return clientFault(error);
}

/**
 * Any other error that Fastify or a plugin marks as the client's (a 4xx `statusCode`) is answered with that status
 * in the envelope; only what is left is a bug, and a 500.
 */
function clientFault(error: FastifyError): AppError | undefined {
  const status = error.statusCode;
  if (status === undefined || status < 400 || status > 499) return undefined;
  return new AppError(status, 'request.invalid', (STATUS_CODES[status] ?? 'invalid request').toLowerCase());
}

/** Writes an AppError as the client sees it: 401 and 403 have their own shapes, the rest the envelope. */
export function sendAppError(reply: FastifyReply, error: AppError): FastifyReply {
  reply.outcome = error.key;
  reply.code(error.statusCode);
  if (error instanceof UnauthorizedError) return reply.send({ message: 'Unauthorized' });
  if (error instanceof ForbiddenError) {
    reply.refusal = { reason: error.reason, keyPrefix: error.keyPrefix };
    return reply.send(explicitDenyBody());
  }
  if (error instanceof ServiceUnavailableError) reply.header('retry-after', '1');
  if (error instanceof RateLimitedError)
    reply.header('retry-after', String(Math.max(1, error.retryAfterSeconds)));
  return reply.send(errorEnvelope(error.key, error.message, undefined, error.details));
}

function handleError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  options: ErrorMapperOptions,
): FastifyReply {
  const known = toAppError(error, request, options);
  if (known !== undefined) {
    if (known.statusCode >= 500) request.log.warn({ error: loggableError(error) }, known.message);
    return sendAppError(reply, known);
  }
  request.log.error({ error: loggableError(error) }, 'unexpected error');
  const key = request.routeOptions.config.unexpectedErrorKey ?? DEFAULT_UNEXPECTED_KEY;
  reply.outcome = key;
  return reply.code(500).send(errorEnvelope(key, UNEXPECTED_ERROR_MESSAGE, request.id));
}

/** Errors raised before routing (bad URL, over-long parameter): Fastify hands them here, hooks skipped. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  sendAppError(
    reply,
    FRAMEWORK_ERRORS[error.code]?.() ?? new AppError(400, 'request.invalid-url', 'malformed URL'),
  );
}

/** One place maps every error, Fastify's own included, to the partner API's envelope. */
export const errorMapperPlugin = fp(
  (app: FastifyInstance, options: ErrorMapperOptions) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      // HTTP/1.1 requires Host (RFC 9112, section 3.2); Node's own refusal had an empty body, so it is answered here.
      if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
        sendAppError(reply, new AppError(400, 'request.malformed', 'the Host header is required'));
        return;
      }
      // An unknown path is answered before its body is read: 404 comes before 415, 413 and 400 body.
      if (request.is404) {
        sendAppError(reply, routeNotFound());
        return;
      }
      done();
    });
    app.decorateReply('outcome', null);
    app.decorateReply('refusal', null);
    app.setErrorHandler((error: FastifyError, request, reply) => handleError(error, request, reply, options));
    app.setNotFoundHandler((_request, reply) => sendAppError(reply, routeNotFound()));
    return Promise.resolve();
  },
  { name: 'error-mapper' },
);
