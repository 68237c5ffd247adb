import { beforeAll, expect } from 'vitest';
import { GatehouseClient, GatehouseError, type GatehouseClientOptions } from '../../sdk/src/index.js';
import { arrangePartner, type ArrangeOptions, type Arranged } from './factories.js';
import { sharedApp } from './partner-api.js';
import type { TestDialect } from './test-app.js';

/**
 * A gatehouse listening on a real port for the enclosing describe (one app, fresh partners per test), and SDK
 * clients pointed at it.
 */
export function liveGatehouse(dialect: TestDialect, env: Record<string, string> = {}) {
  const app = sharedApp({ dialect, env });
  let baseUrl: string | undefined;
  beforeAll(async () => {
    baseUrl = await app().app.listen({ port: 0, host: '127.0.0.1' });
  });
  const url = () => {
    if (baseUrl === undefined) throw new Error('liveGatehouse: not listening');
    return baseUrl;
  };
  return {
    app,
    url,
    arrange: (options?: ArrangeOptions) => arrangePartner(app().services, options),
    client: (a: Arranged, overrides: Partial<GatehouseClientOptions> = {}) =>
      new GatehouseClient({ baseUrl: url(), apiKey: a.key, gymId: a.gym.id, ...overrides }),
  };
}

/** The rejection of a promise that must reject. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, and it succeeded');
}

/** The call fails with a GatehouseError carrying exactly this status, key and message. */
export async function expectRefusal(
  promise: Promise<unknown>,
  expected: { status: number; key: string; message: string },
): Promise<GatehouseError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(GatehouseError);
  const refusal = error as GatehouseError;
  expect({ status: refusal.status, key: refusal.key, message: refusal.message }).toEqual(expected);
  return refusal;
}
