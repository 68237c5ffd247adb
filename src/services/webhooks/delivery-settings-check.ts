import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/index.js';
import type { Clock } from '../../domain/clock.js';
import {
  deliveryFingerprint,
  deliverySettingsWarning,
  shownSetting,
  type DeliverySettings,
} from '../../domain/delivery-settings.js';
import {
  otherLiveProcesses,
  registerProcessSettings,
  removeProcessSettings,
  touchProcessSettings,
} from '../../store/webhooks/process-settings-repository.js';
import type { Store } from '../../store/store.js';

/** A running process says so this often; one not heard of for three times as long is taken for gone. */
const HEARTBEAT_MS = 60_000;
const LIVE_MS = 3 * HEARTBEAT_MS;
/** Rows of processes that ended without removing theirs (kill -9) are dropped after a day. */
const FORGOTTEN_MS = 86_400_000;

type DeliveryConfig = Pick<
  Config,
  | 'webhookRetrySchedule'
  | 'webhookAllowPrivate'
  | 'webhookEndpointsPerPartner'
  | 'eventRetentionDays'
  | 'secretKey'
>;

/** This process's delivery settings, as stored and shown. */
export function deliverySettingsOf(config: DeliveryConfig): DeliverySettings {
  return {
    GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: shownSetting(
      'GATEHOUSE_WEBHOOK_RETRY_SCHEDULE',
      config.webhookRetrySchedule.join(','),
    ),
    GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: String(config.webhookAllowPrivate),
    GATEHOUSE_WEBHOOK_ENDPOINTS_PER_PARTNER: String(config.webhookEndpointsPerPartner),
    GATEHOUSE_EVENT_RETENTION_DAYS: String(config.eventRetentionDays),
    GATEHOUSE_SECRET_KEY: shownSetting('GATEHOUSE_SECRET_KEY', config.secretKey),
  };
}

/**
 * `serve`'s record of its delivery settings in the database, beside the other processes' on it: at start, the
 * warning line when they differ; while it runs, a heartbeat; at the end, its row removed.
 */
export function createDeliverySettingsCheck(deps: { store: Store; clock: Clock; config: DeliveryConfig }) {
  const { store, clock } = deps;
  const processId = randomUUID();
  const settings = deliverySettingsOf(deps.config);
  let heartbeat: NodeJS.Timeout | undefined;
  return {
    /** Records this process and answers the warning to log, if any. */
    async start(): Promise<string | undefined> {
      const now = clock.now();
      await registerProcessSettings(
        store.db,
        { processId, fingerprint: deliveryFingerprint(settings), settings },
        now,
      );
      heartbeat = setInterval(() => {
        touchProcessSettings(store.db, processId, clock.now()).catch(() => undefined);
      }, HEARTBEAT_MS);
      heartbeat.unref();
      const others = await otherLiveProcesses(store.db, processId, now - LIVE_MS, now - FORGOTTEN_MS);
      return deliverySettingsWarning(
        settings,
        others.map((other) => other.settings),
      );
    },
    async stop(): Promise<void> {
      clearInterval(heartbeat);
      await removeProcessSettings(store.db, processId);
    },
  };
}

export type DeliverySettingsCheck = ReturnType<typeof createDeliverySettingsCheck>;
