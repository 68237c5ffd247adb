/** A member's platform id: exactly 13 ASCII digits, leading zeros allowed. */
export const PLATFORM_ID_PATTERN = '^[0-9]{13}$';
/** The X-Gym-Id header: up to 15 digits (README). */
export const GYM_ID_PATTERN = '^[1-9][0-9]{0,14}$';
/**
 * The greatest id of anything: X-Gym-Id, ids in paths and JSON ids all stop at 15 digits, so an id past it could be
 * stored but never named again.
 */
export const MAX_ID = 999_999_999_999_999;
/** Positive integers in paths and query strings: digit strings, parsed explicitly, never coerced. */
export const POSITIVE_INT_PATTERN = '^[1-9][0-9]{0,14}$';

/** `limit` of a list: digits here, then 1 to 1000 checked by pageRequest. */
export const PAGE_LIMIT_PATTERN = '^[0-9]{1,4}$';
/** An ISO 4217 currency code. */
export const CURRENCY_PATTERN = '^[A-Z]{3}$';

const gymIdRegex = new RegExp(GYM_ID_PATTERN);

/** Parses a positive integer from a digit string, or returns undefined. */
export function parsePositiveInt(value: unknown): number | undefined {
  return typeof value === 'string' && gymIdRegex.test(value) ? Number(value) : undefined;
}
