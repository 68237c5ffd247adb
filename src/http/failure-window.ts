/**
 * Whether a failed-authentication count kept in memory may still be inside its window. Every address's window
 * starts at a failure, so once `windowMs` has passed since this process last counted one, every window has ended
 * and the read each request would make before its authentication can be skipped. Counts kept in Redis are shared
 * with other processes: `shared` windows are always read.
 */
export function failureWindow(windowMs: number, shared: boolean) {
  let lastCounted = Number.NEGATIVE_INFINITY;
  return {
    /** A failure is being counted now. */
    counted(): void {
      lastCounted = Date.now();
    },
    mayBeOpen(): boolean {
      return shared || Date.now() - lastCounted < windowMs;
    },
  };
}
