import { describe, expect, test } from 'vitest';
import { dialects } from '../fixtures/test-app.js';
import { parsePrometheusText, seriesOf } from '../observability/prometheus-text.js';
import { admin, arrangeNetwork, createCheckin } from '../fixtures/operator-api.js';
import { eventually, useReceivers } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, register, startWebhookApp } from '../fixtures/webhook-app.js';

const startReceiver = useReceivers();

describe.each(dialects)('webhooks in /metrics (%s)', (dialect) => {
  test('when deliveries succeed, are retried, and an endpoint answers 410, then /metrics counts each outcome and shows what waits per endpoint', async () => {
    const t = await startWebhookApp({ dialect, env: { GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '0.2,3600' } });
    try {
      const ok = await startReceiver();
      const gone = await startReceiver(() => ({ status: 410 }));
      const failing = await startReceiver(() => ({ status: 500 }));
      const n = await arrangeNetwork(t);
      const endpoints = await Promise.all(
        [ok, gone, failing].map((r) => register(t, n.partner.id, { url: r.url })),
      );
      const failingId = endpoints[2]!.id;

      await createCheckin(t, n.product);
      await eventually(async () => (await deliveriesOf(t, failingId))[0]?.attempts === 2);
      await eventually(async () =>
        (await admin(t, 'GET', `/webhooks/${endpoints[1]!.id}`)).body.includes('disabled'),
      );
      const metrics = parsePrometheusText((await t.app.inject({ method: 'GET', url: '/metrics' })).body);

      expect(seriesOf(metrics, 'gatehouse_webhook_attempts_total')).toEqual({
        'outcome=delivered': 1,
        'outcome=gone': 1,
        'outcome=retrying': 2,
      });
      expect(seriesOf(metrics, 'gatehouse_webhook_attempt_duration_seconds_count')).toEqual({ '': 4 });
      expect(seriesOf(metrics, 'gatehouse_webhook_endpoints_disabled_total')).toEqual({ 'reason=gone': 1 });
      expect(seriesOf(metrics, 'gatehouse_webhook_pending_deliveries')).toEqual({
        [`endpoint_id=${failingId}`]: 1,
      });
      const oldest = seriesOf(metrics, 'gatehouse_webhook_oldest_pending_seconds')[
        `endpoint_id=${failingId}`
      ];
      expect(oldest).toBeGreaterThanOrEqual(0);
    } finally {
      await t.close();
    }
  });
});
