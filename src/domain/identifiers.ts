/** Product.md §2.2: exactly 13 ASCII digits, leading zeros allowed. */
export const PLATFORM_ID_PATTERN = '^[0-9]{13}$';
/** Product.md §2.5: the X-Gym-Id header. */
export const GYM_ID_PATTERN = '^[1-9][0-9]{0,14}$';
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
