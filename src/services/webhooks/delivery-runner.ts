import { decideAttempt, type AttemptOutcome } from '../../domain/webhooks/attempt-outcome.js';
import type { Clock } from '../../domain/clock.js';
import type { Store } from '../../store/store.js';
import { listEvents } from '../../store/events/event-repository.js';
import {
  claimDueDeliveries,
  hasDueDeliveries,
  releaseClaim,
  type ClaimedDelivery,
} from '../../store/webhooks/webhook-claim-repository.js';
import { createAttemptRecorder } from './attempt-recorder.js';
import { deliveryRequest } from './delivery-request.js';
import { dispatchEvents } from './dispatcher.js';
import type { EndpointService } from './endpoint-service.js';
import { createFailureLog } from './failure-log.js';
import type { Sender } from './sender.js';

/** Where the runner reports what no request is waiting for (the app's logger). */
export interface RunnerLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface DeliveryObserver {
  attempt(outcome: AttemptOutcome['outcome'] | 'error', seconds: number): void;
  disabled(reason: string): void;
}

export interface RunnerOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly endpoints: EndpointService;
  readonly sender: Sender;
  readonly schedule: readonly number[];
  readonly log: RunnerLog;
  readonly observer?: DeliveryObserver;
  /** How often the log and the due deliveries are looked at when nothing wakes the runner. */
  readonly pollMs?: number;
  readonly maxInFlight?: number;
  readonly maxInFlightPerEndpoint?: number;
}

/**
 * The webhook delivery loop of one process: dispatch new events, claim due deliveries (never one another process
 * holds), send each with its own timeout so one slow endpoint delays no other, and record every attempt.
 */
export function createDeliveryRunner(options: RunnerOptions) {
  const { store, clock, sender, log } = options;
  const pollMs = options.pollMs ?? 100;
  const maxInFlight = options.maxInFlight ?? 128;
  const perEndpoint = options.maxInFlightPerEndpoint ?? 16;
  const inFlight = new Map<number, number>();
  const attempts = new Set<Promise<void>>();
  const abort = new AbortController();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let again = false;
  const recorder = createAttemptRecorder(store, options.endpoints);
  const failures = createFailureLog(store, log);

  const total = () => [...inFlight.values()].reduce((sum, count) => sum + count, 0);

  async function attempt(claim: ClaimedDelivery): Promise<void> {
    const started = performance.now();
    const [event] = await listEvents(store.db, claim.eventPosition - 1, 1);
    const secrets = await options.endpoints.signingSecrets(claim.endpointId);
    const request =
      event?.data === null || event?.data === undefined
        ? undefined
        : await deliveryRequest(store.db, claim, { ...event, data: event.data }, secrets, clock.now());
    const result =
      request === undefined
        ? ({ kind: 'no-answer', error: 'payload purged (GATEHOUSE_EVENT_RETENTION_DAYS)' } as const)
        : await sender.send({
            url: claim.url,
            ...request,
            timeoutMs: claim.timeoutMs,
            signal: abort.signal,
          });
    if (abort.signal.aborted) {
      // Shutting down: the attempt never counted; the next start sends it again, with the same webhook-id.
      await releaseClaim(store.db, claim);
      return;
    }
    const now = clock.now();
    const outcome = decideAttempt(claim, result, {
      now,
      schedule: options.schedule,
      failingSince: claim.failingSince,
    });
    const written = await recorder.record(claim, outcome, now);
    options.observer?.attempt(outcome.outcome, (performance.now() - started) / 1000);
    await failures.attempted(claim, outcome, now);
    if (written.disabled && outcome.endpoint.disable !== undefined) {
      options.observer?.disabled(outcome.endpoint.disable);
      log.warn({ webhook: claim.endpointId, reason: outcome.endpoint.disable }, 'webhook endpoint disabled');
    }
  }

  function launch(claim: ClaimedDelivery): void {
    inFlight.set(claim.endpointId, (inFlight.get(claim.endpointId) ?? 0) + 1);
    const done = attempt(claim)
      .catch((error: unknown) => {
        options.observer?.attempt('error', 0);
        log.error(
          { error: (error as Error).message, delivery: claim.id },
          'webhook attempt could not be recorded',
        );
      })
      .finally(() => {
        inFlight.set(claim.endpointId, (inFlight.get(claim.endpointId) ?? 1) - 1);
        attempts.delete(done);
        wake();
      });
    attempts.add(done);
  }

  async function tick(): Promise<void> {
    while (running && (await dispatchEvents(store, clock)) > 0);
    const free = maxInFlight - total();
    const now = clock.now();
    if (running && free > 0 && (await hasDueDeliveries(store.db, now))) {
      const busy = [...inFlight].filter(([, count]) => count >= perEndpoint).map(([id]) => id);
      const claims = await store.write((trx) =>
        claimDueDeliveries(trx, store.dialect, { now, limit: free, busy }),
      );
      claims.forEach(launch);
    }
  }

  function wake(): void {
    if (!running) return;
    if (ticking !== undefined) {
      again = true;
      return;
    }
    clearTimeout(timer);
    ticking = tick()
      .catch((error: unknown) => log.warn({ error: (error as Error).message }, 'webhook delivery loop'))
      .finally(() => {
        ticking = undefined;
        if (!running) return;
        if (again) {
          again = false;
          wake();
        } else timer = setTimeout(wake, pollMs);
      });
  }

  return {
    start(): void {
      if (running) return;
      running = true;
      wake();
    },
    /** Ask for a look now (after a commit that appended events, or a retry). */
    wake,
    /** Stops claiming; attempts in flight are cut short and left to be sent again by the next start. */
    async stop(): Promise<void> {
      running = false;
      clearTimeout(timer);
      await ticking;
      abort.abort();
      await Promise.all([...attempts]);
      sender.close();
    },
  };
}

export type DeliveryRunner = ReturnType<typeof createDeliveryRunner>;
