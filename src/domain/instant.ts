import { InputError } from './errors.js';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Date.parse rolls an impossible day over (2026-02-30 is read as 2 March): refuse it instead. */
function isCalendarDate(value: string): boolean {
  const [year = 0, month = 0, day = 0] = value.slice(0, 10).split('-').map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Parses an ISO-8601 date or date-time as an instant; without an offset it is UTC, never the
 * server's local time.
 */
export function parseInstant(field: string, value: string): number {
  const match = ISO_8601.exec(value);
  if (match === null || !isCalendarDate(value)) {
    throw new InputError(field, 'must be an ISO-8601 date or date-time');
  }
  const hasTime = match[1] !== undefined;
  const hasOffset = match[4] !== undefined;
  const instant = Date.parse(hasTime && !hasOffset ? `${value}Z` : value);
  if (Number.isNaN(instant)) throw new InputError(field, 'must be an ISO-8601 date or date-time');
  return instant;
}
