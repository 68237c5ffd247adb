import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../domain/clock.js';
import type { AttemptOutcome } from '../domain/webhooks/attempt-outcome.js';
import { createWebhookServices } from '../services/webhooks/index.js';
import type { Config } from '../config/index.js';
import { createStore } from '../store/create-store.js';

/** What the thread is started with: the process's settings, read as the serving thread reads them. */
export interface ThreadData {
  readonly config: Config;
}

/** What the delivery thread tells the serving thread (src/cli/delivery-thread.ts). */
export type ThreadReport =
  | {
      readonly kind: 'log';
      readonly level: 'warn' | 'error';
      readonly details: object;
      readonly message: string;
    }
  | {
      readonly kind: 'observed';
      readonly attempts: readonly (readonly [AttemptOutcome['outcome'] | 'error', number])[];
      readonly disabled: readonly string[];
    };

/**
 * PostgreSQL connections of the delivery thread, beside the serving thread's pool: a round's transaction, the two
 * reads after it, and an attempt written alone or a failing endpoint's pending count.
 */
const THREAD_POOL_SIZE = 4;

/** The thread's body: the delivery loop over a connection of its own, until the serving thread says stop. */
function main(port: NonNullable<typeof parentPort>, { config }: ThreadData): void {
  const post = (report: ThreadReport) => port.postMessage(report);
  const log = {
    warn: (details: object, message: string) => post({ kind: 'log', level: 'warn', details, message }),
    error: (details: object, message: string) => post({ kind: 'log', level: 'error', details, message }),
  };
  // Observations are sent in batches, once per turn of the thread's event loop.
  let attempts: [AttemptOutcome['outcome'] | 'error', number][] = [];
  let disabled: string[] = [];
  let flushing = false;
  const flush = () => {
    flushing = false;
    if (attempts.length === 0 && disabled.length === 0) return;
    post({ kind: 'observed', attempts, disabled });
    attempts = [];
    disabled = [];
  };
  const soon = () => {
    if (flushing) return;
    flushing = true;
    setImmediate(flush);
  };
  const store = createStore({
    ...config,
    pgPoolSize: Math.min(config.pgPoolSize, THREAD_POOL_SIZE),
    onBackgroundError: (error) => log.warn({ error: error.message }, 'database connection error'),
  });
  const runner = createWebhookServices({ store, clock: systemClock, config }).runner(config, log, {
    attempt: (outcome, seconds) => {
      attempts.push([outcome, seconds]);
      soon();
    },
    disabled: (reason) => {
      disabled.push(reason);
      soon();
    },
  });
  let stopping = false;
  port.on('message', (message: 'wake' | 'stop') => {
    if (message === 'wake') {
      runner.wake();
      return;
    }
    if (stopping) return;
    stopping = true;
    void runner
      .stop()
      .then(() => store.close())
      .catch((error: unknown) =>
        log.error({ error: (error as Error).message }, 'webhook delivery thread stop'),
      )
      .finally(() => {
        flush();
        port.close();
        // Anything still open (a socket the sender's agent has not let go of yet) does not hold the thread.
        setTimeout(() => process.exit(0), 1000).unref();
      });
  });
  runner.start();
}

if (parentPort !== null) main(parentPort, workerData as ThreadData);
