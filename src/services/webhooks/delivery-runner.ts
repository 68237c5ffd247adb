import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  decideAttempt,
  type AttemptOutcome,
  type AttemptResult,
} from '../../domain/webhooks/attempt-outcome.js';
import type { Clock } from '../../domain/clock.js';
import type { Store } from '../../store/store.js';
import type { LoggedEvent } from '../../domain/events.js';
import { findEvents } from '../../store/events/event-repository.js';
import type { StoreTransaction } from '../../store/store.js';
import {
  claimDeliveries,
  dueDeliveries,
  deliveryWork,
  releaseClaim,
  type AttemptDetail,
  type ClaimedDelivery,
} from '../../store/webhooks/webhook-claim-repository.js';
import { ATTEMPT_EXCERPT_BYTES, safeExcerpt } from '../../domain/webhooks/attempt-excerpt.js';
import { fairShare, type ClaimCandidate } from '../../domain/webhooks/fair-share.js';
import { createAttemptRecorder, type RecordedBatch } from './attempt-recorder.js';
import { deliveryRequest, type DeliveryRequest } from './delivery-request.js';
import { DISPATCH_BATCH, dispatchInTransaction, type Dispatched, type FreshCandidate } from './dispatcher.js';
import type { EndpointService } from './endpoint-service.js';
import { createFailureLog } from './failure-log.js';
import { SENDING_STOPPED, type CutShort, type Sender } from './sender.js';

/**
 * Attempts in flight per process. A delivery's room is taken from its claim to its answer, and comes round again
 * only with the next round, so the room divided by a round's cycle bounds how fast a process delivers: at 128 a busy
 * PostgreSQL process (a round is a dozen round trips to the server) left a quarter of each round's fresh deliveries
 * to later rounds, and a SQLite process under full load delivered about 1,300 a second while validations came
 * faster, its backlog's last deliveries seconds late (delivery p99 at 1,000 validations/s 1.0-2.2 s against 0.3-0.5 s
 * at 512, on a 2-core machine).
 */
const MAX_IN_FLIGHT = 512;

/** How many claimed deliveries are started before the event loop is let go. */
const LAUNCH_SLICE = 16;

/**
 * How long a busy runner lets wake-ups gather before it looks again. A round's fixed cost (its ten or so
 * statements, about 1 ms on SQLite, on the serving thread there) is paid per round, whatever its deliveries: at an
 * even 1,000 validations a second, 5 ms made about 130 rounds a second of a few deliveries each, which held a fifth
 * of SQLite's serving thread; 15 ms makes fewer, larger ones (the process's CPU 10-17% lower in five alternating
 * pairs of runs, validate p50 lower in each; 30 ms no better), for 10 ms more before a delivery goes out.
 */
const GATHER_MS = 15;

/** What an attempt is sent from: its event (none once purged) and the endpoint's signing secrets. */
interface Given {
  readonly event: LoggedEvent | undefined;
  readonly secrets: readonly string[];
}

/** What an attempt's request left behind: its answer, how long it took, and the body the log keeps. */
interface Sent {
  readonly result: AttemptResult;
  readonly durationMs: number;
  readonly requestBody: string | null;
}

const PURGED: Sent = {
  result: { kind: 'no-answer', error: 'payload purged (GATEHOUSE_EVENT_RETENTION_DAYS)' },
  durationMs: 0,
  requestBody: null,
};

/** What an attempt asked once the loop is stopping gets: it is not sent (and its claim is given back). */
const STOPPED: Sent = {
  result: { kind: 'no-answer', error: SENDING_STOPPED },
  durationMs: 0,
  requestBody: null,
};

/** Whether an event still has its payload (the retention purge leaves its row without one). */
const withPayload = (
  event: LoggedEvent | undefined,
): event is LoggedEvent & { readonly data: Readonly<Record<string, unknown>> } =>
  event?.data !== null && event?.data !== undefined;

/** Where the runner reports what no request is waiting for (the app's logger). */
export interface RunnerLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface DeliveryObserver {
  attempt(outcome: AttemptOutcome['outcome'] | 'error', seconds: number): void;
  disabled(reason: string): void;
}

/** What `serve` starts once the store is migrated and stops before it closes: this loop, or a thread running it. */
export interface DeliveryLoop {
  start(): void;
  stop(): Promise<void>;
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
  readonly maxInFlightPerPartner?: number;
}

/**
 * The webhook delivery loop of one process: dispatch new events and send the fresh deliveries it claimed with them,
 * claim the other due deliveries (never one another process holds), send each with its own timeout, and record every
 * attempt. Claims take a fair share (src/domain/webhooks/fair-share.ts): at most 16 attempts in flight per endpoint,
 * 32 per partner and MAX_IN_FLIGHT per process, and the next claim passes over those at their cap, so one slow
 * endpoint delays no other partner's.
 */
export function createDeliveryRunner(options: RunnerOptions): DeliveryLoop {
  const { store, clock, sender, log } = options;
  const pollMs = options.pollMs ?? 100;
  const caps = {
    total: options.maxInFlight ?? MAX_IN_FLIGHT,
    perEndpoint: options.maxInFlightPerEndpoint ?? 16,
    perPartner: options.maxInFlightPerPartner ?? 32,
  };
  const byEndpoint = new Map<number, number>();
  const byPartner = new Map<number, number>();
  let total = 0;
  // The requests under way, each with what cuts it short, and the attempts not yet finished (sent and recorded):
  // the loop's stop cuts the first short and waits for the second.
  const sending = new Set<CutShort>();
  let unfinished = 0;
  let allFinished: (() => void) | undefined;
  let stopping = false;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let again = false;
  let gathering = false;
  // Finished attempts are written by the next round while the loop runs (it wakes for them), alone otherwise.
  const recorder = createAttemptRecorder(store, options.endpoints, () => {
    if (!running) return false;
    wake();
    return true;
  });
  const failures = createFailureLog(store, log);

  const count = (map: Map<number, number>, key: number, by: number) => {
    const next = (map.get(key) ?? 0) + by;
    if (next === 0) map.delete(key);
    else map.set(key, next);
  };

  /**
   * What an attempt's answer leaves to do: its room goes to the next claim while the outcome waits for the next
   * round to be written (until then the delivery stays pending under its claim, so the member·gym's next one still
   * waits for it); a stopping loop gives the claim back instead (the attempt never counted: the next start sends it
   * again, with the same webhook-id).
   */
  function settle(claim: ClaimedDelivery, sent: Sent, started: number, release: () => void): Promise<void> {
    const { result, durationMs, requestBody } = sent;
    const detail: AttemptDetail = {
      durationMs,
      requestBody,
      responseExcerpt: result.kind === 'answer' ? safeExcerpt(result.excerpt ?? '') : null,
    };
    release();
    if (stopping) return releaseClaim(store.db, claim);
    const now = clock.now();
    const outcome = decideAttempt(claim, result, {
      now,
      schedule: options.schedule,
      failingSince: claim.failingSince,
    });
    return recorder.record(claim, outcome, now, detail).then((written) => {
      options.observer?.attempt(outcome.outcome, (performance.now() - started) / 1000);
      const disabled = () => {
        if (!written.disabled || outcome.endpoint.disable === undefined) return;
        options.observer?.disabled(outcome.endpoint.disable);
        log.warn(
          { webhook: claim.endpointId, reason: outcome.endpoint.disable },
          'webhook endpoint disabled',
        );
      };
      // The failing line, when one is due, comes before the disabling one.
      const warning = failures.attempted(claim, outcome, now);
      if (warning === undefined) disabled();
      else return warning.then(disabled);
    });
  }

  /** Counts a claimed delivery in (or out of) the attempts in flight, by endpoint, partner and in all. */
  function hold(claim: ClaimCandidate, by: 1 | -1): void {
    count(byEndpoint, claim.endpointId, by);
    count(byPartner, claim.partnerId, by);
    total += by;
  }

  /**
   * Sends a claimed delivery already counted in flight (see `hold`) and settles its answer. By callback rather than
   * a chain of promises: a busy process has hundreds of attempts in flight, and what each holds meanwhile is copied
   * by every young-generation collection. Only the answer, the time it took and the body the log keeps outlive the
   * request: the event and the request's bytes are let go as soon as the request is handed to the sender.
   */
  function launch(claim: ClaimedDelivery, given: Given): void {
    const started = performance.now();
    let holding = true;
    const release = () => {
      if (!holding) return;
      holding = false;
      hold(claim, -1);
    };
    unfinished += 1;
    const finish = () => {
      release();
      unfinished -= 1;
      if (unfinished === 0) allFinished?.();
    };
    const failed = (error: unknown) => {
      options.observer?.attempt('error', 0);
      log.error(
        { error: (error as Error).message, delivery: claim.id },
        'webhook attempt could not be recorded',
      );
      finish();
    };
    const answered = (sent: Sent) => {
      try {
        settle(claim, sent, started, release).then(finish, failed);
      } catch (error) {
        failed(error);
      }
    };
    const go = (request: DeliveryRequest) => {
      if (stopping) return answered(STOPPED);
      const requestBody = request.kept;
      const sendingAt = performance.now();
      const cutShort = sender.start(
        {
          url: claim.url,
          body: request.body,
          headers: request.headers,
          ...(request.signing === undefined ? {} : { signing: request.signing }),
          timeoutMs: claim.timeoutMs,
          excerptBytes: ATTEMPT_EXCERPT_BYTES,
        },
        (result) => {
          sending.delete(cutShort);
          answered({ result, durationMs: Math.round(performance.now() - sendingAt), requestBody });
        },
      );
      sending.add(cutShort);
    };
    const { event, secrets } = given;
    if (!withPayload(event)) {
      queueMicrotask(() => answered(PURGED));
      return;
    }
    try {
      const request = deliveryRequest(store.db, claim, event, secrets, clock.now());
      if (request instanceof Promise) request.then(go, failed);
      else go(request);
    } catch (error) {
      queueMicrotask(() => failed(error));
    }
  }

  /** The fair share of these candidates (in their order), given the attempts in flight. */
  const share = <T extends ClaimCandidate>(candidates: readonly T[]): T[] =>
    fairShare(candidates, { byEndpoint, byPartner, total }, caps);

  /** In a write transaction: the fair share of the due deliveries, claimed. */
  async function claim(trx: StoreTransaction): Promise<ClaimedDelivery[]> {
    const now = clock.now();
    const atCap = (map: Map<number, number>, cap: number) =>
      [...map].filter(([, n]) => n >= cap).map(([id]) => id);
    const due = await dueDeliveries(trx, {
      now,
      limit: caps.total,
      busy: { endpoints: atCap(byEndpoint, caps.perEndpoint), partners: atCap(byPartner, caps.perPartner) },
    });
    const chosen = share(due);
    return chosen.length === 0 ? [] : claimDeliveries(trx, chosen, now);
  }

  /**
   * One round, in one write transaction: the attempts that finished are recorded, new events fanned out (with the
   * fresh deliveries this process may send claimed at once), and the other due deliveries claimed while there is
   * room. A busy process thus commits once per round, not once per event, attempt or claim, and that commit does not
   * wait for the disk (a round lost to a power cut is redone: its deliveries go out again, same webhook-id). What
   * it claimed is sent after the commit.
   */
  async function round(): Promise<'now' | 'soon' | 'done'> {
    const work = await deliveryWork(store.db, clock.now());
    const { events } = work;
    const due = work.due && total < caps.total;
    if (!recorder.queued && !events && !due) return 'done';
    // Counted in flight as they are chosen; given back if the round's transaction fails.
    const held: ClaimCandidate[] = [];
    const holding = <T extends ClaimCandidate>(chosen: T[]): T[] => {
      chosen.forEach((delivery) => hold(delivery, 1));
      held.push(...chosen);
      return chosen;
    };
    const chooseFresh = (candidates: readonly FreshCandidate[]) => holding(share(candidates));
    const retries: ClaimedDelivery[] = [];
    let recorded: RecordedBatch | undefined;
    let dispatched: Dispatched;
    try {
      dispatched = await store.writeWithoutFlush(async (trx) => {
        recorded = await recorder.writeQueued(trx);
        const fresh = events
          ? await dispatchInTransaction(trx, store.dialect, clock, chooseFresh)
          : undefined;
        // A claim of the rest while there is room: an endpoint or partner at its cap is passed over.
        if (due && total < caps.total) retries.push(...holding(await claim(trx)));
        return fresh ?? { read: 0, events: new Map(), claimed: [] };
      });
    } catch (error) {
      held.forEach((delivery) => hold(delivery, -1));
      recorded?.failed(error);
      throw error;
    }
    const claimed = [...dispatched.claimed, ...retries];
    recorded?.committed();
    // What the attempts need, read once for the round: a fresh delivery is sent from the event in hand; a retry
    // reads its event by position (it is in the log for good, so no horizon to wait for).
    const [retried, secrets] = await Promise.all([
      findEvents(
        store.db,
        claimed
          .map((delivery) => delivery.eventPosition)
          .filter((position) => !dispatched.events.has(position)),
      ),
      options.endpoints.signingSecretsOf([...new Set(claimed.map((delivery) => delivery.endpointId))]),
    ]).catch((error: unknown) => {
      claimed.forEach((delivery) => hold(delivery, -1));
      throw error;
    });
    // A few at a time, the event loop let go in between: starting hundreds of requests at once would hold the
    // validations that arrived meanwhile until the last one was on its way.
    for (const [at, delivery] of claimed.entries()) {
      if (at > 0 && at % LAUNCH_SLICE === 0) await nextTurn();
      const position = delivery.eventPosition;
      launch(delivery, {
        event: dispatched.events.get(position) ?? retried.get(position),
        secrets: secrets.get(delivery.endpointId) ?? [],
      });
    }
    if (dispatched.read >= DISPATCH_BATCH) return 'now';
    return claimed.length > 0 && total < caps.total ? 'soon' : 'done';
  }

  /** Rounds at once while the log holds more than a dispatch reads; a round that claimed and left room, soon again. */
  async function tick(): Promise<void> {
    let next: Awaited<ReturnType<typeof round>> = 'now';
    while (running && next === 'now') next = await round();
    if (next === 'soon') again = true;
  }

  /**
   * Asks for a round soon: what asks meanwhile (commits, finished attempts) is looked at together a moment later, so
   * a busy process dispatches, claims and records in batches rather than once per event or attempt.
   */
  function wake(): void {
    if (!running) return;
    if (ticking !== undefined) {
      again = true;
      return;
    }
    if (gathering) return;
    gathering = true;
    clearTimeout(timer);
    timer = setTimeout(run, GATHER_MS);
  }

  function run(): void {
    gathering = false;
    if (!running || ticking !== undefined) return;
    clearTimeout(timer);
    ticking = tick()
      .catch((error: unknown) => log.warn({ error: (error as Error).message }, 'webhook delivery loop'))
      .finally(() => {
        ticking = undefined;
        if (!running) return;
        if (again) {
          again = false;
          wake();
        } else timer = setTimeout(run, pollMs);
      });
  }

  return {
    start(): void {
      if (running) return;
      running = true;
      run();
    },
    /** Stops claiming; attempts in flight are cut short and left to be sent again by the next start. */
    async stop(): Promise<void> {
      running = false;
      clearTimeout(timer);
      gathering = false;
      await ticking;
      // Attempts that finished since the last round are written now; those finishing later write alone.
      const flushed = recorder.flush();
      stopping = true;
      for (const cutShort of [...sending]) cutShort(SENDING_STOPPED);
      const finished = unfinished === 0 ? undefined : new Promise<void>((resolve) => (allFinished = resolve));
      await Promise.all([finished, flushed]);
      sender.close();
    },
  };
}
