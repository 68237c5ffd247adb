import { localDateOf, localDayBounds, localDayStart } from '../local-day.js';

/** How often a plan rule's count starts again: a day from local midnight, a week from Monday, a month from the 1st. */
export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

/**
 * The last period found for each `per` and zone: every check-in of a day asks for the same few, and each is worked
 * out with several time-zone conversions. An instant inside a period's [start, end) has that period's bounds.
 */
const lastFound = new Map<string, { readonly start: number; readonly end: number }>();

/** [start, end) of the period of `per` that holds `instant`, on the wall clock of `timeZone` (UTC instants). */
export function periodBounds(per: Period, instant: number, timeZone: string): { start: number; end: number } {
  const key = `${per} ${timeZone}`;
  const last = lastFound.get(key);
  if (last !== undefined && instant >= last.start && instant < last.end) return { ...last };
  const found = computeBounds(per, instant, timeZone);
  // Bounded: one entry per period kind and zone in use.
  if (lastFound.size > 3_000) lastFound.clear();
  lastFound.set(key, found);
  return { ...found };
}

function computeBounds(per: Period, instant: number, timeZone: string): { start: number; end: number } {
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
