import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { errorEnvelope, expectReply } from '../fixtures/partner-api.js';
import { build, dialects, type TestApp } from '../fixtures/test-app.js';
import { VERSION } from '../../src/config/version.js';

const METRICS_TOKEN = 'scraper-secret-0123456789';

function scrape(t: TestApp, authorization?: string) {
  return t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: authorization === undefined ? {} : { authorization },
  });
}

describe.each(dialects)('GATEHOUSE_METRICS_TOKEN (%s)', (dialect) => {
  test('when it is set and a scrape brings no token, then 401 in the envelope and no metric', async () => {
    const t = await build({ dialect, env: { GATEHOUSE_METRICS_TOKEN: METRICS_TOKEN } });

    const response = await scrape(t);

    expectReply(response, 401, errorEnvelope('authorization', 'a bearer token is required'));
    expect(response.body).not.toContain('gatehouse_');
  });

  test('when it is set and a scrape brings another token (the admin token, a partner key), then 403 and no metric', async () => {
    const t = await build({
      dialect,
      env: { GATEHOUSE_METRICS_TOKEN: METRICS_TOKEN, GATEHOUSE_ADMIN_TOKEN: 'operator-secret-0123456789' },
    });

    for (const token of [
      'operator-secret-0123456789',
      `${METRICS_TOKEN}x`,
      'ghk_0123abcd_' + '0'.repeat(40),
    ]) {
      const response = await scrape(t, `Bearer ${token}`);
      expectReply(response, 403, errorEnvelope('authorization', 'invalid metrics token'));
      expect(response.body).not.toContain('gatehouse_');
    }
  });

  test('when it is set and a scrape brings it, then 200 with the Prometheus text', async () => {
    const t = await build({ dialect, env: { GATEHOUSE_METRICS_TOKEN: METRICS_TOKEN } });

    const response = await scrape(t, `Bearer ${METRICS_TOKEN}`);

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.body).toContain('# TYPE gatehouse_http_requests_total counter');
  });

  test('when it is unset, then /metrics answers anyone (the README says to keep it off public networks)', async () => {
    const t = await build({ dialect });

    const response = await scrape(t);

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('# TYPE gatehouse_http_requests_total counter');
  });

  test('when /health and /ready are asked with no token while it is set, then they still answer (load balancers)', async () => {
    const t = await build({ dialect, env: { GATEHOUSE_METRICS_TOKEN: METRICS_TOKEN } });

    expectReply(await t.app.inject({ method: 'GET', url: '/health' }), 200, {
      status: 'ok',
      version: VERSION,
    });
    expectReply(await t.app.inject({ method: 'GET', url: '/ready' }), 200, { status: 'ready' });
  });
});

describe('GATEHOUSE_METRICS_TOKEN values', () => {
  test('when it is shorter than 16 characters, then the process refuses to start', () => {
    expect(() => loadConfig({ GATEHOUSE_METRICS_TOKEN: 'short' })).toThrow(ConfigError);
  });
});
