/** One formatter per time zone: making one costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size >= 64) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Offset of `timeZone` from UTC at `instant`, in milliseconds (local wall time minus UTC). */
function offsetAt(instant: number, timeZone: string): number {
  const parts = formatterOf(timeZone).formatToParts(instant);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

const DAY_MS = 86_400_000;

/** The local calendar day of an instant, as days since 1970-01-01 on the zone's wall clock. */
function localDayNumber(instant: number, timeZone: string): number {
  return Math.floor((instant + offsetAt(instant, timeZone)) / DAY_MS);
}

/**
 * The UTC instant at which the local calendar day (y, m, d) begins in `timeZone`. Where the zone's clocks changed
 * at midnight, that day began at the change (midnight never happened) or at the first of two midnights: found by
 * bisection around the first guess, a few hours either way.
 */
function startOfLocalDay(year: number, month: number, day: number, timeZone: string): number {
  const wallMidnight = Date.UTC(year, month, day);
  const target = Math.floor(wallMidnight / DAY_MS);
  const guess = wallMidnight - offsetAt(wallMidnight, timeZone);
  const start = wallMidnight - offsetAt(guess, timeZone);
  const isOnOrAfter = (instant: number) => localDayNumber(instant, timeZone) >= target;
  if (isOnOrAfter(start) && !isOnOrAfter(start - 1)) return start;
  // The first instant of the day lies within a few hours of the guess: bisect [low, high) for it.
  let low = start - 6 * 3_600_000;
  let high = start + 6 * 3_600_000;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (isOnOrAfter(middle)) high = middle;
    else low = middle;
  }
  return high;
}

/** [start, end) as UTC epoch milliseconds. */
export interface Interval {
  readonly start: number;
  readonly end: number;
}

/**
 * Remembers the last interval found for each key (a zone, a period kind and zone), at most `size` keys: every
 * check-in of a day asks for the same few, and each is worked out with several time-zone conversions. An instant
 * inside the last interval of its key has that interval.
 */
export function lastIntervals(size: number) {
  const last = new Map<string, Interval>();
  return (key: string, instant: number, compute: () => Interval): Interval => {
    const found = last.get(key);
    if (found !== undefined && instant >= found.start && instant < found.end) return found;
    const next = Object.freeze({ ...compute() });
    if (last.size >= size) last.clear();
    last.set(key, next);
    return next;
  };
}

const lastDays = lastIntervals(64);

/** [start, end) of the local day in `timeZone` that contains `instant`, as UTC epoch milliseconds. */
export function localDayBounds(instant: number, timeZone: string): Interval {
  return lastDays(timeZone, instant, () => computeDayBounds(instant, timeZone));
}

function computeDayBounds(instant: number, timeZone: string): Interval {
  const local = new Date(instant + offsetAt(instant, timeZone));
  const [year, month, day] = [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
  return {
    start: startOfLocalDay(year, month, day, timeZone),
    end: startOfLocalDay(year, month, day + 1, timeZone),
  };
}

/** The local calendar date of an instant in `timeZone`: year, month (0-11), day (1-31) and weekday (0 = Monday). */
export function localDateOf(
  instant: number,
  timeZone: string,
): { year: number; month: number; day: number; weekday: number } {
  const local = new Date(instant + offsetAt(instant, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth(),
    day: local.getUTCDate(),
    weekday: (local.getUTCDay() + 6) % 7,
  };
}

/** The UTC instant the local calendar day (year, month 0-11, day; out-of-range values roll over) begins. */
export function localDayStart(year: number, month: number, day: number, timeZone: string): number {
  const normal = new Date(Date.UTC(year, month, day));
  return startOfLocalDay(normal.getUTCFullYear(), normal.getUTCMonth(), normal.getUTCDate(), timeZone);
}
