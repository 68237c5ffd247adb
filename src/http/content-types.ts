import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { AppError, InputError } from '../domain/errors.js';

/** `application/json` with any parameters (`; charset=utf-8`), in any case. */
const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

/** Methods whose body, if any, is ignored whatever its type (DELETE ignores any body and its type). */
const BODYLESS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS']);

/** Bytes that are not UTF-8 are refused, not replaced: decoding them to U+FFFD would turn two codes into one. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Parses a JSON body, refusing `__proto__` and `constructor.prototype` keys outright (no pollution). */
export function parseJsonBody(bytes: Buffer): unknown {
  if (bytes.length === 0) throw new InputError('body', 'is required');
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new InputError('body', 'must be UTF-8');
  }
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw /forbidden/i.test((error as Error).message)
      ? new InputError('body', 'must not contain __proto__ or constructor.prototype keys')
      : new InputError('body', 'malformed JSON');
  }
}

/**
 * JSON is the only body gatehouse reads. Fastify's defaults are removed (its text/plain parser would turn a
 * text body into a string the schema then calls "not an object", where the contract says 415).
 */
export const contentTypesPlugin = fp(
  (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'buffer' }, (request, body, done) => {
      if (BODYLESS.has(request.method)) return done(null, undefined);
      try {
        done(null, parseJsonBody(body as Buffer));
      } catch (error) {
        done(error as InputError, undefined);
      }
    });
    app.addContentTypeParser('*', (request, _payload, done) => {
      if (BODYLESS.has(request.method)) return done(null, undefined);
      done(
        new AppError(415, 'request.unsupported-media-type', 'Content-Type must be application/json'),
        undefined,
      );
    });
    return Promise.resolve();
  },
  { name: 'content-types' },
);
