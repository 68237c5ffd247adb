import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { pgAvailable } from '../fixtures/postgres.js';
import { expectBothListening, useTwoProcesses } from '../fixtures/processes/arrange.js';
import type { GatehouseProcess } from '../fixtures/processes/gatehouse-process.js';
import { pollUntil, reply, validate } from '../fixtures/processes/http.js';
import { EXPLICIT_DENY, NOT_FOUND_CHECKIN } from '../fixtures/wire-bodies.js';

// Long enough that only the change feed (LISTEN/NOTIFY, PRAGMA data_version) can explain a prompt 403.
const KEY_CACHE_SECONDS = '60';
// A second on an idle machine; a loaded test machine is allowed more, still far below the cache's 60 s.
const WITHIN_MS = 10_000;

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
        { withinMs: WITHIN_MS, intervalMs: 25 },
      );
      return { last: polled.result, elapsedMs: polled.elapsedMs };
    }),
  );
}

function expectRefusedPromptly(refusals: Awaited<ReturnType<typeof timeToRefusal>>) {
  for (const { last, elapsedMs } of refusals) {
    expect(last).toEqual({ status: 403, body: EXPLICIT_DENY });
    expect(elapsedMs).toBeLessThan(WITHIN_MS);
  }
}

describe('across processes: a revoked key stops working on every process long before their key caches expire', () => {
  const twoProcesses = useTwoProcesses();
  const env = { GATEHOUSE_KEY_CACHE_SECONDS: KEY_CACHE_SECONDS };

  test.skipIf(!pgAvailable)(
    'on PostgreSQL: when the operator revokes a key, then two processes caching keys for 60 s refuse it within seconds, not when the cache expires (LISTEN/NOTIFY)',
    async () => {
      const { operator, arranged, servers } = await twoProcesses('postgres', {
        env,
        applicationName: 'gh_keys',
      });
      // Both processes LISTEN before the key is cached, so what they cache is not cleared by their own connect.
      await expectBothListening(operator, 'gh_keys');
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
      expectRefusedPromptly(await timeToRefusal(servers, arranged.headers));
    },
  );

  test('on SQLite: when the operator revokes a key in the shared file, then two processes caching keys for 60 s refuse it within seconds, not when the cache expires (data_version and the count of announced changes)', async () => {
    const { operator, arranged, servers } = await twoProcesses('sqlite', { env });
    for (const server of servers)
      expect(await probe(server, arranged.headers)).toEqual({ status: 404, body: NOT_FOUND_CHECKIN });

    // Control: a revocation written behind gatehouse's back commits in the shared file but announces nothing; every
    // process runs this release, so no commit alone empties their caches, and the cache really holds.
    await operator.store.db
      .updateTable('api_keys')
      .set({ revoked_at: Date.now() })
      .where('id', '=', arranged.keyId)
      .execute();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const server of servers)
      expect(await probe(server, arranged.headers)).toEqual({ status: 404, body: NOT_FOUND_CHECKIN });

    await operator.services.apiKeys.revoke(arranged.keyId);
    expectRefusedPromptly(await timeToRefusal(servers, arranged.headers));
  });
});
