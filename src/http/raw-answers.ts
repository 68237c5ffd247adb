import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorEnvelope } from './envelope.js';

/** An answer written on the socket itself, in the envelope, for requests that never reach Fastify; then closed. */
function answerRaw(socket: Duplex, status: number, key: string, message: string): void {
  const body = JSON.stringify(errorEnvelope(key, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'request.headers-too-large', 'request headers must not exceed 16384 bytes'],
  // A request line whose URL Node's parser rejects (control characters, no leading slash): the README's 400.
  HPE_INVALID_URL: [400, 'request.invalid-url', 'malformed URL'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request.timeout', 'request timed out'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'request.timeout', 'request timed out'],
};

/** Errors Node's HTTP parser raises before Fastify sees a request: answered on the raw socket, in the envelope. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, key, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'request.malformed',
    'malformed HTTP request',
  ];
  answerRaw(socket, status, key, message);
}

/**
 * CONNECT never reaches a request handler: Node hands it to a 'connect' listener or, with none, drops the
 * connection unanswered. gatehouse is no proxy: a 405 in the envelope.
 */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  answerRaw(socket, 405, 'route.method-not-allowed', 'method not allowed on this path');
}
