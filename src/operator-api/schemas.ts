import { CATEGORY_PATTERN } from '../domain/plans/plan.js';
import { Type, type TSchema } from 'typebox';
import {
  MAX_ID,
  PAGE_LIMIT_PATTERN,
  PLATFORM_ID_PATTERN,
  POSITIVE_INT_PATTERN,
} from '../domain/identifiers.js';
import { ConflictEnvelopeSchema, errorResponses, MemberDetailsSchema } from '../http/schemas.js';
import { NOT_BLANK_PATTERN, OPERATOR_TEXT_PATTERN, TEXT_LIMITS } from '../domain/operator-text.js';

/** Ids in paths and query strings: digit strings, parsed explicitly (never coerced). */
export const IdString = Type.String({ pattern: POSITIVE_INT_PATTERN, description: 'A positive integer' });
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });
export const PlatformId = Type.String({ pattern: PLATFORM_ID_PATTERN, description: '13 digits' });
const Instant = Type.String({ description: 'ISO-8601 UTC with milliseconds' });
const NullableInstant = Type.Union([Instant, Type.Null()]);

export const PageQuery = {
  limit: Type.Optional(Type.String({ pattern: PAGE_LIMIT_PATTERN, description: '1 to 1000, default 100' })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next_cursor of the previous page' })),
};

/** A list that can be read newest first: `order=desc` (a cursor is good only in the order that returned it). */
export const OrderQuery = {
  order: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
      description: 'asc (the default): oldest first; desc: newest first',
    }),
  ),
};

export const Partner = Type.Object({
  id: Id,
  name: Type.String(),
  sandbox: Type.Optional(Type.Literal(true, { description: 'Present on sandbox partners only' })),
  offboarded_at: NullableInstant,
  created_at: Instant,
});
export const Gym = Type.Object({
  id: Id,
  partner_id: Id,
  name: Type.String(),
  timezone: Type.Union([Type.String({ description: 'IANA time zone' }), Type.Null()], {
    description: "The gym's local days (the daily visit limit); null: GATEHOUSE_TIMEZONE",
  }),
  retired_at: NullableInstant,
  created_at: Instant,
});
export const Product = Type.Object({
  id: Id,
  gym_id: Id,
  description: Type.String(),
  payout_cents: Type.Integer(),
  currency: Type.String(),
  retired_at: NullableInstant,
  category: Type.String({ description: 'What plans name it by: standard unless set' }),
});
/** A product's category, as plans name it (src/domain/plans/plan.ts). */
export const ProductCategory = Type.String({
  pattern: CATEGORY_PATTERN,
  description: 'A short slug plans name (1 to 32 lowercase letters, digits or -): standard unless set',
});
/** An IANA time zone name; checked against the runtime's time-zone database by the service. */
export const TimeZone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' });
const KeyFields = {
  id: Id,
  prefix: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  gym_ids: Type.Union([Type.Array(Id), Type.Null()]),
  expires_at: NullableInstant,
  last_used_at: NullableInstant,
  revoked_at: NullableInstant,
  created_at: Instant,
};
export const ApiKey = Type.Object(KeyFields);
export const IssuedApiKey = Type.Object({
  ...KeyFields,
  key: Type.String({ description: 'The secret: returned only here' }),
});
export const CheckinStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('validated'),
  Type.Literal('cancelled'),
  Type.Literal('expired'),
]);
export const Checkin = Type.Object({
  id: Id,
  platform_id: Type.String(),
  gym_id: Id,
  product_id: Id,
  status: CheckinStatus,
  checked_in_at: Instant,
  expires_at: Instant,
  validated_at: NullableInstant,
  cancelled_at: NullableInstant,
  member: Type.Optional(MemberDetailsSchema),
  plan: Type.Optional(
    Type.Object(
      { id: Id, version: Type.Integer({ minimum: 1 }) },
      { description: 'The plan version the check-in was decided under; absent when the member had none' },
    ),
  ),
});

/** A listing's `sandbox` switch: sandbox partners' rows are listed apart from the live network's, never mixed. */
export function sandboxSwitch(rows: string) {
  return Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description: `true: sandbox partners' ${rows}, listed apart from the live ones`,
    }),
  );
}

/** The flag on each row of a sandbox listing. */
export function sandboxFlag(rows: string) {
  return Type.Optional(Type.Literal(true, { description: `Present on sandbox partners' ${rows}` }));
}

export function ListOf(item: TSchema) {
  return Type.Object({ items: Type.Array(item), next_cursor: Type.Union([Type.String(), Type.Null()]) });
}

/** The error answers every operator route shares. */
export const operatorErrorResponses = {
  ...errorResponses(400, 401, 403, 404, 405, 409, 413, 415, 500, 503),
  409: ConflictEnvelopeSchema,
};

/**
 * Operator-written text — a name (partner, gym), a product's description, a key's label, a reason, a reference —
 * under the one free-text rule (src/domain/operator-text.ts): 1 to maxLength characters, no control character,
 * not blank.
 */
export const OperatorText = (maxLength: number) =>
  Type.String({
    minLength: 1,
    maxLength,
    allOf: [{ pattern: OPERATOR_TEXT_PATTERN }, { pattern: NOT_BLANK_PATTERN }],
  });
export const Name = OperatorText(TEXT_LIMITS.name);
