import { Type } from 'typebox';
import { CANCELLED_SPELLINGS, type CancelledSpelling } from '../domain/compatibility.js';
import { MAX_ID } from '../domain/identifiers.js';
import { WEBHOOK_FORMATS, type WebhookFormat } from '../domain/webhooks/endpoint.js';

/** A partner's compatibility profile, its integration check and a test event's outcome on the wire (both APIs). */
const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });
const Instant = Type.String({ description: 'ISO-8601 UTC with milliseconds' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const CancelledSpelling = Type.Unsafe<CancelledSpelling>(
  Type.Union(
    CANCELLED_SPELLINGS.map((spelling) => Type.Literal(spelling)),
    { description: "cancelled (the spec's, default) or canceled (Wellhub's legacy sandbox)" },
  ),
);
const GymFromKey = Type.Boolean({
  description: 'true: a key limited to exactly one gym may leave X-Gym-Id out (default false)',
});

export const CompatibilityFields = { cancelled_spelling: CancelledSpelling, gym_from_key: GymFromKey };
export const Compatibility = Type.Object({ partner_id: Id, ...CompatibilityFields });
export const CompatibilityBody = Type.Object({
  cancelled_spelling: Type.Optional(CancelledSpelling),
  gym_from_key: Type.Optional(GymFromKey),
});

const Format = Type.Unsafe<WebhookFormat>(Type.Union(WEBHOOK_FORMATS.map((format) => Type.Literal(format))));

export const WebhookHealth = Type.Object({
  id: Id,
  url: Type.String(),
  format: Format,
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  disabled_reason: Nullable(
    Type.Union([Type.Literal('gone'), Type.Literal('failing'), Type.Literal('offboarded')]),
  ),
  last_attempt: Nullable(
    Type.Object({
      at: Instant,
      delivered: Type.Boolean(),
      status_code: Nullable(Type.Integer()),
      error: Nullable(Type.String()),
    }),
  ),
  success_rate_24h: Nullable(
    Type.Number({ minimum: 0, maximum: 1, description: 'Delivered ÷ attempted over the last 24 hours' }),
  ),
  pending: Type.Integer({ minimum: 0 }),
});

export const Integration = Type.Object({
  partner: Type.Object({
    id: Id,
    name: Type.String(),
    environment: Type.Union([Type.Literal('live'), Type.Literal('sandbox')]),
  }),
  key: Nullable(
    Type.Object(
      { prefix: Type.String(), gym_ids: Nullable(Type.Array(Id)) },
      { description: 'The key asking' },
    ),
  ),
  gyms: Type.Array(Type.Object({ id: Id, name: Type.String(), timezone: Type.String() }), {
    description: 'The gyms the key may act on (X-Gym-Id), retired ones left out',
  }),
  rate_limit: Type.Object({
    requests_per_second: Nullable(Type.Integer({ description: 'Per key; null: no limit' })),
  }),
  compatibility: Type.Object(CompatibilityFields),
  webhooks: Type.Array(WebhookHealth),
});

export const TestEventOutcome = Type.Object({
  webhook_id: Id,
  format: Format,
  event_type: Type.Union([Type.Literal('test.ping'), Type.Literal('checkin')]),
  event_id: Nullable(Type.String({ description: 'The webhook-id sent (standard format)' })),
  delivered: Type.Boolean({ description: 'A 2xx within the endpoint’s timeout' }),
  status_code: Nullable(Type.Integer()),
  error: Nullable(Type.String({ description: 'Why no answer came (refused, timed out …)' })),
  duration_ms: Type.Integer({ minimum: 0 }),
  response_excerpt: Nullable(Type.String({ description: 'The first 512 bytes of the answer' })),
});
