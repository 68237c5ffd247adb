import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { redactCredentials } from '../domain/credentials.js';

/**
 * Secrets never reach the logs: the Authorization header and any custom code are redacted wherever they appear,
 * and request logs carry no headers or bodies in the first place.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'custom_code',
  '*.custom_code',
  'key',
  'secret',
  '*.secret',
];

export function loggerOptions(level: string): pino.LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

const LOG_BLOCK_BYTES = 4096;
const LOG_FLUSH_MS = 100;

/**
 * The server's log destination: stdout, written in blocks of up to 4 KiB instead of one write per line (at full
 * load those writes took about a sixth of the server's time: bench/README), and flushed at least every 100 ms, on
 * close, and by pino itself when the process exits. Only a SIGKILL can lose lines: the last 100 ms at most.
 */
export function bufferedStdout(): { readonly stream: pino.DestinationStream; stop(): void } {
  const stream = pino.destination({ dest: 1, sync: false, minLength: LOG_BLOCK_BYTES });
  const timer = setInterval(() => stream.flush(), LOG_FLUSH_MS).unref();
  return {
    stream,
    stop() {
      clearInterval(timer);
      stream.flush();
    },
  };
}

/** Resolves once the lines logged so far are written: before anything else is printed on the same stdout. */
export function flushLog(logger: FastifyBaseLogger): Promise<void> {
  const { flush } = logger as Partial<Pick<pino.Logger, 'flush'>>;
  return new Promise((resolve) => (flush === undefined ? resolve() : flush.call(logger, () => resolve())));
}

/**
 * What a log line may say about a failure: its class, code and message (with any URL's credentials hidden). No
 * stack trace, and none of a driver's extra fields — PostgreSQL's `detail` and `where` can quote row values and SQL.
 */
export function loggableError(error: Error & { code?: unknown }): Record<string, unknown> {
  return { type: error.constructor.name, code: error.code, message: redactCredentials(error.message) };
}
