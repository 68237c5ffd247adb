import { connect, type Socket } from 'node:net';

export interface Closed {
  /** From the first byte written to the server closing the connection. */
  readonly elapsedMs: number;
  readonly bytesSent: number;
  readonly received: string;
  /** True when the server ended the connection before the client had sent everything. */
  readonly beforeDone: boolean;
}

/**
 * A client that writes `preamble` at once, then `trickle` one byte every `intervalMs`, and stops at the first
 * sign of the server closing. Bounded: it never writes more than that, and gives up (destroying the socket)
 * after `giveUpMs`.
 */
export function tricklingClient(
  address: { host: string; port: number },
  { preamble = '', trickle }: { preamble?: string; trickle: string },
  { intervalMs, giveUpMs }: { intervalMs: number; giveUpMs: number },
): Promise<Closed> {
  const bytes = Buffer.from(trickle, 'utf8');
  return new Promise((resolve, reject) => {
    const socket = connect(address);
    let sent = 0;
    let started = 0;
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server had not closed the connection after ${giveUpMs} ms (${sent} bytes sent)`));
    }, giveUpMs);
    const finish = () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({
        elapsedMs: Math.round(performance.now() - started),
        bytesSent: sent,
        received,
        beforeDone: sent < bytes.length,
      });
    };
    socket.on('data', (chunk: Buffer) => void (received += chunk.toString('utf8')));
    socket.on('error', () => undefined); // a reset is one way of closing; 'close' follows
    socket.on('close', finish);
    socket.on('connect', () => {
      started = performance.now();
      if (preamble !== '') socket.write(preamble);
      timer = setInterval(() => {
        if (sent >= bytes.length || socket.destroyed || !socket.writable) return;
        socket.write(bytes.subarray(sent, sent + 1));
        sent += 1;
      }, intervalMs);
    });
  });
}

/** An open connection the test writes to at will, collecting whatever comes back. */
export interface OpenConnection {
  readonly socket: Socket;
  write(text: string): void;
  received(): string;
  /** Resolves once the received text matches, or rejects after `withinMs`. */
  waitFor(pattern: RegExp, withinMs: number): Promise<string>;
  closed: Promise<void>;
}

export function openConnection(address: { host: string; port: number }): Promise<OpenConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(address);
    let received = '';
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('data', (chunk: Buffer) => void (received += chunk.toString('utf8')));
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.removeListener('error', reject);
      socket.on('error', () => undefined);
      resolve({
        socket,
        write: (text) => void socket.write(text),
        received: () => received,
        closed,
        async waitFor(pattern, withinMs) {
          const deadline = performance.now() + withinMs;
          while (!pattern.test(received)) {
            if (performance.now() > deadline) {
              throw new Error(`no ${String(pattern)} within ${withinMs} ms; got: ${received}`);
            }
            await new Promise((r) => setTimeout(r, 10));
          }
          return received;
        },
      });
    });
  });
}

/** Whether a fresh TCP connection is accepted (true) or refused (false), within a bound. */
export function acceptsConnections(address: { host: string; port: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(address);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 2000);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

/** The head of an HTTP/1.1 POST of a JSON body of `length` bytes. */
export function postHead(path: string, headers: Record<string, string>, length: number): string {
  const lines = Object.entries({ ...headers, 'content-type': 'application/json' }).map(
    ([name, value]) => `${name}: ${value}`,
  );
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('\r\n')}\r\nContent-Length: ${length}\r\n\r\n`;
}
