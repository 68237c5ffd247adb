import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { pgAvailable } from '../fixtures/postgres.js';
import { arrangeCheckins, useOwnDatabase, type Operator } from '../fixtures/processes/arrange.js';
import { useGatehouseProcesses, type GatehouseProcess } from '../fixtures/processes/gatehouse-process.js';
import { pollUntil, reply, validate } from '../fixtures/processes/http.js';
import { EXPLICIT_DENY, NOT_FOUND_CHECKIN } from '../fixtures/wire-bodies.js';

// Long enough that only the change feed (LISTEN/NOTIFY, PRAGMA data_version) can explain a prompt 403.
const KEY_CACHE_SECONDS = '60';
const WITHIN_MS = 1000;

/** A validate for a member with no check-in: 404 while the key is live, 403 once refused; it writes nothing. */
function probe(server: GatehouseProcess, headers: Record<string, string>) {
  return validate(server.baseUrl, headers, platformId()).then(reply);
}

/** Polls each process (bounded at twice the promise) and returns how long each took to refuse the key. */
async function timeToRefusal(servers: GatehouseProcess[], headers: Record<string, string>) {
  return Promise.all(
    servers.map(async (server) => {
      const polled = await pollUntil(
        () => probe(server, headers),
        (r) => 'status' in r && r.status === 403,
        { withinMs: 2 * WITHIN_MS, intervalMs: 25 },
      );
      return { last: polled.result, elapsedMs: polled.elapsedMs };
    }),
  );
}

function expectRefusedWithinASecond(refusals: Awaited<ReturnType<typeof timeToRefusal>>) {
  for (const { last, elapsedMs } of refusals) {
    expect(last).toEqual({ status: 403, body: EXPLICIT_DENY });
    expect(elapsedMs).toBeLessThan(WITHIN_MS);
  }
}

describe('across processes: a revoked key stops working on every process within a second', () => {
  const startGatehouse = useGatehouseProcesses();
  const ownDatabase = useOwnDatabase();

  async function warmedUp(
    operator: Operator,
    env: Record<string, string> & { GATEHOUSE_DATABASE_URL: string },
  ) {
    const arranged = await arrangeCheckins(operator.services, 0);
    const servers = await Promise.all([startGatehouse(env), startGatehouse(env)]);
    return { arranged, servers };
  }

  test.skipIf(!pgAvailable)(
    'on PostgreSQL: when the operator revokes a key, then two processes caching keys for 60 s refuse it within a second (LISTEN/NOTIFY)',
    async () => {
      const { url: schemaUrl, operator } = await ownDatabase('postgres');
      const url = `${schemaUrl}&application_name=gh_keys`;
      const { arranged, servers } = await warmedUp(operator, {
        GATEHOUSE_DATABASE_URL: url,
        GATEHOUSE_KEY_CACHE_SECONDS: KEY_CACHE_SECONDS,
      });
      // Both processes LISTEN before the key is cached, so what they cache is not cleared by their own connect.
      const listening = await pollUntil(
        () =>
          sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where application_name = 'gh_keys' and query ilike 'listen %' and state = 'idle'`.execute(
            operator.store.db,
          ),
        (r) => r.rows[0]?.n === 2,
        { withinMs: 5000 },
      );
      expect(listening.done, 'both processes LISTEN for key changes').toBe(true);
      await sleep(200);
      for (const server of servers)
        expect(await probe(server, arranged.headers)).toEqual({ status: 404, body: NOT_FOUND_CHECKIN });

      // Control: a revocation written behind gatehouse's back (no NOTIFY) is not seen, the cache really holds.
      await operator.store.db
        .updateTable('api_keys')
        .set({ revoked_at: Date.now() })
        .where('id', '=', arranged.keyId)
        .execute();
      for (const server of servers)
        expect(await probe(server, arranged.headers)).toEqual({ status: 404, body: NOT_FOUND_CHECKIN });

      await operator.services.apiKeys.revoke(arranged.keyId);
      expectRefusedWithinASecond(await timeToRefusal(servers, arranged.headers));
    },
  );

  test('on SQLite: when the operator revokes a key in the shared file, then two processes caching keys for 60 s refuse it within a second (data_version)', async () => {
    const { url, operator } = await ownDatabase('sqlite');
    const { arranged, servers } = await warmedUp(operator, {
      GATEHOUSE_DATABASE_URL: url,
      GATEHOUSE_KEY_CACHE_SECONDS: KEY_CACHE_SECONDS,
    });
    for (const server of servers)
      expect(await probe(server, arranged.headers)).toEqual({ status: 404, body: NOT_FOUND_CHECKIN });

    await operator.services.apiKeys.revoke(arranged.keyId);
    expectRefusedWithinASecond(await timeToRefusal(servers, arranged.headers));
  });
});
