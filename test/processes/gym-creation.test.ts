import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { pgAvailable } from '../fixtures/postgres.js';
import {
  expectBothListening,
  useTwoProcesses,
  type arrangeCheckins,
  type Operator,
} from '../fixtures/processes/arrange.js';
import type { GatehouseProcess } from '../fixtures/processes/gatehouse-process.js';
import { pollUntil, reply, validate } from '../fixtures/processes/http.js';
import { EXPLICIT_DENY, NOT_FOUND_CHECKIN } from '../fixtures/wire-bodies.js';

// Long enough that only the change feed can explain a gym served promptly after it was refused as unknown.
const KEY_CACHE_SECONDS = '60';
const WITHIN_MS = 1000;
const NEW_GYM = 770_000_000_001;

/** A validate at `gymId` for a member with no check-in: 403 while the gym is unknown, 404 once it is the key's. */
function probe(server: GatehouseProcess, headers: Record<string, string>, gymId: number) {
  return validate(server.baseUrl, { ...headers, 'x-gym-id': String(gymId) }, platformId()).then(reply);
}

describe('a gym refused as unknown is served on every process within a second of its creation', () => {
  const twoProcesses = useTwoProcesses();
  const env = { GATEHOUSE_KEY_CACHE_SECONDS: KEY_CACHE_SECONDS };

  async function expectServedEverywhereWithinASecond(
    operator: Operator,
    servers: GatehouseProcess[],
    arranged: Awaited<ReturnType<typeof arrangeCheckins>>,
  ) {
    for (const server of servers) {
      expect(await probe(server, arranged.headers, NEW_GYM)).toEqual({ status: 403, body: EXPLICIT_DENY });
    }

    await operator.services.catalog.createGym({
      id: NEW_GYM,
      partnerId: arranged.partner.id,
      name: 'New gym',
    });

    for (const server of servers) {
      const polled = await pollUntil(
        () => probe(server, arranged.headers, NEW_GYM),
        (r) => 'status' in r && r.status === 404,
        { withinMs: 2 * WITHIN_MS, intervalMs: 25 },
      );
      expect(polled.result).toEqual({ status: 404, body: NOT_FOUND_CHECKIN });
      expect(polled.elapsedMs).toBeLessThan(WITHIN_MS);
    }
  }

  test.skipIf(!pgAvailable)(
    'on PostgreSQL: when the operator creates it, then two processes that remembered it as unknown serve it (LISTEN/NOTIFY)',
    async () => {
      const { operator, arranged, servers } = await twoProcesses('postgres', {
        env,
        applicationName: 'gh_gyms',
      });
      await expectBothListening(operator, 'gh_gyms');

      await expectServedEverywhereWithinASecond(operator, servers, arranged);
    },
  );

  test('on SQLite: when the operator creates it in the shared file, then two processes that remembered it as unknown serve it (data_version)', async () => {
    const { operator, arranged, servers } = await twoProcesses('sqlite', { env });

    await expectServedEverywhereWithinASecond(operator, servers, arranged);
  });
});
