import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { redactCredentials } from '../domain/credentials.js';

/** Names redacted at the top level of every log line, the request line's included. */
const TOP_LEVEL_REDACTED = ['authorization', 'custom_code', 'key', 'secret', 'member'];

/**
 * Secrets and members' details never reach the logs: the Authorization header, any custom code and member details are
 * redacted wherever they appear, and request logs carry no headers or bodies in the first place.
 */
const REDACTED_PATHS = [
  ...TOP_LEVEL_REDACTED,
  'req.headers.authorization',
  'headers.authorization',
  '*.custom_code',
  '*.secret',
  // A member's name and contacts, should a body or event ever be logged.
  '*.member',
];
const CENSOR = '[redacted]';

export function loggerOptions(level: string): pino.LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: CENSOR } };
}

/**
 * The logger for the one line per request, whose fields are all scalars the server chose (src/http/observability.ts):
 * the nested paths can never match there, and searching an object's every key for them cost about half of writing
 * the line. The top-level names are still redacted, should one ever be added.
 */
export function requestLineLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger.child({}, { redact: { paths: TOP_LEVEL_REDACTED, censor: CENSOR } });
}

const LOG_BLOCK_BYTES = 4096;
const LOG_FLUSH_MS = 100;

/**
 * The server's log destination: stdout, written in blocks of up to 4 KiB instead of one write per line (at full
 * load those writes took about a sixth of the server's time: bench/README), and flushed at least every 100 ms, on
 * close, and by pino itself when the process exits. Only a SIGKILL can lose lines: the last 100 ms at most.
 *
 * Lines reach sonic-boom as bytes: in its text mode it measures the whole pending block again at every line (the
 * block, joined line by line, is copied whole each time), which cost about 1.5 µs and 4 KiB of garbage per request
 * line; in its byte mode it keeps the lines as they come and joins them once per block.
 */
export function bufferedStdout(): { readonly stream: pino.DestinationStream; stop(): void } {
  const boom = pino.destination({ dest: 1, sync: false, minLength: LOG_BLOCK_BYTES, contentMode: 'buffer' });
  const write = boom.write.bind(boom) as unknown as (bytes: Buffer) => boolean;
  const stream = {
    write: (line: string) => write(Buffer.from(line)),
    flush: (done?: (error?: Error) => unknown) => boom.flush(done),
  };
  const timer = setInterval(() => boom.flush(), LOG_FLUSH_MS).unref();
  return {
    stream,
    stop() {
      clearInterval(timer);
      boom.flush();
    },
  };
}

/** Resolves once the lines logged so far are written: before anything else is printed on the same stdout. */
export function flushLog(logger: FastifyBaseLogger): Promise<void> {
  const { flush } = logger as Partial<Pick<pino.Logger, 'flush'>>;
  return new Promise((resolve) => (flush === undefined ? resolve() : flush.call(logger, () => resolve())));
}

const MAX_LOGGED_PATH = 256;
const MAX_LOGGED_MESSAGE = 300;

/** At most `max` characters of `text`, an ellipsis marking a cut. */
function bounded(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * A request's URL as the log keeps it: the path, cut at 256 characters, and no query string — a query can carry a
 * token (`?token=…`), and what one request makes the server log stays bounded.
 */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  return `${bounded(path, MAX_LOGGED_PATH)}${query < 0 ? '' : '?[redacted]'}`;
}

/**
 * What a log line may say about a failure: its class, code and message (any URL's credentials hidden, cut at 300
 * characters: a message can quote the request). No
 * stack trace, and none of a driver's extra fields — PostgreSQL's `detail` and `where` can quote row values and SQL.
 */
export function loggableError(error: Error & { code?: unknown }): Record<string, unknown> {
  const message = bounded(redactCredentials(error.message), MAX_LOGGED_MESSAGE);
  return { type: error.constructor.name, code: error.code, message };
}
