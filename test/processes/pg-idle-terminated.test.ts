import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { expectLedgerInvariants } from '../fixtures/store-state.js';
import {
  arrangeCheckins,
  expectOneTransaction,
  openOperator,
  validatedBody,
  type Operator,
} from '../fixtures/processes/arrange.js';
import { useGatehouseProcesses } from '../fixtures/processes/gatehouse-process.js';
import { pollUntil, reply, send, statusOf, validate } from '../fixtures/processes/http.js';
import { privateClusterSupported, usePrivateCluster } from '../fixtures/processes/private-postgres.js';
import { ALREADY_VALIDATED } from '../fixtures/wire-bodies.js';

const APP = 'gh_row31';

describe.skipIf(!privateClusterSupported)(
  'PostgreSQL connections terminated while idle (private cluster)',
  () => {
    const cluster = usePrivateCluster();
    const startGatehouse = useGatehouseProcesses();
    let operator: Operator;
    beforeEach(async () => {
      operator = openOperator(cluster().url('gh_row31_operator'));
      await operator.store.migrate();
    });
    afterEach(() => operator.close());

    test('when every idle connection of the process is ended with pg_terminate_backend, then the next request succeeds and the process lives on', async () => {
      const server = await startGatehouse({ GATEHOUSE_DATABASE_URL: cluster().url(APP) });
      const arranged = await arrangeCheckins(operator.services, 12);
      const [next, ...warmups] = arranged.checkins;

      // Concurrent validates leave several connections idle in the pool.
      const warm = await Promise.all(
        warmups.map((c) => validate(server.baseUrl, arranged.headers, c.platformId)),
      );
      expect(warm.map(statusOf)).toEqual(warmups.map(() => 200));

      const terminated = await cluster().terminateIdle(APP);
      expect(terminated, 'idle connections of this process (pool and LISTEN) ended').toBeGreaterThan(1);

      const answer = reply(await validate(server.baseUrl, arranged.headers, next!.platformId));
      const transaction = await expectOneTransaction(operator.store, next!.id);
      expect(answer).toEqual({
        status: 200,
        body: validatedBody(arranged, next!.platformId, transaction.validated_at),
      });
      const again = reply(await validate(server.baseUrl, arranged.headers, next!.platformId));
      expect(again).toEqual({ status: 400, body: ALREADY_VALIDATED });

      expect(server.isAlive()).toBe(true);
      expect(reply(await send(server.baseUrl, 'GET', '/ready'))).toEqual({
        status: 200,
        body: { status: 'ready' },
      });
      // The pool's error was handled and logged, not thrown.
      const logged = await pollUntil(
        async () => server.logs().filter((line) => line.msg === 'database connection error'),
        (lines) => lines.length > 0,
        { withinMs: 2000 },
      );
      expect(logged.done, 'the dropped connections were logged as warnings').toBe(true);
      await expectLedgerInvariants(operator.store);
    });
  },
);
