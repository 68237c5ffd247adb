import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The app's Prometheus metrics, in a registry of its own (never prom-client's global one), so several apps in one
 * process — tests, the CLI — keep separate counts.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'gatehouse_' });
  return {
    registry,
    requests: new Counter({
      name: 'gatehouse_http_requests_total',
      help: 'HTTP requests answered, by route, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    requestDuration: new Histogram({
      name: 'gatehouse_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by route, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    validations: new Counter({
      name: 'gatehouse_validations_total',
      help: 'Validate answers by outcome: validated or the error key of the refusal',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    transactions: new Counter({
      name: 'gatehouse_transactions_created_total',
      help: 'Payment transactions created (one per validated check-in)',
      registers: [registry],
    }),
    keyCache: new Counter({
      name: 'gatehouse_key_cache_lookups_total',
      help: 'API-key lookups by cache result',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    quotaRefusals: new Counter({
      name: 'gatehouse_quota_refusals_total',
      help:
        'Creations refused at a quota, by quota: webhook_endpoints (per partner), event_streams_per_key_gym, ' +
        'event_streams_per_operator, event_streams_per_process',
      labelNames: ['quota'] as const,
      registers: [registry],
    }),
    storeDuration: new Histogram({
      name: 'gatehouse_store_operation_duration_seconds',
      help: 'Time spent in store units of work, by operation',
      labelNames: ['operation'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The event streams open in this process, by API (partner, operator), read at scrape time. */
export function registerStreamGauge(
  registry: Registry,
  counts: () => { partner: number; operator: number },
): void {
  new Gauge({
    name: 'gatehouse_event_streams_open',
    help: 'Event streams open in this process, by API: partner (/access/v1) or operator (/admin/v1)',
    labelNames: ['api'] as const,
    registers: [registry],
    collect() {
      const open = counts();
      this.set({ api: 'partner' }, open.partner);
      this.set({ api: 'operator' }, open.operator);
    },
  });
}
