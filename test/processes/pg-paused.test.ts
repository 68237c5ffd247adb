import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { expectLedgerInvariants } from '../fixtures/store-state.js';
import {
  arrangeCheckins,
  expectOneTransaction,
  useClusterGatehouse,
  validatedBody,
} from '../fixtures/processes/arrange.js';
import { pollUntil, reply, statusOf, validate } from '../fixtures/processes/http.js';
import { requirePrivateCluster } from '../fixtures/processes/private-postgres.js';
import { ALREADY_VALIDATED, NOT_FOUND_CHECKIN, SERVICE_UNAVAILABLE } from '../fixtures/wire-bodies.js';

const PAUSE_MS = 10_000;
const STATEMENT_TIMEOUT_MS = 1500;
/**
 * The client-side query timeout is the statement timeout + 1 s; a validate may wait on it twice (its statement,
 * then the rollback on the same connection), plus the time to answer.
 */
const ANSWER_WITHIN_MS = 2 * (STATEMENT_TIMEOUT_MS + 1000) + 1000;

describe.skipIf(!requirePrivateCluster())('PostgreSQL paused with SIGSTOP (private cluster)', () => {
  const { cluster, operator, start } = useClusterGatehouse('gh_row33');

  test('when PostgreSQL is paused for 10 s, then a validate answers 503 within the query timeout, and its retry after resume is 200 or already validated with one transaction', async () => {
    const server = await start({
      GATEHOUSE_PG_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      GATEHOUSE_PG_CONNECT_TIMEOUT_MS: '1000',
    });
    const arranged = await arrangeCheckins(operator().services, 1);
    const checkin = arranged.checkins[0]!;
    // A pooled connection exists before the pause, as on a serving process.
    expect(reply(await validate(server.baseUrl, arranged.headers, platformId()))).toEqual({
      status: 404,
      body: NOT_FOUND_CHECKIN,
    });

    const pausedAt = performance.now();
    cluster().pause();
    try {
      const during = await validate(server.baseUrl, arranged.headers, checkin.platformId, PAUSE_MS - 500);
      expect(reply(during)).toEqual({ status: 503, body: SERVICE_UNAVAILABLE });
      expect(during.kind === 'response' && during.headers.get('retry-after')).toBe('1');
      expect(during.elapsedMs, 'no hang: answered within the query timeout').toBeLessThan(ANSWER_WITHIN_MS);
      expect(server.isAlive()).toBe(true);
      await sleep(Math.max(0, PAUSE_MS - (performance.now() - pausedAt)));
    } finally {
      cluster().resume();
    }

    // The timed-out validate may still have committed once PostgreSQL resumed: its retry then says so.
    const retried = await pollUntil(
      () => validate(server.baseUrl, arranged.headers, checkin.platformId),
      (outcome) => statusOf(outcome) === 200 || statusOf(outcome) === 400,
      { withinMs: 10_000, intervalMs: 200 },
    );
    const transaction = await expectOneTransaction(operator().store, checkin.id);
    expect([
      { status: 200, body: validatedBody(arranged, checkin.platformId, transaction.validated_at) },
      { status: 400, body: ALREADY_VALIDATED },
    ]).toContainEqual(reply(retried.result));
    expect(reply(await validate(server.baseUrl, arranged.headers, checkin.platformId))).toEqual({
      status: 400,
      body: ALREADY_VALIDATED,
    });
    await expectLedgerInvariants(operator().store);
    expect(server.isAlive()).toBe(true);
  });
});
