import { GatehouseClient } from '../../sdk/src/index.js';
import type { LocalServer } from './servers.js';

/*
 * The SDK against local node:http stubs that misbehave on purpose: no answer, a cut connection, an empty 200,
 * 503 and 429. What matters is what the SDK does and how many requests the stub saw.
 */

export const MEMBER = '1234567890123';
export const VALID_BODY = {
  metadata: { total: 1, errors: 0 },
  results: {
    user: { platform_id: MEMBER },
    gym: { Id: 7, product: { Id: 3, description: 'Day pass' } },
    validated_at: '2026-03-02T12:00:00Z',
  },
};
export const UNAVAILABLE = {
  metadata: { total: 0, errors: 1 },
  errors: [{ message: 'service temporarily unavailable', key: 'service.unavailable' }],
};
export const CODE = { platform_id: MEMBER, custom_code: 'QR-1', updated_at: '2026-03-02T12:00:00.000Z' };

/** A client of the stub, with short retry delays. */
export function clientOf(server: LocalServer, timeoutMs = 2000) {
  return new GatehouseClient({
    baseUrl: server.url,
    apiKey: 'ghk_test',
    gymId: 7,
    timeoutMs,
    retries: { attempts: 3, delayMs: 10 },
  });
}
