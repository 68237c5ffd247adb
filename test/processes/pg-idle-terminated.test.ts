import { describe, expect, test } from 'vitest';
import { expectLedgerInvariants } from '../fixtures/store-state.js';
import {
  arrangeCheckins,
  expectOneTransaction,
  useClusterGatehouse,
  validatedBody,
} from '../fixtures/processes/arrange.js';
import { pollUntil, reply, send, statusOf, validate } from '../fixtures/processes/http.js';
import { requirePrivateCluster } from '../fixtures/processes/private-postgres.js';
import { ALREADY_VALIDATED } from '../fixtures/wire-bodies.js';

const APP = 'gh_row31';

describe.skipIf(!requirePrivateCluster())(
  'PostgreSQL connections terminated while idle (private cluster)',
  () => {
    const { cluster, operator, start } = useClusterGatehouse(APP);

    test('when every idle connection of the process is ended with pg_terminate_backend, then the next request succeeds and the process lives on', async () => {
      const server = await start();
      const arranged = await arrangeCheckins(operator().services, 12);
      const [next, ...warmups] = arranged.checkins;

      // Concurrent validates leave several connections idle in the pool.
      const warm = await Promise.all(
        warmups.map((c) => validate(server.baseUrl, arranged.headers, c.platformId)),
      );
      expect(warm.map(statusOf)).toEqual(warmups.map(() => 200));

      const terminated = await cluster().terminateIdle(APP);
      expect(terminated, 'idle connections of this process (pool and LISTEN) ended').toBeGreaterThan(1);

      const answer = reply(await validate(server.baseUrl, arranged.headers, next!.platformId));
      const transaction = await expectOneTransaction(operator().store, next!.id);
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
      await expectLedgerInvariants(operator().store);
    });
  },
);
