import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a check-in event says: `checkin.created` and `checkin.cancelled` carry this. */
export interface CheckinEventData {
  readonly checkin_id: number;
  readonly platform_id: string;
  readonly gym_id: number;
  readonly product: { readonly id: number; readonly description: string };
  readonly status: 'pending' | 'validated' | 'cancelled';
  readonly checked_in_at: string;
  readonly expires_at: string;
  readonly member?: MemberDetails;
}

export interface MemberDetails {
  readonly first_name?: string;
  readonly last_name?: string;
  readonly email?: string;
  readonly phone_number?: string;
}

/** `checkin.validated` adds the ledger row it wrote. */
export interface ValidatedEventData extends CheckinEventData {
  readonly transaction_id: number;
  readonly validated_at: string;
  readonly payout_cents: number;
  readonly currency: string;
}

/**
 * `transaction.reversed`: a visit reversed, wholly or in part, by the operator. `payout_cents` is what the reversal
 * takes back, negative; `id` is the reversal's own ledger entry, `transaction_id` the visit it reverses.
 */
export interface ReversalEventData {
  readonly id: number;
  readonly transaction_id: number;
  readonly checkin_id: number;
  readonly platform_id: string;
  readonly gym_id: number;
  readonly payout_cents: number;
  readonly currency: string;
  readonly reason: string;
  readonly effective_at: string;
}

/** `custom_code.*` events name the member and the gym, never the code. */
export interface CustomCodeEventData {
  readonly platform_id: string;
  readonly gym_id: number;
}

/** A test event's data (`test.ping`, sent by a test of the endpoint, never by a visit). */
export interface TestPingData {
  readonly webhook_id: number;
  readonly partner_id: number;
  readonly test: true;
}

/** The `unique_token` of the test member of a Wellhub-format test event: no real member has it. */
export const TEST_MEMBER_TOKEN = '0000000000000';

/**
 * On a sandbox partner's events (and only there): they come from test check-ins, never a real visit or money.
 * Wellhub-format deliveries say it in the `X-Gatehouse-Sandbox: true` header instead.
 */
export interface SandboxMark {
  readonly sandbox?: true;
}

interface Standard<T extends string, D> {
  readonly format: 'standard';
  /** The event id (`webhook-id`): deduplicate on it, deliveries come at least once. */
  readonly id: string;
  readonly type: T;
  readonly timestamp: string;
  readonly data: D & SandboxMark;
}

/** Wellhub's `checkin` event, as endpoints registered with the wellhub format receive it. */
export interface WellhubCheckinEvent {
  readonly format: 'wellhub';
  readonly event_type: 'checkin';
  readonly event_data: {
    /** The member's details the check-in has a value for; the others are absent, never `""` or null. */
    readonly user: { readonly unique_token: string } & MemberDetails;
    readonly gym: {
      readonly id: number;
      readonly title: string;
      readonly product: { readonly id: number; readonly description: string };
    };
    readonly timestamp: number;
  };
}

/** Every delivery `verifyWebhook` accepts, told apart by `format`, then by `type`. */
export type WebhookEvent =
  | Standard<'checkin.created' | 'checkin.cancelled', CheckinEventData>
  | Standard<'checkin.validated', ValidatedEventData>
  | Standard<'custom_code.created' | 'custom_code.updated' | 'custom_code.deleted', CustomCodeEventData>
  | Standard<'transaction.reversed', ReversalEventData>
  | Standard<'test.ping', TestPingData>
  | WellhubCheckinEvent;

/**
 * Whether a verified event came from a test of the endpoint (`testWebhook`, the operator's test) rather than a
 * visit: a `test.ping`, or a Wellhub `checkin` of the test member. Answer it 2xx and act on nothing.
 */
export function isTestEvent(event: WebhookEvent): boolean {
  return event.format === 'standard'
    ? event.type === 'test.ping'
    : event.event_data.user.unique_token === TEST_MEMBER_TOKEN;
}

/** The delivery is not one signed with this secret (or is too old to be trusted). */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export type WebhookHeaders =
  | { readonly get: (name: string) => string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyOptions {
  /** How far a standard delivery's `webhook-timestamp` may be from now (default 300 s), against replays. */
  readonly toleranceSeconds?: number;
  /** Now, in milliseconds (default `Date.now()`). */
  readonly now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return headers.get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const found = Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return typeof found === 'string' ? found : found?.[0];
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}

function verifyStandard(body: string, headers: WebhookHeaders, secret: string, options: VerifyOptions) {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature') ?? '';
  if (id === undefined || timestamp === undefined || !/^\d+$/.test(timestamp)) {
    throw new WebhookVerificationError('webhook-id or webhook-timestamp is missing');
  }
  const age = Math.abs((options.now ?? Date.now()) / 1000 - Number(timestamp));
  if (age > (options.toleranceSeconds ?? 300)) throw new WebhookVerificationError('the timestamp is too old');
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  const good = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => sameBytes(Buffer.from(entry.slice(3), 'base64'), expected));
  if (!good) throw new WebhookVerificationError('no signature matches the secret');
  const payload = parse(body) as { type: string; timestamp: string; data: unknown };
  return { format: 'standard', id, ...payload } as WebhookEvent;
}

function verifyWellhub(body: string, signature: string, secret: string): WebhookEvent {
  const given = Buffer.from(signature.replace(/^0x/i, '').toUpperCase(), 'utf8');
  const expected = Buffer.from(createHmac('sha1', secret).update(body).digest('hex').toUpperCase(), 'utf8');
  if (!sameBytes(given, expected)) throw new WebhookVerificationError('X-Gympass-Signature does not match');
  const payload = parse(body) as Omit<WellhubCheckinEvent, 'format'>;
  return { format: 'wellhub', ...payload };
}

/**
 * Checks a webhook delivery against the endpoint's secret and returns its event, typed: a Standard Webhooks delivery
 * (`webhook-signature`, any of its signatures, within the timestamp tolerance) or a Wellhub-format one
 * (`X-Gympass-Signature`, uppercase hex HMAC-SHA1; a `0x` prefix tolerated). Pass the body exactly as received:
 * re-serialised JSON no longer matches. Throws `WebhookVerificationError` otherwise.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): WebhookEvent {
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const wellhub = header(headers, 'x-gympass-signature');
  if (wellhub !== undefined) return verifyWellhub(body, wellhub, secret);
  if (header(headers, 'webhook-signature') !== undefined)
    return verifyStandard(body, headers, secret, options);
  throw new WebhookVerificationError('the delivery carries no signature header');
}
