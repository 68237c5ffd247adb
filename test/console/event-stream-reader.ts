import type { TestApp } from '../helpers/test-app.js';

export interface StreamMessage {
  id: string | undefined;
  event: string | undefined;
  data: unknown;
}

/** A server-sent event stream read with fetch, as the console reads it: messages parsed, comments kept apart. */
export interface OpenStream {
  readonly status: number;
  readonly headers: Headers;
  /** The next `count` messages; rejects when the stream ends first or nothing comes within the bound. */
  next(count: number, withinMs?: number): Promise<StreamMessage[]>;
  /** Resolves true once the server has ended the stream. */
  ended(withinMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

function parse(block: string): StreamMessage | undefined {
  const fields = block.split('\n').filter((line) => !line.startsWith(':') && line.includes(':'));
  if (fields.length === 0 || fields.every((line) => line.startsWith('retry:'))) return undefined;
  const value = (name: string) =>
    fields
      .find((line) => line.startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trimStart();
  const data = value('data');
  return { id: value('id'), event: value('event'), data: data === undefined ? undefined : JSON.parse(data) };
}

export async function openStream(
  t: TestApp,
  path: string,
  headers: Record<string, string>,
): Promise<OpenStream> {
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the test app is not listening');
  const abort = new AbortController();
  const response = await fetch(`http://127.0.0.1:${address.port}${path}`, { headers, signal: abort.signal });
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const decoder = new TextDecoder();
  const queue: StreamMessage[] = [];
  let buffer = '';
  let done = false;
  let reading: Promise<void> | undefined;
  const readMore = () =>
    (reading ??= reader.read().then(
      ({ value, done: finished }) => {
        reading = undefined;
        if (finished) done = true;
        buffer += decoder.decode(value as Uint8Array | undefined, { stream: true });
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const message of blocks.map(parse)) if (message !== undefined) queue.push(message);
      },
      () => {
        reading = undefined;
        done = true;
      },
    ));
  const bounded = <T>(work: Promise<T>, withinMs: number, what: string) =>
    Promise.race([
      work,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), withinMs).unref()),
    ]);
  return {
    status: response.status,
    headers: response.headers,
    async next(count, withinMs = 5000) {
      const collect = async () => {
        while (queue.length < count && !done) await readMore();
        if (queue.length < count) throw new Error(`the stream ended after ${queue.length} messages`);
        return queue.splice(0, count);
      };
      return bounded(collect(), withinMs, `fewer than ${count} messages within ${withinMs} ms`);
    },
    async ended(withinMs = 5000) {
      const finish = async () => {
        while (!done) await readMore();
        return true;
      };
      return bounded(finish(), withinMs, `the stream was still open after ${withinMs} ms`);
    },
    async close() {
      abort.abort();
      await reader.cancel().catch(() => undefined);
    },
  };
}
