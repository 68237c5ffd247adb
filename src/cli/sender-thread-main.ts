import { parentPort, workerData } from 'node:worker_threads';
import type { AttemptResult } from '../domain/webhooks/attempt-outcome.js';
import { systemResolver } from '../services/webhooks/resolver.js';
import { createSender, SENDING_STOPPED, type SendRequest } from '../services/webhooks/sender.js';
import { perTurn } from './per-turn.js';

/** What the sending thread is started with. */
export interface SenderData {
  readonly allowPrivate: boolean;
}

/** A request as the serving thread posts it: a `SendRequest` with an id instead of its abort signal. */
export type PostedRequest = Omit<SendRequest, 'signal'> & { readonly id: number };

/** What the serving thread posts: requests to send, ids to cut short, or the end. */
export type SenderCommand =
  | { readonly kind: 'send'; readonly requests: readonly PostedRequest[] }
  | { readonly kind: 'abort'; readonly ids: readonly number[] }
  | { readonly kind: 'close' };

/** The answers, a batch per turn of this thread's event loop. */
export type SenderReport = readonly (readonly [number, AttemptResult])[];

/** The thread's body: sends what it is given with the process's sender and posts each result back by id. */
function main(port: NonNullable<typeof parentPort>, { allowPrivate }: SenderData): void {
  const sender = createSender(systemResolver, allowPrivate);
  // Each attempt in flight by id, with what cuts it short (no AbortController per request: one costs more than the
  // rest of the attempt's bookkeeping).
  const inFlight = new Map<number, (error: string) => void>();
  const report = perTurn<readonly [number, AttemptResult]>((results) =>
    port.postMessage(results satisfies SenderReport),
  );
  const answered = (id: number, result: AttemptResult) => {
    inFlight.delete(id);
    report([id, result]);
  };
  port.on('message', (command: SenderCommand) => {
    if (command.kind === 'send') {
      for (const { id, ...request } of command.requests) {
        inFlight.set(
          id,
          sender.start(request, (result) => answered(id, result)),
        );
      }
    } else if (command.kind === 'abort') {
      for (const id of command.ids) inFlight.get(id)?.(SENDING_STOPPED);
    } else {
      for (const cutShort of inFlight.values()) cutShort(SENDING_STOPPED);
      sender.close();
      port.close();
    }
  });
}

if (parentPort !== null) main(parentPort, workerData as SenderData);
