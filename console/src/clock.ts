import { locales } from './format.js';

/**
 * The console's clock: every date and time it shows, and every "today" and "this month" it asks the API for, are on
 * one zone's wall clock, the network's (GATEHOUSE_TIMEZONE) for an operator and the gym's own at its front desk,
 * with the zone named. The app sets it as the session starts (`showTimesIn`), before any view renders.
 */
let zone = 'UTC';

export function showTimesIn(timeZone: string): void {
  zone = timeZone;
}

/** The zone times are shown in. */
export const shownZone = (): string => zone;

/** A time of day with its zone: "22:30:05 GMT-3". */
export const formatTime = (iso: string): string =>
  new Date(iso).toLocaleTimeString(locales, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZone: zone,
    timeZoneName: 'short',
  });

/** An instant as a date and time a person reads, in a zone it names: "Nov 27, 2026, 8:06 AM America/Sao_Paulo". */
export const formatDateTime = (iso: string, timeZone: string = zone): string =>
  `${new Date(iso).toLocaleString(locales, { dateStyle: 'medium', timeStyle: 'short', timeZone })} ${timeZone}`;

/** The day an instant falls on, on the shown zone's clock, as a person reads it: "Nov 1, 2026". */
export const formatDay = (iso: string): string =>
  new Date(iso).toLocaleDateString(locales, { dateStyle: 'medium', timeZone: zone });

/** The calendar date (YYYY-MM-DD) it is at `instant` on `timeZone`'s wall clock, for the API (not to show). */
export function dateIn(timeZone: string, instant: number = Date.now()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

/**
 * The instant a wall-clock time (YYYY-MM-DDTHH:MM[:SS], as a datetime-local input gives it) is in a time zone, as the
 * API reads an instant.
 */
export function instantOf(wall: string, timeZone: string = zone): string {
  const clock = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  /** How far the zone's clock is ahead of UTC at instant `t`. */
  const offset = (t: number) => {
    const part = (type: string) => Number(clock.formatToParts(t).find((p) => p.type === type)?.value);
    return (
      Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - t
    );
  };
  const asUtc = Date.parse(`${wall.length === 16 ? `${wall}:00` : wall}Z`);
  // Twice: the offset at the zone's time may differ from UTC's (a change of summer time in between).
  const first = asUtc - offset(asUtc);
  return new Date(asUtc - offset(first)).toISOString();
}

/** The instant a day (YYYY-MM-DD) starts in a time zone (the API reads a bare date as UTC's midnight). */
export const startOfDay = (day: string, timeZone: string = zone): string =>
  instantOf(`${day}T00:00:00`, timeZone);

/** Today's midnight on the shown zone's clock, as the API reads an instant. */
export const startOfToday = (): string => startOfDay(dateIn(zone), zone);

/**
 * This month in a time zone, as days: its first and the next month's first (São Paulo's 30 November at 22:30 is
 * November there, though December in UTC).
 */
export function thisMonth(timeZone: string = zone): { from: string; to: string } {
  const [year = 1970, month = 1] = dateIn(timeZone).split('-').map(Number);
  const day = (y: number, m: number) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`;
  return { from: day(year, month), to: month === 12 ? day(year + 1, 1) : day(year, month + 1) };
}

/** An instant in a list: its date and time to the second, with the zone named ("Nov 27, 2026, 6:17:42 AM GMT-3"). */
export const formatStamp = (iso: string): string =>
  new Date(iso).toLocaleString(locales, { dateStyle: 'medium', timeStyle: 'long', timeZone: zone });

/** The hour (00–23) an instant falls in on the shown zone's clock: a chart's hourly label. */
export const hourOf = (iso: string): string =>
  new Intl.DateTimeFormat(locales, { hour: '2-digit', hourCycle: 'h23', timeZone: zone }).format(
    new Date(iso),
  );
