import type { Config } from '../config/index.js';
import type { Clock } from '../domain/clock.js';
import type { Store } from '../store/store.js';
import type { ServiceObserver } from './observer.js';
import type { Resolver } from './webhooks/resolver.js';

/** What every service is built from: explicit, so tests pass a real store and a controlled clock. */
export interface ServiceDependencies {
  readonly store: Store;
  readonly clock: Clock;
  /** Told of validations and key lookups, for metrics; silent when absent. */
  readonly observer?: ServiceObserver;
  readonly config: Pick<
    Config,
    | 'checkinTtlSeconds'
    | 'currency'
    | 'dailyVisitLimit'
    | 'defaultPlan'
    | 'timezone'
    | 'keyCacheSeconds'
    | 'rateLimitPerSecond'
    | 'keyUsageFlushSeconds'
    | 'eventRetentionDays'
    | 'natsUrl'
    | 'natsStream'
    | 'retentionDays'
    | 'secretKey'
    | 'webhookAllowPrivate'
    | 'webhookEndpointsPerPartner'
    | 'streamsPerCredential'
    | 'streamsPerProcess'
    | 'streamMaxSeconds'
    | 'streamCredentialCheckMs'
  >;
  /** Resolves a webhook URL's host name (injectable: a test points a name at a private address). */
  readonly resolver?: Resolver;
}
