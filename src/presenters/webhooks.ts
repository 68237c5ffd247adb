import { formatInstant } from '../domain/time-format.js';
import type { WebhookEndpoint } from '../domain/webhooks/endpoint.js';
import type { Delivery as DeliveryRecord, DeliveryAttempt } from '../domain/webhooks/delivery.js';

/** Webhook wire shapes, without TypeBox: the CLI loads these on every call. */
const instantOrNull = (value: number | null) => (value === null ? null : formatInstant(value));

export const presentEndpoint = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  partner_id: endpoint.partnerId,
  url: endpoint.url,
  event_types: endpoint.eventTypes === null ? null : [...endpoint.eventTypes],
  gym_ids: endpoint.gymIds === null ? null : [...endpoint.gymIds],
  format: endpoint.format,
  timeout_ms: endpoint.timeoutMs,
  status: endpoint.status,
  disabled_reason: endpoint.disabledReason,
  created_at: formatInstant(endpoint.createdAt),
  updated_at: formatInstant(endpoint.updatedAt),
});

export const presentDelivery = (delivery: DeliveryRecord) => ({
  id: delivery.id,
  webhook_id: delivery.endpointId,
  event_id: delivery.eventId,
  event_type: delivery.eventType,
  status: delivery.status,
  attempts: delivery.attempts,
  last_status_code: delivery.lastStatusCode,
  last_error: delivery.lastError,
  last_attempt_at: instantOrNull(delivery.lastAttemptAt),
  next_attempt_at: instantOrNull(delivery.nextAttemptAt),
  delivered_at: instantOrNull(delivery.deliveredAt),
  created_at: formatInstant(delivery.createdAt),
});

export const presentAttempt = (attempt: DeliveryAttempt) => ({
  id: attempt.id,
  delivery_id: attempt.deliveryId,
  attempt: attempt.attempt,
  attempted_at: formatInstant(attempt.attemptedAt),
  duration_ms: attempt.durationMs,
  status_code: attempt.statusCode,
  error: attempt.error,
  request_body: attempt.requestBody,
  response_excerpt: attempt.responseExcerpt,
});
