/** @gatehouse/client: a typed client of the gatehouse partner API (/access/v1), with no runtime dependencies. */
export {
  GatehouseClient,
  type CreateWebhookInput,
  type GatehouseClientOptions,
  type ListTransactionsInput,
  type TransactionsList,
} from './client.js';
export { GatehouseError, OutcomeUnknownError, type GatehouseErrorKey } from './errors.js';
export type { RetryPolicy } from './transport.js';
export type { ValidateInput, ValidateResult, ValidateRetry } from './validate.js';
export type * from './types.js';
export {
  isTestEvent,
  TEST_MEMBER_TOKEN,
  verifyWebhook,
  WebhookVerificationError,
  type CheckinEventData,
  type CustomCodeEventData,
  type MemberDetails,
  type ReversalEventData,
  type SandboxMark,
  type TestPingData,
  type ValidatedEventData,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookHeaders,
  type WellhubCheckinEvent,
} from './webhooks.js';
