import { CUSTOM_CODE_MESSAGES, CUSTOM_CODE_NOT_BLANK_PATTERN } from './custom-code.js';
import { InputError } from './errors.js';

/**
 * Every free-text field (names of partners, gyms and products, key labels, reversal reasons, settlement
 * references, Wellhub webhook secrets) follows the custom code's rule: no control character (C0, DEL, C1) and no
 * lone UTF-16 surrogate, not blank once invisible characters are taken away, and bounded. Control characters would
 * reach tables, CSV files and terminals, and PostgreSQL refuses NUL outright, so one rule holds on every database.
 * Matched in Unicode mode (a surrogate pair is one character, and allowed).
 */
export const OPERATOR_TEXT_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]*$';
export const OPERATOR_TEXT_MESSAGE = 'must be text without control characters';
/** At least one character that shows: the custom code's definition of blank (src/domain/custom-code.ts). */
export const NOT_BLANK_PATTERN = CUSTOM_CODE_NOT_BLANK_PATTERN;
export const NOT_BLANK_MESSAGE = CUSTOM_CODE_MESSAGES.blank;

const OPERATOR_TEXT = new RegExp(OPERATOR_TEXT_PATTERN, 'u');
const NOT_BLANK = new RegExp(NOT_BLANK_PATTERN, 'u');

/** The length limits of the free-text fields, in characters (code points). */
export const TEXT_LIMITS = {
  name: 200,
  description: 500,
  label: 200,
  reason: 500,
  reference: 200,
} as const;

/**
 * The rule for callers without a schema (the CLI, and the services behind both): a 400 naming the field. The
 * schema path refuses the same values first (src/operator-api/schemas.ts); absent values are the caller's to judge.
 */
export function assertOperatorText(field: string, value: string | null | undefined, maxLength: number): void {
  if (typeof value !== 'string') return;
  if (!OPERATOR_TEXT.test(value)) throw new InputError(field, OPERATOR_TEXT_MESSAGE);
  const length = [...value].length;
  if (length < 1 || length > maxLength) {
    throw new InputError(field, `length must be between 1 and ${maxLength} characters`);
  }
  if (!NOT_BLANK.test(value)) throw new InputError(field, NOT_BLANK_MESSAGE);
}
