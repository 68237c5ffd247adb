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
