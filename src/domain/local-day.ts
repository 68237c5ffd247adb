/** Offset of `timeZone` from UTC at `instant`, in milliseconds (local wall time minus UTC). */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The UTC instant at which the local calendar day (y, m, d) begins in `timeZone`. */
function startOfLocalDay(year: number, month: number, day: number, timeZone: string): number {
  const wallMidnight = Date.UTC(year, month, day);
  const guess = wallMidnight - offsetAt(wallMidnight, timeZone);
  return wallMidnight - offsetAt(guess, timeZone);
}

/** [start, end) of the local day in `timeZone` that contains `instant`, as UTC epoch milliseconds. */
export function localDayBounds(instant: number, timeZone: string): { start: number; end: number } {
  const local = new Date(instant + offsetAt(instant, timeZone));
  const [year, month, day] = [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
  return {
    start: startOfLocalDay(year, month, day, timeZone),
    end: startOfLocalDay(year, month, day + 1, timeZone),
  };
}
