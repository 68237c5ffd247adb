import { localDateOf, localDayBounds, localDayStart } from '../local-day.js';

/** How often a plan rule's count starts again: a day from local midnight, a week from Monday, a month from the 1st. */
export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

/** [start, end) of the period of `per` that holds `instant`, on the wall clock of `timeZone` (UTC instants). */
export function periodBounds(per: Period, instant: number, timeZone: string): { start: number; end: number } {
  if (per === 'day') return localDayBounds(instant, timeZone);
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
