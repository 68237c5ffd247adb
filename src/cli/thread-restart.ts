/**
 * How long a webhook thread that ended unasked (src/cli/delivery-thread.ts, sender-thread.ts) is left ended before
 * it is started again: a thread that cannot start (a broken install) then costs one start and two log lines a
 * second, not one per delivery round.
 */
export const THREAD_RESTART_MS = 1000;
