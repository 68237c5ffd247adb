/** The partner API's time: `YYYY-MM-DDThh:mm:ssZ`, UTC, second precision. */
export function formatValidatedAt(epochMs: number): string {
  return formatInstant(epochMs).slice(0, 19) + 'Z';
}

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on ISO-8601 needs a six-digit year, which toISOString writes itself. */
const YEAR_10000_MS = 253_402_300_800_000;

/** The date part of the last day formatted: a validation formats three instants, mostly of one or two days. */
const days = new Map<number, string>();

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * Every other timestamp on the wire: ISO-8601 UTC with milliseconds, exactly as `Date#toISOString` writes it. Each
 * change formats several (an event's check-in times), so the date part is kept per day and the time computed.
 */
export function formatInstant(epochMs: number): string {
  if (!Number.isInteger(epochMs) || epochMs < 0 || epochMs >= YEAR_10000_MS) {
    return new Date(epochMs).toISOString();
  }
  const day = Math.floor(epochMs / DAY_MS);
  let date = days.get(day);
  if (date === undefined) {
    if (days.size >= 64) days.clear();
    date = new Date(day * DAY_MS).toISOString().slice(0, 11);
    days.set(day, date);
  }
  let rest = epochMs - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${date}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(rest - seconds * 1000)}Z`;
}
