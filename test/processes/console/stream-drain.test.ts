import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { arrangeCheckins, openOperator } from '../../fixtures/processes/arrange.js';
import { useServeProcesses, useTempDir } from '../../fixtures/processes/serve-process.js';

const ADMIN_TOKEN = 'operator-secret-0123456789';
const GRACE_MS = 20_000;

/** Reads a server-sent event stream until the server ends it; resolves with everything it sent. */
async function readToEnd(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const chunk = (await reader.read()) as { done: boolean; value?: Uint8Array };
    if (chunk.done) return text;
    text += decoder.decode(chunk.value, { stream: true });
  }
}

describe('open event streams on shutdown', () => {
  const dir = useTempDir('gatehouse-stream-drain-');
  const start = useServeProcesses();

  test('when SIGTERM arrives with an operator and a front-desk stream open, then both streams end and the process exits 0 without waiting out the grace', async () => {
    const url = `sqlite:${join(dir(), 'gatehouse.db')}`;
    const operator = openOperator(url);
    await operator.store.migrate();
    const desk = await arrangeCheckins(operator.services, 0);
    await operator.close();
    const server = await start({
      GATEHOUSE_DATABASE_URL: url,
      GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
      GATEHOUSE_SHUTDOWN_GRACE_MS: String(GRACE_MS),
    });
    const streams = await Promise.all([
      fetch(`${server.baseUrl}/admin/v1/events/stream`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
      fetch(`${server.baseUrl}/access/v1/events/stream`, { headers: desk.headers }),
    ]);
    expect(streams.map((stream) => stream.status)).toEqual([200, 200]);
    const read = streams.map(readToEnd);

    server.kill('SIGTERM');

    // close-with-grace ends a drain that outlasts the grace with exit code 1: 0 means the streams did not hold it.
    const exit = await server.exited;
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    const texts = await Promise.all(read);
    expect(texts.map((text) => text.split('\n\n')[0])).toEqual([
      expect.stringMatching(/^retry: 2000\nid: \d+\nevent: ready\ndata: \{"after":\d+\}$/),
      expect.stringMatching(/^retry: 2000\nid: \d+\nevent: ready\ndata: \{"after":\d+\}$/),
    ]);
  });
});
