import { redactCredentials } from '../domain/credentials.js';
import type { Services } from '../services/index.js';

const DAY_MS = 86_400_000;
const FIRST_RUN_MS = 60_000;

/** Where the purge reports: serve's logger (pino's call shape: fields, then message). */
export interface PurgeLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * Retention, applied by every serving process: a minute after start, then daily. On PostgreSQL each process of a
 * fleet runs it; a purge is idempotent, so the second finds nothing left. A failure is logged and retried the next
 * day. Returns the function that stops it (on shutdown).
 */
export function scheduleDailyPurge(
  services: Pick<Services, 'retention'>,
  log: PurgeLog,
  timing: { firstMs: number; everyMs: number } = { firstMs: FIRST_RUN_MS, everyMs: DAY_MS },
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = async () => {
    try {
      const purged = await services.retention.purge();
      log.info({ event_payloads: purged.eventPayloads, checkins: purged.checkins }, 'retention purge');
    } catch (error) {
      log.warn(
        {
          error: {
            type: (error as Error).constructor.name,
            message: redactCredentials((error as Error).message),
          },
        },
        'retention purge failed; retrying tomorrow',
      );
    }
    if (!stopped) timer = setTimeout(() => void run(), timing.everyMs).unref();
  };
  timer = setTimeout(() => void run(), timing.firstMs).unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
