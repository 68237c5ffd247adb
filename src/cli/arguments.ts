import { InvalidArgumentError } from 'commander';
import { parseInstant } from '../domain/instant.js';
import { parsePositiveInt, PLATFORM_ID_PATTERN } from '../domain/identifiers.js';

/** Argument parsers for commander: a bad value is a clear error naming the option, and a non-zero exit. */
export function positiveInt(value: string): number {
  const parsed = parsePositiveInt(value);
  if (parsed === undefined) throw new InvalidArgumentError('must be a positive integer');
  return parsed;
}

export function positiveInts(value: string): number[] {
  return value.split(',').map((part) => positiveInt(part.trim()));
}

export function nonNegativeInt(value: string): number {
  if (!/^[0-9]{1,12}$/.test(value)) throw new InvalidArgumentError('must be a whole number of cents');
  return Number(value);
}

const platformIdRegex = new RegExp(PLATFORM_ID_PATTERN);
export function platformId(value: string): string {
  if (!platformIdRegex.test(value)) throw new InvalidArgumentError('must be 13 digits');
  return value;
}

export function instant(value: string): number {
  try {
    return parseInstant('time', value);
  } catch {
    throw new InvalidArgumentError('must be an ISO-8601 date or date-time (UTC when no offset is given)');
  }
}

/** One of `values`; `message` says what else was expected (by default, the list). */
export function oneOf<T extends string>(
  values: readonly T[],
  message = `must be one of ${values.join(', ')}`,
) {
  return (value: string): T => {
    if (!(values as readonly string[]).includes(value)) throw new InvalidArgumentError(message);
    return value as T;
  };
}

export function currency(value: string): string {
  if (!/^[A-Z]{3}$/.test(value))
    throw new InvalidArgumentError('must be a three-letter ISO code such as BRL');
  return value;
}
