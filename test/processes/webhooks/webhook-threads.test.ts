import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { deliveryThread } from '../../../src/cli/delivery-thread.js';
import type { threadSender } from '../../../src/cli/sender-thread.js';
import { THREAD_RESTART_MS } from '../../../src/cli/thread-restart.js';
import { loadConfig } from '../../../src/config/index.js';
import type { Sender, SendRequest } from '../../../src/services/webhooks/sender.js';
import { useReceivers } from '../../fixtures/webhook-receiver.js';

/**
 * The threads a `serve` process delivers webhooks from (src/cli/sender-thread.ts on SQLite, delivery-thread.ts on
 * PostgreSQL), as the built CLI starts them: each module with its thread's bundle beside it in dist/cli/ (built by
 * the processes' global setup).
 */
const DIST = new URL('../../../dist/', import.meta.url);
const BUILT = new URL('cli/', DIST);
/**
 * How long a fresh sending thread may take to send its first request: the thread starts and loads its HTTP client
 * first, which on a machine the whole suite keeps busy takes more than a second. The tests wait for the request, not
 * for a time.
 */
const FIRST_REQUEST = { timeout: 10_000 };

const COPY_PREFIX = 'without-thread-bundles-';
let broken: URL | undefined;
afterAll(() => {
  if (broken !== undefined) rmSync(broken, { recursive: true, force: true });
});

/**
 * The built CLI's cli/ folder in a copy of dist/ without the thread bundles rolldown writes there: a broken install.
 * The copy sits inside dist/ (ignored by git), where the modules still find node_modules.
 */
function builtWithoutBundles(): URL {
  if (broken === undefined) {
    const folder = mkdtempSync(fileURLToPath(new URL(COPY_PREFIX, DIST)));
    broken = pathToFileURL(`${folder}/`);
    const source = fileURLToPath(DIST);
    for (const entry of readdirSync(source).filter((name) => !name.startsWith(COPY_PREFIX)))
      cpSync(join(source, entry), join(folder, entry), {
        recursive: true,
        filter: (path) => !path.endsWith('-thread-bundle.js'),
      });
  }
  return new URL('cli/', broken);
}

async function exported<T>(folder: URL, module: string, name: string): Promise<T> {
  return ((await import(new URL(module, folder).href)) as Record<string, T>)[name] as T;
}

/** What a thread's starter was told to log, in order. */
function recordingLog() {
  const lines: { level: 'warn' | 'error'; details: object; message: string }[] = [];
  return {
    lines,
    warn: (details: object, message: string) => lines.push({ level: 'warn', details, message }),
    error: (details: object, message: string) => lines.push({ level: 'error', details, message }),
  };
}

const BODY = JSON.stringify({ type: 'checkin.validated', data: { member: 'Zoë Ødegård' } });

describe('the webhook sending thread', () => {
  const receiver = useReceivers();
  const started: Sender[] = [];
  afterEach(() => {
    for (const sender of started.splice(0)) sender.close();
  });

  /** A thread sender of the module in `folder` (the built CLI's unless told), with what it logs; closed after the test. */
  async function start(folder = BUILT) {
    const log = recordingLog();
    const sender = (await exported<typeof threadSender>(folder, 'sender-thread.js', 'threadSender'))(
      true,
      log,
    );
    started.push(sender);
    return { sender, log };
  }

  const request = (url: string, signal: AbortSignal): SendRequest => ({
    url,
    headers: { 'webhook-id': 'msg_1' },
    body: BODY,
    timeoutMs: 5000,
    signal,
  });

  test('when it sends, then the receiver gets the body and headers byte for byte and the answer comes back, with nothing logged', async () => {
    const { sender, log } = await start();
    const target = await receiver(() => ({ status: 202 }));
    const result = await sender.send(request(target.url, new AbortController().signal));
    expect(result).toEqual({ kind: 'answer', statusCode: 202 });
    expect(target.received).toHaveLength(1);
    expect(target.received[0]?.body).toBe(BODY);
    expect(target.received[0]?.headers['webhook-id']).toBe('msg_1');
    expect(log.lines).toEqual([]);
  });

  test('when its signal aborts, then a request asked before gets "sending stopped" at once, and one asked after too, unsent', async () => {
    const { sender, log } = await start();
    const target = await receiver(() => 'hang');
    const stopping = new AbortController();
    const waiting = sender.send(request(target.url, stopping.signal));
    await expect.poll(() => target.received.length, FIRST_REQUEST).toBe(1);
    stopping.abort();
    expect(await waiting).toEqual({ kind: 'no-answer', error: 'sending stopped' });
    expect(await sender.send(request(target.url, stopping.signal))).toEqual({
      kind: 'no-answer',
      error: 'sending stopped',
    });
    expect(target.received).toHaveLength(1);
    expect(log.lines).toEqual([]);
  });

  test('when its signal aborts in the very turn a request was asked, then that request ends "sending stopped" too: the abort reaches the thread after it', async () => {
    const { sender, log } = await start();
    const target = await receiver(() => 'hang');
    const stopping = new AbortController();
    // A long timeout: an abort that reached the thread before its request would leave it to time out.
    const waiting = sender.send({ ...request(target.url, stopping.signal), timeoutMs: 60_000 });
    stopping.abort();
    expect(await waiting).toEqual({ kind: 'no-answer', error: 'sending stopped' });
    expect(log.lines).toEqual([]);
  });

  test('when it is closed with a request in flight, then that request ends as the thread ended, and nothing is logged: it was asked to end', async () => {
    const { sender, log } = await start();
    const target = await receiver(() => 'hang');
    const waiting = sender.send(request(target.url, new AbortController().signal));
    await expect.poll(() => target.received.length, FIRST_REQUEST).toBe(1);
    sender.close();
    expect(await waiting).toEqual({ kind: 'no-answer', error: 'webhook sending thread ended' });
    expect(log.lines).toEqual([]);
  });

  test('when the thread cannot start (its bundle is missing), then each request is answered as the thread ended, each failure is logged, and a thread is started again only for the first request a pause later', async () => {
    const { sender, log } = await start(builtWithoutBundles());
    const target = await receiver();
    const ended = { kind: 'no-answer', error: 'webhook sending thread ended' };
    const failed = {
      level: 'error',
      details: { error: expect.stringContaining('sender-thread-bundle.js') as unknown },
      message: 'webhook sending thread failed',
    };
    const endedLine = (unanswered: number) => ({
      level: 'error',
      details: { code: 1, unanswered },
      message: 'webhook sending thread ended; starting it again at the next request after a pause',
    });
    // The thread started with the sender fails, holding nothing.
    await expect.poll(() => log.lines).toEqual([failed, endedLine(0)]);
    // Within the pause: answered at once, and no thread started (nothing more logged).
    expect(await sender.send(request(target.url, new AbortController().signal))).toEqual(ended);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(log.lines).toHaveLength(2);
    // After it, the next request starts a thread, which fails and takes that request with it.
    await new Promise((resolve) => setTimeout(resolve, THREAD_RESTART_MS));
    expect(await sender.send(request(target.url, new AbortController().signal))).toEqual(ended);
    expect(log.lines).toEqual([failed, endedLine(0), failed, endedLine(1)]);
    expect(target.received).toEqual([]);
  });
});

describe('the webhook delivery thread', () => {
  test('when the thread cannot start (its bundle is missing), then each failure and end is logged and it is started again a moment later, until stop', async () => {
    const start = await exported<typeof deliveryThread>(
      builtWithoutBundles(),
      'delivery-thread.js',
      'deliveryThread',
    );
    const log = recordingLog();
    const observed: unknown[] = [];
    const loop = start(loadConfig({ GATEHOUSE_DATABASE_URL: 'sqlite://:memory:' }), log, {
      attempt: (outcome, seconds) => observed.push({ outcome, seconds }),
      disabled: (reason) => observed.push({ disabled: reason }),
    });
    loop.start();
    const ended = () =>
      log.lines.filter((line) => line.message === 'webhook delivery thread ended; starting it again');
    // Started again after its pause, it fails again: two ends show the restart.
    await expect.poll(() => ended().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await loop.stop();
    expect(ended()[0]).toEqual({
      level: 'error',
      details: { code: 1 },
      message: 'webhook delivery thread ended; starting it again',
    });
    const failures = log.lines.filter((line) => line.message === 'webhook delivery thread failed');
    expect(failures[0]?.details).toEqual({
      error: expect.stringContaining('delivery-thread-bundle.js') as unknown,
    });
    // Each failure has its end, but for a thread that failed while being stopped: that end is asked, not logged.
    expect(failures.length - ended().length).toBeOneOf([0, 1]);
    expect(log.lines).toHaveLength(failures.length + ended().length);
    expect(observed).toEqual([]);
  });
});
