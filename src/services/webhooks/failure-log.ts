import type { AttemptOutcome } from '../../domain/webhooks/attempt-outcome.js';
import { failureWarning, failureWarningDue } from '../../domain/webhooks/failure-warning.js';
import type { Store } from '../../store/store.js';
import type { ClaimedDelivery } from '../../store/webhooks/webhook-claim-repository.js';
import { countPendingDeliveries } from '../../store/webhooks/webhook-delivery-repository.js';

/**
 * The server log's view of failing endpoints: one warning line per endpoint per minute while its attempts fail,
 * with the endpoint, its partner, the status or error and how many deliveries wait (README: "Delivery"). Never the
 * payload, the URL or the secret. The pending count is read only when a line is written.
 */
export function createFailureLog(store: Store, log: { warn(details: object, message: string): void }) {
  /** When this process last warned about each endpoint, within the last minute. */
  const warnedAt = new Map<number, number>();

  function forgetPast(now: number): void {
    for (const [endpointId, at] of warnedAt) if (failureWarningDue(at, now)) warnedAt.delete(endpointId);
  }

  return {
    /** Notes an attempt; when a line is due, writes it once the pending count is read (the promise returned). */
    attempted(claim: ClaimedDelivery, outcome: AttemptOutcome, now: number): Promise<void> | undefined {
      const detail = failureWarning(outcome, warnedAt.get(claim.endpointId), now);
      if (detail === undefined) return undefined;
      forgetPast(now);
      // Noted before the count is read, so attempts finishing meanwhile write no second line.
      warnedAt.set(claim.endpointId, now);
      return countPendingDeliveries(store.db, claim.endpointId)
        .catch(() => undefined)
        .then((pending) =>
          log.warn(
            {
              webhook: claim.endpointId,
              partner: claim.partnerId,
              ...detail,
              ...(pending === undefined ? {} : { pending }),
            },
            'webhook endpoint failing',
          ),
        );
    },
  };
}
