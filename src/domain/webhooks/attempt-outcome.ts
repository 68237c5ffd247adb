import type { DisabledReason } from './endpoint.js';
import { DISABLE_AFTER_MS, nextAttemptAt, parseRetryAfter } from './retry-schedule.js';

/** What one attempt came to: an HTTP answer, or no answer at all (refused, timed out, a refused address). */
export type AttemptResult =
  | {
      readonly kind: 'answer';
      readonly statusCode: number;
      readonly retryAfter?: string;
      /** The start of the answer's body, when the sender was asked to keep it (a test event). */
      readonly excerpt?: string;
    }
  | { readonly kind: 'no-answer'; readonly error: string };

export interface DeliveryState {
  readonly roundFailures: number;
}

/** The delivery's new state and what happens to the endpoint, decided from one attempt. */
export interface AttemptOutcome {
  /** The metric label: delivered, retrying, failed (schedule exhausted) or gone (410). */
  readonly outcome: 'delivered' | 'retrying' | 'failed' | 'gone';
  readonly delivery: {
    readonly status: 'delivered' | 'pending' | 'failed';
    readonly roundFailures: number;
    readonly nextAttemptAt: number;
    readonly lastStatusCode: number | null;
    readonly lastError: string | null;
    readonly deliveredAt: number | null;
  };
  /** 'healthy': the endpoint answered 2xx; 'failing': it did not; plus a reason when it must be disabled now. */
  readonly endpoint: { readonly healthy: boolean; readonly disable?: DisabledReason };
}

function failureText(result: AttemptResult): string {
  if (result.kind === 'no-answer') return result.error;
  if (result.statusCode >= 300 && result.statusCode < 400)
    return `redirect (${result.statusCode}) not followed`;
  return `HTTP ${result.statusCode}`;
}

/**
 * Any 2xx within the timeout delivers; 410 Gone disables the endpoint at once; anything else is retried on the
 * schedule (Retry-After honoured on 429 and 503) until it is exhausted. `failingSince` is when the endpoint's
 * current run of failures began: five days of nothing but failures disable it.
 */
export function decideAttempt(
  delivery: DeliveryState,
  result: AttemptResult,
  context: { now: number; schedule: readonly number[]; failingSince: number | null; random?: number },
): AttemptOutcome {
  const { now } = context;
  const statusCode = result.kind === 'answer' ? result.statusCode : null;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
    return {
      outcome: 'delivered',
      delivery: {
        status: 'delivered',
        roundFailures: delivery.roundFailures,
        nextAttemptAt: now,
        lastStatusCode: statusCode,
        lastError: null,
        deliveredAt: now,
      },
      endpoint: { healthy: true },
    };
  }
  const lastError = failureText(result);
  if (statusCode === 410) {
    return {
      outcome: 'gone',
      delivery: {
        status: 'failed',
        roundFailures: delivery.roundFailures + 1,
        nextAttemptAt: now,
        lastStatusCode: 410,
        lastError,
        deliveredAt: null,
      },
      endpoint: { healthy: false, disable: 'gone' },
    };
  }
  const retryAfter =
    result.kind === 'answer' && (statusCode === 429 || statusCode === 503)
      ? parseRetryAfter(result.retryAfter, now)
      : undefined;
  const failures = delivery.roundFailures + 1;
  const next = nextAttemptAt(context.schedule, failures, now, retryAfter, context.random);
  const failingFor = now - (context.failingSince ?? now);
  return {
    outcome: next === undefined ? 'failed' : 'retrying',
    delivery: {
      status: next === undefined ? 'failed' : 'pending',
      roundFailures: failures,
      nextAttemptAt: next ?? now,
      lastStatusCode: statusCode,
      lastError,
      deliveredAt: null,
    },
    endpoint: failingFor >= DISABLE_AFTER_MS ? { healthy: false, disable: 'failing' } : { healthy: false },
  };
}
