import { beforeAll, describe, expect, it } from 'vitest';
import { dialects, useApp, type TestApp } from '../fixtures/test-app.js';
import { startIsolatedApp } from '../fixtures/isolated-app.js';
import { parsePrometheusText, seriesOf, type Exposition } from './prometheus-text.js';
import { runScenario } from './scenario.js';

const VALIDATE = '/access/v1/validate';
const CODE = '/access/v1/code/:platform_id';

describe.each(dialects)('GET /metrics after a run of requests (%s)', (dialect) => {
  let t: TestApp;
  let metrics: Exposition;
  let contentType: string;
  const shared = useApp({ start: () => startIsolatedApp(dialect) });
  beforeAll(async () => {
    t = shared();
    await runScenario(t);
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    contentType = String(response.headers['content-type']);
    metrics = parsePrometheusText(response.body);
  });

  it('when scraped, then it is Prometheus text with a TYPE and HELP for every gatehouse metric', () => {
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(
      Object.fromEntries(
        [...metrics.types].filter(
          ([name]) => !name.startsWith('gatehouse_process') && !name.startsWith('gatehouse_nodejs'),
        ),
      ),
    ).toEqual({
      gatehouse_http_requests_total: 'counter',
      gatehouse_http_request_duration_seconds: 'histogram',
      gatehouse_validations_total: 'counter',
      gatehouse_transactions_created_total: 'counter',
      gatehouse_key_cache_lookups_total: 'counter',
      gatehouse_store_operation_duration_seconds: 'histogram',
      gatehouse_quota_refusals_total: 'counter',
      gatehouse_event_streams_open: 'gauge',
      gatehouse_webhook_attempts_total: 'counter',
      gatehouse_webhook_attempt_duration_seconds: 'histogram',
      gatehouse_webhook_endpoints_disabled_total: 'counter',
      gatehouse_webhook_pending_deliveries: 'gauge',
      gatehouse_webhook_oldest_pending_seconds: 'gauge',
    });
    for (const name of metrics.types.keys()) expect(metrics.help.get(name), name).toMatch(/\S/);
  });

  it('when requests were answered, then gatehouse_http_requests_total counts each by route, method and status', () => {
    expect(seriesOf(metrics, 'gatehouse_http_requests_total')).toEqual({
      [`method=POST,route=${VALIDATE},status=200`]: 1,
      [`method=POST,route=${VALIDATE},status=400`]: 1,
      [`method=POST,route=${VALIDATE},status=404`]: 1,
      [`method=POST,route=${VALIDATE},status=403`]: 1,
      [`method=POST,route=${VALIDATE},status=401`]: 1,
      [`method=GET,route=${CODE},status=404`]: 1,
      [`method=POST,route=${CODE},status=201`]: 1,
      'method=GET,route=/health,status=200': 1,
      'method=GET,route=unmatched,status=404': 1,
      [`method=DELETE,route=${VALIDATE},status=405`]: 1,
    });
  });

  it('when requests were answered, then the duration histogram counted the same requests', () => {
    expect(seriesOf(metrics, 'gatehouse_http_request_duration_seconds_count')).toEqual(
      seriesOf(metrics, 'gatehouse_http_requests_total'),
    );
  });

  it('when three validates ran, then gatehouse_validations_total counts them by outcome', () => {
    expect(seriesOf(metrics, 'gatehouse_validations_total')).toEqual({
      'outcome=validated': 1,
      'outcome=checkin.already.validated': 1,
      'outcome=checkin.validation.notfound': 1,
    });
    expect(seriesOf(metrics, 'gatehouse_store_operation_duration_seconds_count')).toEqual({
      'operation=validate': 3,
    });
  });

  it('when one check-in was validated, then gatehouse_transactions_created_total is 1', () => {
    expect(seriesOf(metrics, 'gatehouse_transactions_created_total')).toEqual({ '': 1 });
  });

  it('when a key was looked up six times, then the cache counts one miss, four hits and the unknown key’s miss', () => {
    expect(seriesOf(metrics, 'gatehouse_key_cache_lookups_total')).toEqual({
      'result=hit': 4,
      'result=miss': 2,
    });
  });

  it('when scraped again, then the first scrape is counted under /metrics', async () => {
    const again = parsePrometheusText((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
    expect(seriesOf(again, 'gatehouse_http_requests_total')).toMatchObject({
      'method=GET,route=/metrics,status=200': 1,
    });
  });
});
