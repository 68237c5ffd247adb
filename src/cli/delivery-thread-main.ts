import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../domain/clock.js';
import type { AttemptOutcome } from '../domain/webhooks/attempt-outcome.js';
import { createWebhookServices } from '../services/webhooks/index.js';
import type { Config } from '../config/index.js';
import { createStore } from '../store/create-store.js';
import { perTurn } from './per-turn.js';

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
  | { readonly kind: 'observed'; readonly observations: readonly Observation[] };

/** What the delivery loop told its observer: an attempt's outcome and time, or an endpoint disabled. */
export type Observation =
  | { readonly attempt: AttemptOutcome['outcome'] | 'error'; readonly seconds: number }
  | { readonly disabled: string };

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
  const observed = perTurn<Observation>((observations) => post({ kind: 'observed', observations }));
  const store = createStore({
    ...config,
    pgPoolSize: Math.min(config.pgPoolSize, THREAD_POOL_SIZE),
    onBackgroundError: (error) => log.warn({ error: error.message }, 'database connection error'),
  });
  const runner = createWebhookServices({ store, clock: systemClock, config }).runner(config, log, {
    attempt: (outcome, seconds) => observed({ attempt: outcome, seconds }),
    disabled: (reason) => observed({ disabled: reason }),
  });
  let stopping = false;
  port.on('message', () => {
    // The one message the serving thread posts: stop.
    if (stopping) return;
    stopping = true;
    void runner
      .stop()
      .then(() => store.close())
      .catch((error: unknown) =>
        log.error({ error: (error as Error).message }, 'webhook delivery thread stop'),
      )
      .finally(() => {
        // The last observations, posted at this turn's end, before the port closes.
        setImmediate(() => port.close());
        // Anything still open (a socket the sender's agent has not let go of yet) does not hold the thread.
        setTimeout(() => process.exit(0), 1000).unref();
      });
  });
  runner.start();
}

if (parentPort !== null) main(parentPort, workerData as ThreadData);
