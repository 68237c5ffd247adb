import { Worker } from 'node:worker_threads';
import type { Config } from '../config/index.js';
import type { DeliveryLoop, DeliveryObserver, RunnerLog } from '../services/webhooks/delivery-runner.js';
import type { ThreadData, ThreadReport } from './delivery-thread-main.js';
import { THREAD_RESTART_MS } from './thread-restart.js';

/**
 * The webhook delivery loop of a `serve` process on a thread of its own (src/cli/delivery-thread-main.ts): it has
 * its own connection to the database, so dispatching, claiming, sending and recording never hold the event loop
 * that answers validations. What it observes comes back here: attempt outcomes and disabled endpoints for
 * `/metrics`, and its warnings for the server's log. A thread that ends unasked is logged and started again.
 */
export function deliveryThread(config: Config, log: RunnerLog, observer: DeliveryObserver): DeliveryLoop {
  let running = false;
  let thread: Worker | undefined;
  let exited: Promise<void> = Promise.resolve();
  let restart: NodeJS.Timeout | undefined;

  function heard(report: ThreadReport): void {
    if (report.kind === 'log') {
      log[report.level](report.details, report.message);
      return;
    }
    for (const seen of report.observations) {
      if ('disabled' in seen) observer.disabled(seen.disabled);
      else observer.attempt(seen.attempt, seen.seconds);
    }
  }

  function spawn(): void {
    const data: ThreadData = { config };
    // The bundle rolldown.config.ts makes of delivery-thread-main.ts, beside the command line's own.
    const worker = new Worker(new URL('./delivery-thread-bundle.js', import.meta.url), { workerData: data });
    thread = worker;
    worker.on('message', heard);
    worker.on('error', (error) => log.error({ error: error.message }, 'webhook delivery thread failed'));
    exited = new Promise((resolve) => {
      worker.once('exit', (code) => {
        thread = undefined;
        if (running) {
          log.error({ code }, 'webhook delivery thread ended; starting it again');
          restart = setTimeout(spawn, THREAD_RESTART_MS);
        }
        resolve();
      });
    });
  }

  return {
    start(): void {
      if (running) return;
      running = true;
      spawn();
    },
    /** The thread stops claiming, releases what it holds as the loop does, closes its connection and ends. */
    async stop(): Promise<void> {
      running = false;
      clearTimeout(restart);
      thread?.postMessage('stop');
      await exited;
    },
  };
}
