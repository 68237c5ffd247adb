import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/** What the receiver does with its n-th request (0-based): answer a status (with headers), or never answer. */
export type Behaviour = (n: number) => { status: number; headers?: Record<string, string> } | 'hang';

/** A real HTTP receiver on loopback that records every request it gets and answers as told. */
export async function startReceiver(behaviour: Behaviour = () => ({ status: 200 }), port = 0) {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const n = received.length;
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const answer = behaviour(n);
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    port: bound,
    received,
    async close(): Promise<void> {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `check` holds, polling: deliveries happen in the background. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
