import type { RunnerLog } from './delivery-runner.js';
import type { Config } from '../../config/index.js';
import type { ServiceDependencies } from '../dependencies.js';
import { createDeliveryLogService } from './delivery-log-service.js';
import { createDeliveryRunner, type DeliveryObserver } from './delivery-runner.js';
import { createEndpointService } from './endpoint-service.js';
import { systemResolver } from './resolver.js';
import { createSender, type Sender } from './sender.js';
import { createTestEventService } from './test-event-service.js';

export function createWebhookServices(deps: ServiceDependencies) {
  const endpoints = createEndpointService(deps);
  return {
    endpoints,
    deliveries: createDeliveryLogService(deps),
    tests: createTestEventService(deps, endpoints),
    /** The delivery loop; `serve` starts it once migrations are applied and stops it before the store closes. */
    runner(
      config: Pick<Config, 'webhookRetrySchedule' | 'webhookAllowPrivate'>,
      log: RunnerLog,
      observer?: DeliveryObserver,
      /** Sends the requests (default: from this thread, through the app's resolver). */
      sender?: Sender,
    ) {
      return createDeliveryRunner({
        store: deps.store,
        clock: deps.clock,
        endpoints,
        sender: sender ?? createSender(deps.resolver ?? systemResolver, config.webhookAllowPrivate),
        schedule: config.webhookRetrySchedule,
        log,
        ...(observer === undefined ? {} : { observer }),
      });
    },
  };
}

export type WebhookServices = ReturnType<typeof createWebhookServices>;
