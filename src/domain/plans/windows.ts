import { lastIntervals, localDateOf, localDayBounds, localDayStart, type Interval } from '../local-day.js';

/** How often a plan rule's count starts again: a day from local midnight, a week from Monday, a month from the 1st. */
export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

/** Bounded: a few entries per period kind and zone in use. */
const lastPeriods = lastIntervals(3_000);

/** [start, end) of the period of `per` that holds `instant`, on the wall clock of `timeZone` (UTC instants). */
export function periodBounds(per: Period, instant: number, timeZone: string): Interval {
  // A day is remembered by localDayBounds itself.
  if (per === 'day') return localDayBounds(instant, timeZone);
  return lastPeriods(`${per} ${timeZone}`, instant, () => computeBounds(per, instant, timeZone));
}

function computeBounds(per: 'week' | 'month', instant: number, timeZone: string): Interval {
  const date = localDateOf(instant, timeZone);
  if (per === 'week') {
    const monday = date.day - date.weekday;
    return {
      start: localDayStart(date.year, date.month, monday, timeZone),
      end: localDayStart(date.year, date.month, monday + 7, timeZone),
    };
  }
  return {
    start: localDayStart(date.year, date.month, 1, timeZone),
    end: localDayStart(date.year, date.month + 1, 1, timeZone),
  };
}
