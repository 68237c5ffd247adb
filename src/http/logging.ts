import type { FastifyServerOptions } from 'fastify';

/**
 * Secrets never reach the logs: the Authorization header and any custom code are redacted wherever they appear,
 * and request logs carry no headers or bodies in the first place.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'custom_code',
  '*.custom_code',
  'key',
  'secret',
  '*.secret',
];

export function loggerOptions(level: string): NonNullable<FastifyServerOptions['logger']> {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

/**
 * What a log line may say about a failure (fault matrix I4): its class, code and message. No stack trace, and
 * none of a driver's extra fields — PostgreSQL's `detail` and `where` can quote row values and SQL.
 */
export function loggableError(error: Error & { code?: unknown }): Record<string, unknown> {
  return { type: error.constructor.name, code: error.code, message: error.message };
}
