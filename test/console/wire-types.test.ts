import type { Static } from 'typebox';
import { describe, expectTypeOf, test } from 'vitest';
import type * as Console from '../../console/src/wire.js';
import type {
  Compatibility,
  Integration,
  TestEventOutcome,
  WebhookHealth,
} from '../../src/http/integration-wire.js';
import type {
  ErrorEnvelopeSchema,
  ExplicitDenySchema,
  MemberDetailsSchema,
  PricingSchema,
  UnauthorizedSchema,
} from '../../src/http/schemas.js';
import type { Delivery, DeliveryAttempt, Endpoint } from '../../src/http/webhook-wire.js';
import type { ListedCheckin } from '../../src/operator-api/checkin-routes.js';
import type { Event } from '../../src/operator-api/event-routes.js';
import type { ListedPayout, ListedTransaction } from '../../src/operator-api/ledger-routes.js';
import type { AuditEntry } from '../../src/operator-api/lookup-routes.js';
import type { Erasure } from '../../src/operator-api/member-routes.js';
import type { PayoutRulesVersion } from '../../src/operator-api/payout-rule-routes.js';
import type { PlanRule, PlanWithVersions } from '../../src/operator-api/plan-wire.js';
import type { IssuedOperator, Me, Operator } from '../../src/operator-api/operator-routes.js';
import type { ApiKey, Gym, IssuedApiKey, Partner, Product } from '../../src/operator-api/schemas.js';
import type { Settlement } from '../../src/operator-api/settlement-routes.js';
import type { ValidationStats } from '../../src/operator-api/stats-routes.js';
import type { GymTransaction, ValidationResult } from '../../src/partner-api/schemas.js';
import type { WaitingList } from '../../src/partner-api/waiting-list-route.js';

/**
 * The fields of a body the console reads: the route schema's type narrowed to the console's keys. A console type
 * equal to it names no field the server does not send, and types each one exactly as the server does.
 */
type Read<ConsoleType, Schema> = Pick<Schema, keyof ConsoleType & keyof Schema>;
type Item<List> = List extends readonly (infer T)[] ? T : never;

/*
 * The console's types of the API's bodies are written out in console/src/wire.ts (the browser bundle imports nothing
 * of the server); these assertions are checked by the typecheck (`npm run typecheck`), as the SDK's are
 * (test/sdk/wire-types.test.ts): each must equal what its route schema answers, as far as the console reads it.
 */
describe("the console's wire types are the server's", () => {
  test('when the typecheck compares each console type with its route schema, then they are equal', () => {
    expectTypeOf<Console.Partner>().toEqualTypeOf<Read<Console.Partner, Static<typeof Partner>>>();
    expectTypeOf<Console.Gym>().toEqualTypeOf<Read<Console.Gym, Static<typeof Gym>>>();
    expectTypeOf<Console.Product>().toEqualTypeOf<Read<Console.Product, Static<typeof Product>>>();
    expectTypeOf<Console.ApiKey>().toEqualTypeOf<Read<Console.ApiKey, Static<typeof ApiKey>>>();
    expectTypeOf<Console.IssuedKey>().toEqualTypeOf<Read<Console.IssuedKey, Static<typeof IssuedApiKey>>>();
    expectTypeOf<Console.CompatibilityProfile>().toEqualTypeOf<
      Read<Console.CompatibilityProfile, Static<typeof Compatibility>>
    >();
    expectTypeOf<Console.Webhook>().toEqualTypeOf<Read<Console.Webhook, Static<typeof Endpoint>>>();
    expectTypeOf<Console.Delivery>().toEqualTypeOf<Read<Console.Delivery, Static<typeof Delivery>>>();
    expectTypeOf<Console.WebhookHealth>().toEqualTypeOf<
      Read<Console.WebhookHealth, Static<typeof WebhookHealth>>
    >();
    expectTypeOf<Console.TestOutcome>().toEqualTypeOf<
      Read<Console.TestOutcome, Static<typeof TestEventOutcome>>
    >();
    expectTypeOf<Console.Pricing>().toEqualTypeOf<Static<typeof PricingSchema>>();
    expectTypeOf<Console.RulePricing>().toEqualTypeOf<
      Item<Item<Static<typeof Settlement>['lines']>['pricing']>
    >();
    expectTypeOf<Console.LedgerEntry>().toEqualTypeOf<
      Read<Console.LedgerEntry, Static<typeof ListedTransaction>>
    >();
    expectTypeOf<Console.Payout>().toEqualTypeOf<Read<Console.Payout, Static<typeof ListedPayout>>>();
    expectTypeOf<Console.Settlement>().toEqualTypeOf<Read<Console.Settlement, Static<typeof Settlement>>>();
    expectTypeOf<Console.AuditEntry>().toEqualTypeOf<Static<typeof AuditEntry>>();
    expectTypeOf<Console.ValidationStats>().toEqualTypeOf<
      Read<Console.ValidationStats, Static<typeof ValidationStats>>
    >();
    expectTypeOf<Console.Operator>().toEqualTypeOf<Read<Console.Operator, Static<typeof Operator>>>();
    expectTypeOf<Console.CreatedOperator>().toEqualTypeOf<
      Read<Console.CreatedOperator, Static<typeof IssuedOperator>>
    >();
    expectTypeOf<Console.Me>().toEqualTypeOf<Read<Console.Me, Static<typeof Me>>>();
    expectTypeOf<Console.KeyGym>().toEqualTypeOf<Item<Static<typeof Integration>['gyms']>>();
    expectTypeOf<Console.Erasure>().toEqualTypeOf<Read<Console.Erasure, Static<typeof Erasure>>>();
    expectTypeOf<Console.MemberDetails>().toEqualTypeOf<
      Read<Console.MemberDetails, Static<typeof MemberDetailsSchema>>
    >();
    expectTypeOf<Console.WaitingCheckin>().toEqualTypeOf<
      Read<Console.WaitingCheckin, Item<Static<typeof WaitingList>['results']>>
    >();
    expectTypeOf<Console.DeskVisit>().toEqualTypeOf<Read<Console.DeskVisit, Static<typeof GymTransaction>>>();
    expectTypeOf<Console.ListedCheckin>().toEqualTypeOf<
      Read<Console.ListedCheckin, Static<typeof ListedCheckin>>
    >();
    expectTypeOf<Console.DeliveryAttempt>().toEqualTypeOf<
      Read<Console.DeliveryAttempt, Static<typeof DeliveryAttempt>>
    >();
    expectTypeOf<Console.PayoutRules>().toEqualTypeOf<
      Read<Console.PayoutRules, Static<typeof PayoutRulesVersion>>
    >();
  });

  test('when a type is read more narrowly than the schema says, then it names the same fields and each is one the schema allows', () => {
    // A plan's rules come back only as the domain accepted them: per and scope are one of their words.
    type Rule = Static<typeof PlanRule>;
    expectTypeOf<Console.PlanRule>().toExtend<Rule>();
    expectTypeOf<keyof Console.PlanRule>().toEqualTypeOf<keyof Rule>();
    type Versioned = Static<typeof PlanWithVersions>;
    type Flat = Omit<Console.Plan, 'rules' | 'versions'>;
    expectTypeOf<Flat>().toEqualTypeOf<Read<Flat, Versioned>>();
    expectTypeOf<keyof Console.Plan>().toExtend<keyof Versioned>();
    expectTypeOf<Console.Plan['versions']>().toExtend<Versioned['versions']>();
  });

  test('when a type is read more widely than the server sends it, then every body the server sends is one it accepts', () => {
    // An event's type is shown as text, whatever it is: a newer server's event types too.
    expectTypeOf<Read<Console.StreamEvent, Static<typeof Event>>>().toExtend<Console.StreamEvent>();
    expectTypeOf<keyof Console.StreamEvent>().toEqualTypeOf<keyof Static<typeof Event>>();
    // The validation answer's product, as the desk shows it.
    expectTypeOf<Static<typeof ValidationResult>>().toExtend<Console.ValidationAnswer>();
    // Any error answer: the envelope, or the spec's 401 and 403 shapes.
    expectTypeOf<Static<typeof ErrorEnvelopeSchema>>().toExtend<Console.ErrorBody>();
    expectTypeOf<Static<typeof ExplicitDenySchema>>().toExtend<Console.ErrorBody>();
    expectTypeOf<Static<typeof UnauthorizedSchema>>().toExtend<Console.ErrorBody>();
  });
});
