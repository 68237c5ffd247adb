import { InputError } from './errors.js';

/**
 * Names, descriptions and labels that operators write: any text, but no control character (C0, DEL, C1) and no
 * lone UTF-16 surrogate. Both would reach tables, CSV files and terminals, and PostgreSQL refuses NUL outright,
 * so one rule holds on every database. Matched in Unicode mode (a surrogate pair is one character, and allowed).
 */
export const OPERATOR_TEXT_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]*$';
export const OPERATOR_TEXT_MESSAGE = 'must be text without control characters';

const OPERATOR_TEXT = new RegExp(OPERATOR_TEXT_PATTERN, 'u');

/** The rule for callers without a schema (the CLI): a 400 naming the field. */
export function assertOperatorText(field: string, value: string | null | undefined): void {
  if (typeof value === 'string' && !OPERATOR_TEXT.test(value)) {
    throw new InputError(field, OPERATOR_TEXT_MESSAGE);
  }
}
