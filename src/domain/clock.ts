/** The one source of "now" (epoch milliseconds); injected everywhere so tests control time. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
