import { Worker } from 'node:worker_threads';
import type { AttemptResult } from '../domain/webhooks/attempt-outcome.js';
import type { RunnerLog } from '../services/webhooks/delivery-runner.js';
import { sendingUnderSignals, type Sender, type StartAttempt } from '../services/webhooks/sender.js';
import type { PostedRequest, SenderCommand, SenderData, SenderReport } from './sender-thread-main.js';
import { THREAD_RESTART_MS } from './thread-restart.js';

/** What a request gets when the sending thread ended before answering it. */
const THREAD_ENDED: AttemptResult = { kind: 'no-answer', error: 'webhook sending thread ended' };

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
    const done = waiting.get(id);
    waiting.delete(id);
    done?.(result);
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

  // Started now, not at the first delivery: a thread takes a moment to load, which a delivery should not wait for.
  thread = spawn();

  // What this turn asks of the thread, posted together once the turn is over: its new requests first, then the ids
  // cut short here that it already holds. A request cut short before it was posted is never posted. Ids grow, so the
  // requests not yet posted are those from the first of this turn's on.
  let requests: PostedRequest[] = [];
  let cut: number[] = [];
  let posting = false;
  function post(): void {
    posting = false;
    const sending = requests.filter((request) => waiting.has(request.id));
    const ids = cut;
    requests = [];
    cut = [];
    if (thread === undefined && performance.now() - endedAt < THREAD_RESTART_MS) {
      for (const { id } of sending) answer(id, THREAD_ENDED);
      return;
    }
    if (sending.length > 0)
      (thread ??= spawn()).postMessage({ kind: 'send', requests: sending } satisfies SenderCommand);
    if (ids.length > 0) thread?.postMessage({ kind: 'abort', ids } satisfies SenderCommand);
  }
  const postSoon = () => {
    if (posting) return;
    posting = true;
    setImmediate(post);
  };

  const start: StartAttempt = (request, done) => {
    const id = nextId++;
    waiting.set(id, done);
    requests.push({ ...request, id });
    postSoon();
    return (error) => {
      if (!waiting.has(id)) return;
      answer(id, { kind: 'no-answer', error });
      const posted = id < (requests[0]?.id ?? nextId);
      if (!posted) return;
      cut.push(id);
      postSoon();
    };
  };

  return {
    start,
    send: sendingUnderSignals(start),
    close(): void {
      thread?.postMessage({ kind: 'close' } satisfies SenderCommand);
      thread = undefined;
    },
  };
}
