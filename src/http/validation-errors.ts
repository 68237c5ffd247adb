import {
  CUSTOM_CODE_MESSAGES,
  CUSTOM_CODE_NOT_BLANK_PATTERN,
  CUSTOM_CODE_WELL_FORMED_PATTERN,
} from '../domain/custom-code.js';
import { InputError } from '../domain/errors.js';
import { groupedBy } from '../domain/grouped.js';
import {
  NOT_BLANK_MESSAGE,
  NOT_BLANK_PATTERN,
  OPERATOR_TEXT_MESSAGE,
  OPERATOR_TEXT_PATTERN,
} from '../domain/operator-text.js';
import { OPERATOR_NAME_MESSAGE, OPERATOR_NAME_PATTERN } from '../domain/operator.js';
import { CURRENCY_PATTERN, PAGE_LIMIT_PATTERN, POSITIVE_INT_PATTERN } from '../domain/identifiers.js';

/** The part of an Ajv error this mapper reads. */
export interface SchemaError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly message?: string;
}

/** What a value that misses one of the shared patterns is told, instead of the pattern itself. */
const PATTERN_MESSAGES: Record<string, string> = {
  [POSITIVE_INT_PATTERN]: 'must be a positive integer',
  [PAGE_LIMIT_PATTERN]: 'must be an integer from 1 to 1000',
  [CURRENCY_PATTERN]: 'must be a three-letter currency code such as BRL',
  [OPERATOR_TEXT_PATTERN]: OPERATOR_TEXT_MESSAGE,
  [NOT_BLANK_PATTERN]: NOT_BLANK_MESSAGE,
  [OPERATOR_NAME_PATTERN]: OPERATOR_NAME_MESSAGE,
};

const PLATFORM_ID_MESSAGE = 'must be a string of 13 digits';

/** Fields are reported in this order when several are wrong at once: platform_id, then custom_code. */
const FIELD_PRIORITY: Record<string, number> = { platform_id: 0, gympass_id: 0, custom_code: 1 };

/** Within custom_code: the first rule broken, in the order docs/contract.md lists them. */
function customCodeRank(error: SchemaError): [number, string] {
  switch (error.keyword) {
    case 'minLength':
    case 'maxLength':
      return [2, CUSTOM_CODE_MESSAGES.length];
    case 'pattern':
      if (error.params.pattern === CUSTOM_CODE_NOT_BLANK_PATTERN) return [3, CUSTOM_CODE_MESSAGES.blank];
      if (error.params.pattern === CUSTOM_CODE_WELL_FORMED_PATTERN)
        return [5, CUSTOM_CODE_MESSAGES.wellFormed];
      return [4, CUSTOM_CODE_MESSAGES.control];
    default:
      return [6, CUSTOM_CODE_MESSAGES.type];
  }
}

function fieldOf(error: SchemaError): string | undefined {
  if (error.keyword === 'required' && error.instancePath === '') return String(error.params.missingProperty);
  // The id alias rule (one of platform_id / gympass_id must be a string) fails at the root as anyOf.
  if (error.keyword === 'anyOf' && error.instancePath === '') return 'platform_id';
  const field = error.instancePath.split('/')[1];
  return field === undefined || field === '' ? undefined : decodeURIComponent(field);
}

function describe(field: string, errors: SchemaError[], value: unknown): InputError {
  if (field === 'platform_id' || field === 'gympass_id')
    return new InputError('platform_id', PLATFORM_ID_MESSAGE);
  if (field === 'custom_code') {
    if (value === undefined) return new InputError('custom_code', 'is required');
    if (typeof value !== 'string') return new InputError('custom_code', CUSTOM_CODE_MESSAGES.type);
    // A string that failed: the type errors come from the null branch of a nullable schema, not from the value.
    const ranked = errors
      .filter((error) => error.keyword !== 'type' && error.keyword !== 'anyOf')
      .map(customCodeRank);
    const [, message] = ranked.sort((a, b) => a[0] - b[0])[0] ?? [0, CUSTOM_CODE_MESSAGES.length];
    return new InputError('custom_code', message);
  }
  // An empty string breaks minLength and the not-blank pattern at once: too short is the plainer message.
  const first = errors.find((error) => error.keyword === 'minLength') ?? errors[0];
  if (first?.keyword === 'required') return new InputError(field, 'is required');
  // A union of literals (an enumeration) fails once per literal: name them all.
  const allowed = errors
    .filter((error) => error.keyword === 'const')
    .map((error) => String(error.params.allowedValue));
  if (allowed.length > 0) return new InputError(field, `must be one of ${allowed.join(', ')}`);
  const patternMessage =
    first?.keyword === 'pattern' ? PATTERN_MESSAGES[String(first.params.pattern)] : undefined;
  return new InputError(field, patternMessage ?? first?.message ?? 'is invalid');
}

/**
 * Turns the schema errors of one request part into the single 400 the client sees: the highest-priority field,
 * with its documented message (docs/contract.md).
 */
export function schemaErrorsToInputError(
  part: string,
  errors: readonly SchemaError[],
  body: unknown,
): InputError {
  if (part === 'body') {
    if (body === undefined) return new InputError('body', 'is required');
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return new InputError('body', 'must be a JSON object');
    }
  }
  const byField = groupedBy(errors, fieldOf);
  const [field] = [...byField.keys()].sort((a, b) => (FIELD_PRIORITY[a] ?? 2) - (FIELD_PRIORITY[b] ?? 2));
  if (field === undefined) return new InputError(part, 'is invalid');
  const value = part === 'body' ? (body as Record<string, unknown>)[field] : undefined;
  return describe(field, byField.get(field) ?? [], value);
}
