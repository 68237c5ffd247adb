import type { StreamQuota } from '../domain/event-streams.js';

/** What services report as they work; the HTTP layer turns it into metrics. Every method is optional to call. */
export interface ServiceObserver {
  /**
   * A validate unit of work finished: `validated` or the error key of the refusal, and how long the store took.
   */
  validation(outcome: string, storeSeconds: number): void;
  keyLookup(result: 'hit' | 'miss'): void;
  /** A creation refused because it would go past a quota. */
  quotaRefused(quota: Quota): void;
}

/** The quotas a refusal is counted under in `/metrics` (README, "Webhooks" and "The event streams"). */
export type Quota = 'webhook_endpoints' | StreamQuota;

export const silentObserver: ServiceObserver = {
  validation: () => undefined,
  keyLookup: () => undefined,
  quotaRefused: () => undefined,
};
