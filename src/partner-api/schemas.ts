import { Type } from 'typebox';
import {
  CUSTOM_CODE_MAX_LENGTH,
  CUSTOM_CODE_MIN_LENGTH,
  CUSTOM_CODE_NO_CONTROL_PATTERN,
  CUSTOM_CODE_NOT_BLANK_PATTERN,
  CUSTOM_CODE_WELL_FORMED_PATTERN,
} from '../domain/custom-code.js';
import { GYM_ID_PATTERN, MAX_ID, PAGE_LIMIT_PATTERN, PLATFORM_ID_PATTERN } from '../domain/identifiers.js';
import {
  ErrorEnvelopeSchema,
  PricingSchema,
  ExplicitDenySchema,
  MemberDetailsSchema,
  UnauthorizedSchema,
  errorResponses,
} from '../http/schemas.js';

const PlatformId = Type.String({ pattern: PLATFORM_ID_PATTERN, description: 'The member: 13 digits' });

const CustomCode = Type.String({
  minLength: CUSTOM_CODE_MIN_LENGTH,
  maxLength: CUSTOM_CODE_MAX_LENGTH,
  allOf: [
    { pattern: CUSTOM_CODE_NOT_BLANK_PATTERN },
    { pattern: CUSTOM_CODE_NO_CONTROL_PATTERN },
    { pattern: CUSTOM_CODE_WELL_FORMED_PATTERN },
  ],
  description: '1 to 13 characters, not blank, no control characters',
});

export const PartnerHeaders = Type.Object({
  authorization: Type.String({ description: 'Bearer <API_KEY>' }),
  // Required, unless the partner's profile has gym_from_key and the key has one gym (docs/contract.md).
  'x-gym-id': Type.Optional(
    Type.String({
      pattern: GYM_ID_PATTERN,
      description:
        "The gym acted on; a key limited to one gym may leave it out when its partner's profile says so",
    }),
  ),
});

export const PlatformIdParams = Type.Object({ platform_id: PlatformId });

/** One of platform_id or its alias gympass_id must be a string. */
const ONE_MEMBER_ID = [
  { required: ['platform_id'], properties: { platform_id: { type: 'string' } } },
  { required: ['gympass_id'], properties: { gympass_id: { type: 'string' } } },
];

/**
 * Validate's body. `gympass_id` is an alias of `platform_id` (the name most partner clients send); one of them
 * must be a string. Unknown fields are allowed and ignored.
 */
export const ValidateBody = Type.Object(
  {
    platform_id: Type.Optional(Type.Union([PlatformId, Type.Null()])),
    gympass_id: Type.Optional(Type.Union([PlatformId, Type.Null()])),
    custom_code: Type.Optional(Type.Union([CustomCode, Type.Null()])),
  },
  { anyOf: ONE_MEMBER_ID },
);

export const CustomCodeBody = Type.Object({ custom_code: CustomCode });

/** A successful answer's metadata: how many records it holds, and no errors. */
export const Metadata = Type.Object({ total: Type.Integer(), errors: Type.Literal(0) });

export const ValidationResult = Type.Object({
  metadata: Metadata,
  results: Type.Object({
    user: Type.Object({ platform_id: Type.String(), gympass_id: Type.Optional(Type.String()) }),
    gym: Type.Object({
      Id: Type.Integer(),
      product: Type.Object({ Id: Type.Integer(), description: Type.String() }),
    }),
    validated_at: Type.String({ description: 'YYYY-MM-DDThh:mm:ssZ' }),
  }),
});

export const EmptyResult = Type.Object({ metadata: Metadata, results: Type.Object({}) });

export const CustomCodeResult = Type.Object({
  metadata: Metadata,
  results: Type.Object({ platform_id: Type.String(), custom_code: Type.String(), updated_at: Type.String() }),
});

export const GymTransaction = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('visit'), Type.Literal('reversal')]),
  checkin_id: Type.Integer(),
  platform_id: Type.String(),
  product: Type.Object({ Id: Type.Integer(), description: Type.String() }),
  payout_cents: Type.Integer(),
  currency: Type.String(),
  validated_at: Type.String({ description: 'YYYY-MM-DDThh:mm:ssZ' }),
  effective_at: Type.String({ description: "A visit's validated_at; when a reversal was made" }),
  reverses: Type.Union([Type.Integer(), Type.Null()], { description: 'The visit a reversal reverses' }),
  reason: Type.Union([Type.String(), Type.Null()]),
  pricing: PricingSchema,
});

/** GET /access/v1/transactions: a period and a page of the calling gym's visits. */
export const TransactionsQuery = Type.Object({
  from: Type.Optional(Type.String({ description: 'inclusive; ISO-8601, UTC by default' })),
  to: Type.Optional(Type.String({ description: 'exclusive' })),
  limit: Type.Optional(Type.String({ pattern: PAGE_LIMIT_PATTERN })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  order: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
      description:
        'asc (the default): the feed, in commit order; desc: newest first, to look at (a cursor is good only in the order that returned it)',
    }),
  ),
  kind: Type.Optional(
    Type.Union([Type.Literal('visit'), Type.Literal('reversal')], {
      description: 'visit: validated visits only; reversal: reversal entries only; absent: both',
    }),
  ),
});

export const TransactionsPage = Type.Object({
  metadata: Type.Object({ total: Type.Integer(), errors: Type.Literal(0) }),
  results: Type.Array(GymTransaction),
  next_cursor: Type.String({ description: 'On every page, the last one too: poll with it for what follows' }),
  has_more: Type.Boolean({ description: 'Whether more rows follow now' }),
});

/** The error answers every partner route shares. */
export const partnerErrorResponses = {
  ...errorResponses(400, 404, 405, 413, 415, 429, 500, 503),
  401: UnauthorizedSchema,
  403: ExplicitDenySchema,
};

export { ErrorEnvelopeSchema };

/** A simulated check-in (the sandbox): the member by platform_id or its alias gympass_id, as validate takes it. */
export const SandboxCheckinBody = Type.Object(
  {
    platform_id: Type.Optional(Type.Union([PlatformId, Type.Null()])),
    gympass_id: Type.Optional(Type.Union([PlatformId, Type.Null()])),
    product_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_ID, description: "Default: the gym's first product" }),
    ),
    member: Type.Optional(MemberDetailsSchema),
    checked_in_at: Type.Optional(Type.String({ maxLength: 40, description: 'ISO-8601; default now' })),
  },
  { anyOf: ONE_MEMBER_ID },
);

const Instant = Type.String({ description: 'ISO-8601 UTC with milliseconds' });
const NullableInstant = Type.Union([Instant, Type.Null()]);

export const SandboxCheckinResult = Type.Object({
  metadata: Metadata,
  results: Type.Object({
    id: Type.Integer(),
    platform_id: Type.String(),
    gym_id: Type.Integer(),
    product_id: Type.Integer(),
    status: Type.String(),
    checked_in_at: Instant,
    expires_at: Instant,
    validated_at: NullableInstant,
    cancelled_at: NullableInstant,
    member: Type.Optional(MemberDetailsSchema),
  }),
});

/** Wellhub's sandbox helper: `gympass_user_id` is the member's platform_id. */
export const WellhubSimulationBody = Type.Object({
  gympass_user_id: PlatformId,
  product_id: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID })),
});
export const WellhubGymParams = Type.Object({
  gym_id: Type.String({ pattern: GYM_ID_PATTERN, description: 'The gym the member checks in at' }),
});

const WellhubText = Type.String();
const WellhubDetail = Type.Optional(Type.String({ minLength: 1 }));
export const WellhubCheckinPayload = Type.Object(
  {
    event_type: Type.Literal('checkin'),
    event_data: Type.Object({
      user: Type.Object(
        {
          unique_token: WellhubText,
          first_name: WellhubDetail,
          last_name: WellhubDetail,
          email: WellhubDetail,
          phone_number: WellhubDetail,
        },
        { description: 'A detail the check-in has no value for is left out, never an empty string or null' },
      ),
      gym: Type.Object({
        id: Type.Integer(),
        title: WellhubText,
        product: Type.Object({ id: Type.Integer(), description: WellhubText }),
      }),
      timestamp: Type.Integer({ description: 'Unix seconds' }),
    }),
  },
  { description: "The checkin webhook payload the simulation fired, as Wellhub's helper answers" },
);
