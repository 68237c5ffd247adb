import { Worker } from 'node:worker_threads';
import type { AttemptResult } from '../domain/webhooks/attempt-outcome.js';
import type { RunnerLog } from '../services/webhooks/delivery-runner.js';
import { SENDING_STOPPED, type Sender, type SendRequest } from '../services/webhooks/sender.js';
import { waitingUnder } from '../services/webhooks/waiting-under.js';
import { perTurn } from './per-turn.js';
import type { PostedRequest, SenderCommand, SenderData, SenderReport } from './sender-thread-main.js';
import { THREAD_RESTART_MS } from './thread-restart.js';

/** What a request gets when the sending thread ended before answering it. */
const THREAD_ENDED: AttemptResult = { kind: 'no-answer', error: 'webhook sending thread ended' };

/** What a request asked for after its signal aborted gets, as from the sender itself. */
const STOPPED: AttemptResult = { kind: 'no-answer', error: SENDING_STOPPED };

/**
 * Webhook requests sent from a thread of their own (src/cli/sender-thread-main.ts), for a delivery loop that stays
 * on the serving thread: the HTTP client's work (connections, sockets, parsing answers) leaves the event loop that
 * answers validations, while the loop's reads and writes keep the store's connection. Requests and answers cross
 * in batches, one message per turn of each event loop. A thread that ends unasked answers what it held as no
 * answer (the deliveries are retried as any failed attempt), says so in the server's log, and is started again for
 * the first request after a pause (THREAD_RESTART_MS): the requests of the pause get the same answer at once, unsent.
 * Unreferenced: it never keeps the process alive on its own.
 */
export function threadSender(allowPrivate: boolean, log: Pick<RunnerLog, 'error'>): Sender {
  const waiting = new Map<number, (result: AttemptResult) => void>();
  const answer = (id: number, result: AttemptResult) => {
    waiting.get(id)?.(result);
    waiting.delete(id);
  };
  let nextId = 1;
  let thread: Worker | undefined;
  /** When the last thread ended unasked: none is started again before THREAD_RESTART_MS have passed. */
  let endedAt = -Infinity;

  function spawn(): Worker {
    const data: SenderData = { allowPrivate };
    // The bundle rolldown.config.ts makes of sender-thread-main.ts, beside the command line's own.
    const worker = new Worker(new URL('./sender-thread-bundle.js', import.meta.url), { workerData: data });
    worker.on('message', (report: SenderReport) => {
      for (const [id, result] of report) answer(id, result);
    });
    worker.on('error', (error) => log.error({ error: error.message }, 'webhook sending thread failed'));
    worker.once('exit', (code) => {
      // Ended unasked (close() lets go of the thread before it ends): what it held gets no answer from it.
      if (thread === worker) {
        thread = undefined;
        endedAt = performance.now();
        log.error(
          { code, unanswered: waiting.size },
          'webhook sending thread ended; starting it again at the next request after a pause',
        );
      }
      for (const resolve of waiting.values()) resolve(THREAD_ENDED);
      waiting.clear();
    });
    // The delivery loop keeps the process alive while it runs; an idle sending thread does not.
    worker.unref();
    return worker;
  }

  /**
   * The requests waiting under each abort signal: when it aborts, the thread is asked to cut them all short — after
   * this turn's requests are posted (perTurn's flush is queued before), so none is missed.
   */
  const idsUnder = waitingUnder<number>((ids) =>
    setImmediate(() => thread?.postMessage({ kind: 'abort', ids: [...ids] } satisfies SenderCommand)),
  );

  // Started now, not at the first delivery: a thread takes a moment to load, which a delivery should not wait for.
  thread = spawn();
  const queue = perTurn<PostedRequest>((requests) => {
    if (thread === undefined && performance.now() - endedAt < THREAD_RESTART_MS) {
      for (const { id } of requests) answer(id, THREAD_ENDED);
    } else (thread ??= spawn()).postMessage({ kind: 'send', requests } satisfies SenderCommand);
  });

  return {
    send({ signal, ...request }: SendRequest): Promise<AttemptResult> {
      if (signal.aborted) return Promise.resolve(STOPPED);
      const id = nextId++;
      const ids = idsUnder(signal);
      ids.add(id);
      return new Promise((resolve) => {
        waiting.set(id, (result) => {
          ids.delete(id);
          resolve(result);
        });
        queue({ ...request, id });
      });
    },
    close(): void {
      thread?.postMessage({ kind: 'close' } satisfies SenderCommand);
      thread = undefined;
    },
  };
}
