import { Type, type TSchema } from 'typebox';
import { MEMBER_FIELD_MAX_LENGTH } from '../domain/member-details.js';
import { OPERATOR_TEXT_PATTERN } from '../domain/operator-text.js';

/** Response schemas shared by every route: the error envelope, the explicit deny and the 401. */
export const ErrorEnvelopeSchema = Type.Object(
  {
    metadata: Type.Object({ total: Type.Literal(0), errors: Type.Literal(1) }),
    errors: Type.Array(Type.Object({ message: Type.String(), key: Type.String() })),
    request_id: Type.Optional(Type.String()),
  },
  { description: 'Error envelope' },
);

/**
 * The operator API's 409: the envelope, whose error may carry details of the refusal (a plan's rule, the count it
 * used, when it resets). The partner API's envelope never does.
 */
export const ConflictEnvelopeSchema = Type.Object(
  {
    metadata: Type.Object({ total: Type.Literal(0), errors: Type.Literal(1) }),
    errors: Type.Array(
      Type.Object({
        message: Type.String(),
        key: Type.String(),
        details: Type.Optional(
          Type.Record(Type.String(), Type.Unknown(), {
            description: 'What the refusal is about, where its key has details',
          }),
        ),
      }),
    ),
    request_id: Type.Optional(Type.String()),
  },
  { description: 'Error envelope' },
);

export const ExplicitDenySchema = Type.Object(
  {
    metadata: Type.Object({ total: Type.Literal(0), errors: Type.Literal(1) }),
    errors: Type.Array(Type.Object({ Message: Type.String() })),
    Message: Type.String(),
  },
  { description: 'The API key is not valid for this gym' },
);

export const UnauthorizedSchema = Type.Object(
  { message: Type.Literal('Unauthorized') },
  { description: 'No bearer token' },
);

/** Every error status a route can answer, each with its body schema. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorEnvelopeSchema]));
}

const MemberField = Type.Optional(
  Type.String({ maxLength: MEMBER_FIELD_MAX_LENGTH, pattern: OPERATOR_TEXT_PATTERN }),
);

/** What the front desk may show of a member (src/domain/member-details.ts): each field optional. */
export const MemberDetailsSchema = Type.Object(
  { first_name: MemberField, last_name: MemberField, email: MemberField, phone_number: MemberField },
  {
    description: 'Shown at the front desk; never logged, erased with the member',
    additionalProperties: false,
  },
);

/** How a ledger entry was priced (README, "Plans and payout rules"): the same in both APIs. */
export const PricingSchema = Type.Object(
  {
    list_cents: Type.Integer({ description: "the product's price; a reversal's: what it takes back" }),
    paid_cents: Type.Integer({ description: 'what is paid: the payout_cents of the entry' }),
    rule: Type.Union([Type.Literal('list'), Type.Literal('monthly-cap'), Type.Literal('volume-tier')], {
      description: 'why it is paid what it is (a reversal: the rule of the visit it reverses)',
    }),
    version: Type.Union([Type.Integer(), Type.Null()], {
      description: 'the version of the payout rules that priced it; null: none was in force',
    }),
  },
  { description: 'How the entry was priced' },
);

/** A settlement line's entries per pricing rule: together they explain the line's total. */
export const RulePricingSchema = Type.Array(
  Type.Object({
    rule: PricingSchema.properties.rule,
    count: Type.Integer({ description: 'entries: visits and reversals' }),
    list_cents: Type.Integer(),
    paid_cents: Type.Integer({ description: 'their share of the total' }),
  }),
  { description: "the line's entries per pricing rule: paid_cents sum to total_cents" },
);
