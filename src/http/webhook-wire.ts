import { Type } from 'typebox';
import { PARTNER_EVENT_TYPES, type PartnerEventType } from '../domain/events.js';
import { MAX_ID } from '../domain/identifiers.js';
import {
  MAX_TIMEOUT_MS,
  MAX_URL_LENGTH,
  WEBHOOK_FORMATS,
  type WebhookFormat,
} from '../domain/webhooks/endpoint.js';

export { presentAttempt, presentDelivery, presentEndpoint } from '../presenters/webhooks.js';

/** Webhook endpoints and deliveries on the wire, the same for the operator and for a partner's own key. */
const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });
const Instant = Type.String({ description: 'ISO-8601 UTC with milliseconds' });
const NullableInstant = Type.Union([Instant, Type.Null()]);
// A partner's endpoint is never sent a network event (a plan, a member's plan): it cannot ask for one.
const EventType = Type.Unsafe<PartnerEventType>(
  Type.Union(PARTNER_EVENT_TYPES.map((type) => Type.Literal(type))),
);
const Format = Type.Unsafe<WebhookFormat>(Type.Union(WEBHOOK_FORMATS.map((format) => Type.Literal(format))));

const EventTypes = Type.Union(
  [Type.Array(EventType, { minItems: 1, maxItems: PARTNER_EVENT_TYPES.length }), Type.Null()],
  {
    description: 'Only these event types; absent or null: every type',
  },
);
const GymIds = Type.Union([Type.Array(Id, { minItems: 1, maxItems: 1000 }), Type.Null()], {
  description: 'Only these gyms of the partner; absent or null: every gym, present and future',
});
const Url = Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'http or https' });
const TimeoutMs = Type.Integer({
  minimum: 100,
  maximum: MAX_TIMEOUT_MS,
  description: 'Default 15000; 1000 for the wellhub format',
});
const Secret = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'standard: whsec_ + base64 of 24 to 64 bytes (made for you when absent); wellhub: your own, required, up to 100 characters',
});

export const EndpointBody = Type.Object({
  url: Url,
  event_types: Type.Optional(EventTypes),
  gym_ids: Type.Optional(GymIds),
  format: Type.Optional(Format),
  secret: Type.Optional(Secret),
  timeout_ms: Type.Optional(TimeoutMs),
});

export const EndpointPatch = Type.Object({
  url: Type.Optional(Url),
  event_types: Type.Optional(EventTypes),
  gym_ids: Type.Optional(GymIds),
  timeout_ms: Type.Optional(TimeoutMs),
});

export const SecretBody = Type.Object({ secret: Type.Optional(Secret) });
export const RecoverBody = Type.Object({
  since: Type.String({ maxLength: 40, description: 'ISO-8601: failed deliveries created since then' }),
});

const EndpointFields = {
  id: Id,
  partner_id: Id,
  url: Type.String(),
  event_types: Type.Union([Type.Array(EventType), Type.Null()]),
  gym_ids: Type.Union([Type.Array(Id), Type.Null()]),
  format: Format,
  timeout_ms: Type.Integer(),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  disabled_reason: Type.Union(
    [Type.Literal('gone'), Type.Literal('failing'), Type.Literal('offboarded'), Type.Null()],
    {
      description:
        'gone: the receiver answered 410; failing: every delivery failed for 5 days; offboarded: the partner was',
    },
  ),
  created_at: Instant,
  updated_at: Instant,
};
export const Endpoint = Type.Object(EndpointFields);
export const CreatedEndpoint = Type.Object({
  ...EndpointFields,
  secret: Type.String({ description: 'The signing secret: returned only here' }),
});
export const NewSecret = Type.Object({
  secret: Type.String({ description: 'The new signing secret, shown once' }),
});

export const DeliveryStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('delivered'),
  Type.Literal('failed'),
]);
export const Delivery = Type.Object({
  id: Id,
  webhook_id: Id,
  event_id: Type.String(),
  event_type: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  last_status_code: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  last_attempt_at: NullableInstant,
  next_attempt_at: NullableInstant,
  delivered_at: NullableInstant,
  created_at: Instant,
});
export const DeliveryAttempt = Type.Object({
  id: Id,
  delivery_id: Id,
  attempt: Type.Integer({ minimum: 1, description: "1 for the delivery's first attempt" }),
  attempted_at: Instant,
  duration_ms: Type.Integer({ minimum: 0, description: 'From sending the request to the end of the answer' }),
  status_code: Type.Union([Type.Integer(), Type.Null()], {
    description: "The receiver's status; null: no answer",
  }),
  error: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the attempt failed; null when delivered',
  }),
  request_body: Type.Union([Type.String(), Type.Null()], {
    description:
      'The body sent; null once the event payload is purged (GATEHOUSE_EVENT_RETENTION_DAYS) or erased',
  }),
  response_excerpt: Type.Union([Type.String(), Type.Null()], {
    description: 'The first 1024 bytes of the answer, control characters written as \\uXXXX; null: no answer',
  }),
});
export const DeliveryQuery = {
  status: Type.Optional(DeliveryStatus),
  event_type: Type.Optional(EventType),
};
export const Recovered = Type.Object({
  recovered: Type.Integer({ description: 'Failed deliveries due again now' }),
});

/** The body fields as the services take them. */
export function endpointInput(body: {
  url?: string;
  event_types?: PartnerEventType[] | null;
  gym_ids?: number[] | null;
  timeout_ms?: number;
}) {
  return {
    ...(body.url === undefined ? {} : { url: body.url }),
    ...(body.event_types === undefined ? {} : { eventTypes: body.event_types }),
    ...(body.gym_ids === undefined ? {} : { gymIds: body.gym_ids }),
    ...(body.timeout_ms === undefined ? {} : { timeoutMs: body.timeout_ms }),
  };
}
