import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DeliveryObserver } from '../services/webhooks/delivery-runner.js';

type PendingSource = () => Promise<{ endpointId: number; count: number; oldest: number }[]>;

/**
 * Webhook delivery in /metrics: attempts by outcome and their latency, endpoints disabled, and per endpoint the
 * deliveries waiting and the age of the oldest (read from the store at scrape time, so every process shows the
 * whole picture).
 */
export function registerWebhookMetrics(
  registry: Registry,
  pending: PendingSource,
  now: () => number,
): DeliveryObserver {
  const attempts = new Counter({
    name: 'gatehouse_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, retrying, failed (retries exhausted), gone (410), error',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'gatehouse_webhook_attempt_duration_seconds',
    help: 'Time of a webhook delivery attempt, from claim to the receiver’s answer',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [registry],
  });
  const disabled = new Counter({
    name: 'gatehouse_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints disabled by gatehouse, by reason: gone (410) or failing (every delivery for days)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  let snapshot: Promise<{ endpointId: number; count: number; oldest: number }[]> | undefined;
  // One query per scrape serves both gauges.
  const read = () => (snapshot ??= pending().finally(() => setImmediate(() => (snapshot = undefined))));
  new Gauge({
    name: 'gatehouse_webhook_pending_deliveries',
    help: 'Webhook deliveries waiting to be delivered, per endpoint',
    labelNames: ['endpoint_id'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await read()) this.set({ endpoint_id: String(row.endpointId) }, row.count);
    },
  });
  new Gauge({
    name: 'gatehouse_webhook_oldest_pending_seconds',
    help: 'Age of the oldest webhook delivery waiting, per endpoint',
    labelNames: ['endpoint_id'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await read()) {
        this.set({ endpoint_id: String(row.endpointId) }, Math.max(0, (now() - row.oldest) / 1000));
      }
    },
  });
  return {
    attempt(outcome, seconds) {
      attempts.inc({ outcome });
      if (outcome !== 'error') duration.observe(seconds);
    },
    disabled: (reason) => disabled.inc({ reason }),
  };
}
