import type { EventType, LoggedEvent } from '../events.js';
import { InputError } from '../errors.js';

/** Standard Webhooks, or Wellhub's `checkin` webhook (src/domain/webhooks/wellhub-format.ts). */
export const WEBHOOK_FORMATS = ['standard', 'wellhub'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const DEFAULT_TIMEOUT_MS = 15_000;
export const MAX_TIMEOUT_MS = 30_000;
export const MAX_URL_LENGTH = 2048;

export type EndpointStatus = 'enabled' | 'disabled';
/** Why an endpoint stopped: the receiver answered 410 Gone, or every delivery failed for days. */
/** gone: 410; failing: 5 days of failures; offboarded: its partner was offboarded. */
export type DisabledReason = 'gone' | 'failing' | 'offboarded';

export interface WebhookEndpoint {
  readonly id: number;
  readonly partnerId: number;
  readonly url: string;
  /** null: every event type. */
  readonly eventTypes: readonly EventType[] | null;
  /** null: every gym of the partner, present and future. */
  readonly gymIds: readonly number[] | null;
  readonly format: WebhookFormat;
  readonly timeoutMs: number;
  readonly status: EndpointStatus;
  readonly disabledReason: DisabledReason | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A webhook URL as given: http or https, with a host, no longer than the log can show. */
export function parseWebhookUrl(text: string): URL {
  if (text.length > MAX_URL_LENGTH)
    throw new InputError('url', `must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError('url', 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError('url', 'must be an http or https URL');
  }
  if (url.hostname === '') throw new InputError('url', 'must name a host');
  if (url.username !== '' || url.password !== '') {
    throw new InputError('url', 'must not hold credentials: they would show in every listing');
  }
  return url;
}

/** Whether an event is one the endpoint asked for (its partner, types and gyms). */
export function endpointWants(
  endpoint: Pick<WebhookEndpoint, 'partnerId' | 'eventTypes' | 'gymIds'>,
  event: Pick<LoggedEvent, 'partnerId' | 'type' | 'gymId'>,
): boolean {
  return (
    endpoint.partnerId === event.partnerId &&
    (endpoint.eventTypes === null || endpoint.eventTypes.includes(event.type)) &&
    (endpoint.gymIds === null || endpoint.gymIds.includes(event.gymId))
  );
}

/** The order key of an event: one member at one gym. Every event names both. */
export function memberKey(event: Pick<LoggedEvent, 'gymId' | 'data'>): string {
  const platformId = event.data?.platform_id;
  return `${event.gymId}:${typeof platformId === 'string' ? platformId : ''}`;
}

/** The body a receiver gets: the same bytes on every attempt, so the signature and dedup stay simple. */
export function deliveryBody(event: { type: string; occurredAt: number; data: unknown }): string {
  return JSON.stringify({
    type: event.type,
    timestamp: new Date(event.occurredAt).toISOString(),
    data: event.data,
  });
}
