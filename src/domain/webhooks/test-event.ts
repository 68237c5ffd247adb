import { randomBytes } from 'node:crypto';
import { deliveryBody, type WebhookEndpoint } from './endpoint.js';
import { wellhubBody } from './wellhub-format.js';

/**
 * Test events (README, "Test events"): what `POST /access/v1/webhooks/:id/test` sends to an endpoint, once, now.
 * A test is no event of the log: it is not fanned out, retried, or kept in the delivery log.
 */
export const TEST_EVENT_TYPE = 'test.ping';

/** The Wellhub format's test member: a `unique_token` no real member has (docs/contract.md, "Test events"). */
export const TEST_MEMBER_TOKEN = '0000000000000';

/** Sent with every test, whatever the format, so a receiver can tell a test from a real delivery. */
export const TEST_HEADER = 'X-Gatehouse-Test';

/** A test's `webhook-id`: `evt_test_` and 64 random bits, so it never collides with a real event's id. */
export function newTestEventId(): string {
  return `evt_test_${randomBytes(8).toString('hex')}`;
}

/** The Standard Webhooks body of `test.ping`: the endpoint it was sent to, marked as a test. */
export function standardTestBody(endpoint: { id: number; partnerId: number }, now: number): string {
  return deliveryBody({
    type: TEST_EVENT_TYPE,
    occurredAt: now,
    data: { webhook_id: endpoint.id, partner_id: endpoint.partnerId, test: true },
  });
}

/**
 * A sample Wellhub `checkin` for the test member, at a gym of the endpoint with one of its products when it has
 * any, so a handler that looks the gym up finds it.
 */
export function wellhubTestBody(
  gym: { id: number; name: string },
  product: { id: number; description: string },
  now: number,
): string {
  return wellhubBody({
    data: {
      platform_id: TEST_MEMBER_TOKEN,
      product,
      checked_in_at: new Date(now).toISOString(),
      member: { first_name: 'Test', last_name: 'Member' },
    },
    gym,
  });
}

/** What one test attempt came to, answered at once. */
export interface TestOutcome {
  readonly endpoint: WebhookEndpoint;
  /** The `webhook-id` of a standard test; null for wellhub, whose format has no id. */
  readonly eventId: string | null;
  readonly eventType: typeof TEST_EVENT_TYPE | 'checkin';
  /** Any 2xx within the endpoint's timeout, as for a real delivery. */
  readonly delivered: boolean;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly excerpt: string | null;
}
