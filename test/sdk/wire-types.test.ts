import type { Static } from 'typebox';
import { describe, expectTypeOf, test } from 'vitest';
import type * as Sdk from '../../sdk/src/types.js';
import type { ErrorEnvelopeSchema, ExplicitDenySchema, UnauthorizedSchema } from '../../src/http/schemas.js';
import type {
  CustomCodeBody,
  CustomCodeResult,
  EmptyResult,
  TransactionsPage,
  TransactionsQuery,
  ValidateBody,
  ValidationResult,
} from '../../src/partner-api/schemas.js';
import type { Compatibility, Integration, TestEventOutcome } from '../../src/http/integration-wire.js';
import type { CreatedEndpoint, Endpoint, EndpointBody } from '../../src/http/webhook-wire.js';

/*
 * The SDK's published types are written out (so they need nothing else installed); these assertions are checked
 * by the typecheck (`npm run typecheck`): each type must equal the one of the server's own route schema.
 */
describe("the SDK's wire types are the server's", () => {
  test('when the typecheck compares each SDK type with its route schema, then they are equal', () => {
    expectTypeOf<Sdk.ValidateRequestBody>().toEqualTypeOf<Static<typeof ValidateBody>>();
    expectTypeOf<Sdk.ValidationResultBody>().toEqualTypeOf<Static<typeof ValidationResult>>();
    expectTypeOf<Sdk.CustomCodeRequestBody>().toEqualTypeOf<Static<typeof CustomCodeBody>>();
    expectTypeOf<Sdk.EmptyResultBody>().toEqualTypeOf<Static<typeof EmptyResult>>();
    expectTypeOf<Sdk.CustomCodeResultBody>().toEqualTypeOf<Static<typeof CustomCodeResult>>();
    expectTypeOf<Sdk.TransactionsQueryParams>().toEqualTypeOf<Static<typeof TransactionsQuery>>();
    expectTypeOf<Sdk.TransactionsPageBody>().toEqualTypeOf<Static<typeof TransactionsPage>>();
    expectTypeOf<Sdk.ErrorEnvelope>().toEqualTypeOf<Static<typeof ErrorEnvelopeSchema>>();
    expectTypeOf<Sdk.ExplicitDenyBody>().toEqualTypeOf<Static<typeof ExplicitDenySchema>>();
    expectTypeOf<Sdk.UnauthorizedBody>().toEqualTypeOf<Static<typeof UnauthorizedSchema>>();
    expectTypeOf<Sdk.CompatibilityProfile>().toEqualTypeOf<
      Omit<Static<typeof Compatibility>, 'partner_id'>
    >();
    expectTypeOf<Sdk.Integration>().toEqualTypeOf<Static<typeof Integration>>();
    expectTypeOf<Sdk.TestEventOutcome>().toEqualTypeOf<Static<typeof TestEventOutcome>>();
    expectTypeOf<Sdk.WebhookEndpointRequestBody>().toEqualTypeOf<Static<typeof EndpointBody>>();
    expectTypeOf<Sdk.WebhookEndpoint>().toEqualTypeOf<Static<typeof Endpoint>>();
    expectTypeOf<Sdk.CreatedWebhookEndpoint>().toEqualTypeOf<Static<typeof CreatedEndpoint>>();
  });
});
