import type { CompatibilityProfile } from './compatibility.js';
import type { ApiKey, Gym, Partner } from './entities.js';
import type { WebhookEndpoint } from './webhooks/endpoint.js';

/** What an endpoint's delivery log says of its health. */
export interface EndpointHealth {
  readonly lastAttempt: {
    readonly at: number;
    readonly statusCode: number | null;
    readonly error: string | null;
    readonly delivered: boolean;
  } | null;
  /** Deliveries last attempted in the last 24 hours, and how many of them were delivered. */
  readonly attemptedSince: number;
  readonly deliveredSince: number;
  /** Delivered ÷ attempted over the last 24 hours; null when nothing was attempted. */
  readonly successRate: number | null;
  readonly pending: number;
}

/** A partner's integration as gatehouse sees it: the answer of `GET /access/v1/integration` (docs/contract.md). */
export interface IntegrationReport {
  readonly partner: Partner;
  /** The key that asks (the partner API), or null (the operator). */
  readonly key: ApiKey | null;
  /** The gyms the key may act on (every gym of the partner for the operator), not retired, with their zone. */
  readonly gyms: readonly (Pick<Gym, 'id' | 'name'> & { readonly timezone: string })[];
  /** Requests per second per key; 0: no limit. */
  readonly rateLimitPerSecond: number;
  readonly compatibility: CompatibilityProfile;
  readonly webhooks: readonly { readonly endpoint: WebhookEndpoint; readonly health: EndpointHealth }[];
}

/** The share of attempted deliveries that were delivered, or null when none was attempted. */
export function successRate(attempted: number, delivered: number): number | null {
  return attempted === 0 ? null : delivered / attempted;
}
