import { InputError } from './errors.js';

/** An IANA name (`America/Sao_Paulo`, `UTC`): letters first, no bare UTC offsets such as `+03:00`. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * A gym's time zone as given, checked against the runtime's time-zone database and stored under the name the
 * runtime resolves it to (its case fixed); 400 naming `field` when it is none.
 */
export function parseTimeZone(field: string, name: string): string {
  if (IANA_NAME.test(name)) {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    } catch {
      // falls through to the refusal
    }
  }
  throw new InputError(field, 'must be an IANA time zone such as UTC or America/Sao_Paulo');
}
