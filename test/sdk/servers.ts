import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a local server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly at: number;
}

export interface LocalServer {
  readonly url: string;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: Server): Promise<void> {
  // Connections a test left hanging on purpose must not hold the close.
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * A local node:http server whose answers the test scripts: `handle` gets the request number (1-based), the
 * request and its body, and the response — it may answer, never answer, or destroy the socket.
 */
export async function startStub(
  handle: (n: number, request: SeenRequest, response: ServerResponse) => void,
): Promise<LocalServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const seen = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
        at: Date.now(),
      };
      requests.push(seen);
      handle(requests.length, seen, response);
    });
  });
  const url = await listen(server);
  return { url, requests, close: () => closeServer(server) };
}

/** Answers with a status, JSON body (or none) and headers. */
export function answer(
  response: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, {
    ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

/** Cuts the connection without an answer: the client sees a network failure. */
export function hangUp(response: ServerResponse): void {
  response.socket?.destroy();
}

/**
 * What a proxy does with the n-th request: pass it on and back; pass it on but lose the answer (the server acted,
 * the client hears nothing: a cut connection, or an answer held until the client gives up); or drop the request
 * before it reaches the server.
 */
export type ProxyPlan = 'forward' | 'lose-answer' | 'hold-answer' | 'drop-request';

const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** A proxy in front of a live gatehouse that loses what the plan says it loses. */
export async function startLossyProxy(target: string, plan: (n: number) => ProxyPlan): Promise<LocalServer> {
  return startStub((n, request, response) => {
    const step = plan(n);
    if (step === 'drop-request') return hangUp(response);
    const headers = Object.entries(request.headers).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && !HOP_BY_HOP.has(entry[0]),
    );
    void fetch(`${target}${request.url}`, {
      method: request.method,
      headers,
      ...(request.body === '' ? {} : { body: request.body }),
    }).then(async (upstream) => {
      const text = await upstream.text();
      if (step === 'lose-answer') return hangUp(response);
      if (step === 'hold-answer') return; // never answered: the client's timeout fires
      const passed = [...upstream.headers].filter(([name]) => !HOP_BY_HOP.has(name));
      response.writeHead(upstream.status, Object.fromEntries(passed));
      response.end(text);
    });
  });
}
