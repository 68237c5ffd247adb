import type { AttemptOutcome } from './attempt-outcome.js';

/** At most one "webhook endpoint failing" line per endpoint this often, per process (README: "Delivery"). */
export const FAILURE_WARNING_EVERY_MS = 60_000;

/** What the line says of a failed attempt: the HTTP status when there was an answer, else the error. */
export type FailureDetail = { readonly status: number } | { readonly error: string };

/**
 * Whether an endpoint this process last warned about at `lastWarnedAt` may be warned about again. A clock set back
 * makes it due at once rather than silencing the endpoint until the clock catches up.
 */
export function failureWarningDue(lastWarnedAt: number | undefined, now: number): boolean {
  return lastWarnedAt === undefined || now - lastWarnedAt >= FAILURE_WARNING_EVERY_MS || now < lastWarnedAt;
}

/**
 * After one attempt: what the warning line says, or undefined when no line is written (the attempt delivered, or
 * the endpoint was warned about less than a minute ago). Only the status or the error, never the payload.
 */
export function failureWarning(
  outcome: AttemptOutcome,
  lastWarnedAt: number | undefined,
  now: number,
): FailureDetail | undefined {
  if (outcome.endpoint.healthy || !failureWarningDue(lastWarnedAt, now)) return undefined;
  const { lastStatusCode, lastError } = outcome.delivery;
  return lastStatusCode === null ? { error: lastError ?? 'no answer' } : { status: lastStatusCode };
}
