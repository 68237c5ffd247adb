import { createHmac } from 'node:crypto';
import type { EventType } from '../events.js';
import { InputError } from '../errors.js';
import { assertOperatorText } from '../operator-text.js';
import { MEMBER_FIELDS } from '../member-details.js';

/**
 * The format of partners whose systems were built for Wellhub's `checkin` webhook: one event type, its own body,
 * and `X-Gympass-Signature`, the uppercase hex HMAC-SHA1 of the raw body keyed with a secret the partner chose.
 * Handlers written for Wellhub accept these deliveries unmodified (README, "Wellhub-compatible webhooks").
 */
export const WELLHUB_EVENT_TYPES: readonly EventType[] = ['checkin.created'];
/** Wellhub's own deadline for a partner's answer. */
export const WELLHUB_TIMEOUT_MS = 1000;
export const WELLHUB_SECRET_MAX_LENGTH = 100;
export const WELLHUB_SIGNATURE_HEADER = 'X-Gympass-Signature';
/**
 * Wellhub's body has no room for it: a sandbox partner's deliveries say `X-Gatehouse-Sandbox: true` in this header
 * instead (absent on live ones), outside the signed bytes as Wellhub's signature covers the body only.
 */
export const WELLHUB_SANDBOX_HEADER = 'X-Gatehouse-Sandbox';

/** A Wellhub endpoint's secret: the partner's own, as Wellhub's partners provide it. */
export function checkWellhubSecret(secret: string | undefined): string {
  if (secret === undefined) throw new InputError('secret', 'is required for the wellhub format');
  if ([...secret].length > WELLHUB_SECRET_MAX_LENGTH) {
    throw new InputError('secret', `must be at most ${WELLHUB_SECRET_MAX_LENGTH} characters`);
  }
  assertOperatorText('secret', secret, WELLHUB_SECRET_MAX_LENGTH);
  return secret;
}

/** The event types of a Wellhub endpoint: checkin.created, the only one the format carries. */
export function wellhubEventTypes(given: readonly EventType[] | null | undefined): EventType[] {
  if (given === undefined || given === null) return [...WELLHUB_EVENT_TYPES];
  if (given.some((type) => !WELLHUB_EVENT_TYPES.includes(type))) {
    throw new InputError('event_types', 'the wellhub format carries only checkin.created');
  }
  return [...WELLHUB_EVENT_TYPES];
}

/** What the Wellhub body is made of: a checkin.created event's data and its gym. */
export interface WellhubCheckin {
  readonly data: Readonly<Record<string, unknown>>;
  readonly gym: { readonly id: number; readonly name: string };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

type MemberField = (typeof MEMBER_FIELDS)[number];
/** The member's details the check-in has a value for; the others are absent, never `""` or null. */
export type WellhubUser = { readonly unique_token: string } & Partial<Readonly<Record<MemberField, string>>>;

/**
 * The `user` object: the token, then each detail with a value, in Wellhub's order. Real handlers reject `""` and
 * null (README, "Wellhub-compatible webhooks"), so a detail that is missing, null, or stored as `""` (the check-in
 * routes take an empty detail as given) is left out.
 */
function wellhubUser(platformId: unknown, member: Readonly<Record<string, unknown>>): WellhubUser {
  const given = MEMBER_FIELDS.flatMap((field) => {
    const value = member[field];
    return typeof value === 'string' && value !== '' ? [[field, value] as const] : [];
  });
  return { unique_token: text(platformId), ...Object.fromEntries(given) };
}

export interface WellhubCheckinPayload {
  readonly event_type: 'checkin';
  readonly event_data: {
    readonly user: WellhubUser;
    readonly gym: {
      readonly id: number;
      readonly title: string;
      readonly product: { readonly id: number; readonly description: string };
    };
    readonly timestamp: number;
  };
}

/**
 * Wellhub's `checkin` event: the member (absent details left out), the gym with its product (lowercase `id`), and
 * the check-in's time in Unix seconds. `location` is left out: gatehouse does not know where gyms are.
 */
export function wellhubPayload({ data, gym }: WellhubCheckin): WellhubCheckinPayload {
  const member = (data.member ?? {}) as Record<string, unknown>;
  const product = (data.product ?? {}) as { id?: unknown; description?: unknown };
  return {
    event_type: 'checkin',
    event_data: {
      user: wellhubUser(data.platform_id, member),
      gym: {
        id: gym.id,
        title: gym.name,
        product: { id: Number(product.id), description: text(product.description) },
      },
      timestamp: Math.floor(Date.parse(text(data.checked_in_at)) / 1000),
    },
  };
}

/** The delivery's bytes: the payload as compact JSON, the same on every attempt. */
export function wellhubBody(checkin: WellhubCheckin): string {
  return JSON.stringify(wellhubPayload(checkin));
}

/** `X-Gympass-Signature`: the uppercase hex HMAC-SHA1 of the raw body. */
export function wellhubSignature(secret: string, body: string): string {
  return createHmac('sha1', secret).update(body).digest('hex').toUpperCase();
}
