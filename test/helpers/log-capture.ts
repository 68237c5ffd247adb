import { Writable } from 'node:stream';
import pino from 'pino';
import { loggerOptions } from '../../src/http/logging.js';

/** A real pino logger, configured as in production, whose every line the test can read back. */
export function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const logger = pino(loggerOptions('info'), stream);
  return { logger, text: () => lines.join('\n'), lines };
}
