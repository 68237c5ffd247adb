import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AWKWARD_TIME_ZONES } from '../../test/fixtures/domain.js';
import { localDayBounds } from './local-day.js';

/** The local calendar date of an instant, as Intl writes it: the oracle. */
function localDate(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

const ZONES = [...AWKWARD_TIME_ZONES, 'America/St_Johns'];

/** 2011-11-06T04:30Z: from then on St. John's changes its clocks at 02:00, as the other zones do. */
const ST_JOHNS_TWO_AM_CHANGES = 1_320_553_800_000;

describe('localDayBounds', () => {
  test('when asked for any instant in any zone, in any order, then [start, end) is exactly the local day that holds it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 946_684_800_000, max: 2_209_000_000_000 }),
        fc.constantFrom(...ZONES),
        (instant, zone) => {
          // Until November 2011 St. John's turned its clocks back at 00:01: the last minute before was the next
          // day's, and the hour after it the day before's again, so that day came in two pieces, which no one
          // [start, end) can be.
          fc.pre(!(zone === 'America/St_Johns' && instant < ST_JOHNS_TWO_AM_CHANGES));
          const { start, end } = localDayBounds(instant, zone);
          const date = localDate(instant, zone);
          expect(start <= instant && instant < end).toBe(true);
          expect(localDate(start, zone)).toBe(date);
          expect(localDate(end - 1, zone)).toBe(date);
          expect(localDate(start - 1, zone)).not.toBe(date);
          expect(localDate(end, zone)).not.toBe(date);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('when a day is 23 or 25 hours long (a clock change), then its bounds say so', () => {
    // Europe/Berlin: clocks went forward on 2026-03-29 and back on 2026-10-25.
    const spring = localDayBounds(Date.UTC(2026, 2, 29, 12), 'Europe/Berlin');
    const autumn = localDayBounds(Date.UTC(2026, 9, 25, 12), 'Europe/Berlin');
    expect(spring.end - spring.start).toBe(23 * 3_600_000);
    expect(autumn.end - autumn.start).toBe(25 * 3_600_000);
    expect(spring.start).toBe(Date.UTC(2026, 2, 28, 23));
  });
});
