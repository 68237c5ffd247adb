/**
 * When a failed delivery is tried again: exponential backoff over about three days (5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 10 h, 24 h), each delay ±10 % so receivers coming back up are not hit by every sender at once. After the
 * last one the delivery is failed (it can still be retried or recovered by hand).
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000, 86_400] as const;

/** How long every delivery to an endpoint may fail before the endpoint is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/** A Retry-After beyond this is read as this: a receiver cannot park a delivery for ever. */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** `5,300,1800`: seconds (fractions allowed, so tests can compress it), at least one. */
export function parseRetrySchedule(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  const delays = parts.map(Number);
  if (
    parts.some((part) => !/^[0-9]+(\.[0-9]+)?$/.test(part)) ||
    delays.some((delay) => !(delay <= 604_800))
  ) {
    throw new Error('must be delays in seconds, comma-separated, each at most 604800 (7 days)');
  }
  return delays;
}

/**
 * When to try again after the `failures`-th failed attempt of this round (1 for the first), or undefined when the
 * schedule is exhausted. A receiver's Retry-After (429, 503) replaces the scheduled delay.
 */
export function nextAttemptAt(
  schedule: readonly number[],
  failures: number,
  now: number,
  retryAfterSeconds: number | undefined,
  random: number = Math.random(),
): number | undefined {
  const scheduled = schedule[failures - 1];
  if (scheduled === undefined) return undefined;
  if (retryAfterSeconds !== undefined)
    return now + Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) * 1000;
  return now + Math.round(scheduled * 1000 * (0.9 + 0.2 * random));
}

/** A Retry-After header: delay-seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^[0-9]{1,9}$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
