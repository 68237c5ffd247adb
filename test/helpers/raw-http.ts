import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The address of a listening app, as host and port. */
export function addressOf(app: FastifyInstance): { host: string; port: number } {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the app is not listening on TCP');
  return { host: address.address, port: address.port };
}

/**
 * Writes `request` byte for byte on a fresh TCP connection and reads the one response (the server closes, or the
 * response is complete). No client library in between: oversized headers and malformed URLs reach the server as
 * they are.
 */
export function rawRequest(app: FastifyInstance, request: string): Promise<RawResponse> {
  const { host, port } = addressOf(app);
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return;
      const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      const body = text.slice(split + 4);
      const length = Number(headers['content-length'] ?? NaN);
      if (!socket.destroyed && !(Buffer.byteLength(body) >= length)) return;
      settled = true;
      socket.destroy();
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      finish();
    });
    socket.on('close', () => {
      finish();
      if (!settled)
        reject(new Error(`connection closed without a response: ${Buffer.concat(chunks).toString()}`));
    });
    socket.on('error', (error) => {
      if (!settled && chunks.length === 0) reject(error);
    });
    socket.write(request);
  });
}
