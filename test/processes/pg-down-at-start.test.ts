import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { expectLedgerInvariants } from '../fixtures/store-state.js';
import {
  arrangeCheckins,
  expectOneTransaction,
  validatedBody,
  useOperators,
} from '../fixtures/processes/arrange.js';
import { useGatehouseProcesses } from '../fixtures/processes/gatehouse-process.js';
import { pollUntil, reply, send, validate } from '../fixtures/processes/http.js';
import { requirePrivateCluster, usePrivateCluster } from '../fixtures/processes/private-postgres.js';
import { SERVICE_UNAVAILABLE } from '../fixtures/wire-bodies.js';

describe.skipIf(!requirePrivateCluster())('PostgreSQL down when gatehouse starts (private cluster)', () => {
  const cluster = usePrivateCluster();
  const startGatehouse = useGatehouseProcesses();
  const operatorOn = useOperators();

  test('when PostgreSQL is down at start, then the process stays up answering 503 with Retry-After, and serves once it is back', async () => {
    await cluster().stop();
    const server = await startGatehouse(
      { GATEHOUSE_DATABASE_URL: cluster().url('gh_row30'), GATEHOUSE_PG_CONNECT_TIMEOUT_MS: '1000' },
      { waitForMigrations: false },
    );
    const partnerHeaders = { authorization: `Bearer gh_${'x'.repeat(40)}`, 'x-gym-id': '1' };

    // Across a few migration retries (one a second): still up, still 503, never a crash loop.
    for (let round = 0; round < 3; round += 1) {
      const ready = await send(server.baseUrl, 'GET', '/ready');
      expect(reply(ready)).toEqual({ status: 503, body: SERVICE_UNAVAILABLE });
      const partner = await validate(server.baseUrl, partnerHeaders, platformId());
      expect(reply(partner)).toEqual({ status: 503, body: SERVICE_UNAVAILABLE });
      expect(partner.kind === 'response' && partner.headers.get('retry-after')).toBe('1');
      expect(server.isAlive()).toBe(true);
      await sleep(800);
    }

    await cluster().start();
    const ready = await pollUntil(
      () => send(server.baseUrl, 'GET', '/ready').then(reply),
      (r) => 'status' in r && r.status === 200,
      { withinMs: 15_000, intervalMs: 200 },
    );
    expect(ready.result).toEqual({ status: 200, body: { status: 'ready' } });

    // The process applied the migrations; only now can the operator arrange anything.
    const operator = operatorOn(cluster().url('gh_row30_operator'));
    const arranged = await arrangeCheckins(operator.services, 1);
    const checkin = arranged.checkins[0]!;
    const validated = reply(await validate(server.baseUrl, arranged.headers, checkin.platformId));
    const transaction = await expectOneTransaction(operator.store, checkin.id);
    expect(validated).toEqual({
      status: 200,
      body: validatedBody(arranged, checkin.platformId, transaction.validated_at),
    });
    await expectLedgerInvariants(operator.store);
    expect(server.isAlive()).toBe(true);
  });
});
