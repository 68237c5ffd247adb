import { describe, expect, test } from 'vitest';
import { expectLedgerInvariants } from '../fixtures/store-state.js';
import { arrangeCheckins, useClusterGatehouse, validatedBody } from '../fixtures/processes/arrange.js';
import { pollUntil, reply, send } from '../fixtures/processes/http.js';
import { requirePrivateCluster } from '../fixtures/processes/private-postgres.js';
import { classify, runStorm, tally } from '../fixtures/processes/storm.js';

const CHECKINS = 150;
const REQUEST_TIMEOUT_MS = 6000;

describe.skipIf(!requirePrivateCluster())(
  'PostgreSQL restarted during a validate storm (private cluster)',
  () => {
    const { cluster, operator, start } = useClusterGatehouse('gh_row32');

    test('when PostgreSQL restarts under a storm of validates, then each answer is 200, already validated, 503 or a timeout, retries succeed, and every 200 has exactly one transaction', async () => {
      const server = await start({
        GATEHOUSE_PG_CONNECT_TIMEOUT_MS: '1000',
        GATEHOUSE_PG_STATEMENT_TIMEOUT_MS: '3000',
        // The storm is one key at up to ~300 requests a second: the per-key limit is not what is under test.
        GATEHOUSE_RATE_LIMIT_PER_SECOND: '0',
      });
      const arranged = await arrangeCheckins(operator().services, CHECKINS);
      const byMember = new Map(arranged.checkins.map((c) => [c.platformId, c]));

      const storm = await runStorm({
        baseUrl: server.baseUrl,
        headers: arranged.headers,
        members: [...byMember.keys()],
        workers: 12,
        pauseMs: 40,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        deadlineMs: 30_000,
        maxAttemptsPerMember: 30,
        fault: { afterAnswers: 30, run: () => cluster().restart() },
      });

      const counts = tally(storm.attempts);
      const allowed = ['200', '400 already validated', '503', 'timeout'];
      expect(
        Object.keys(counts).filter((kind) => !allowed.includes(kind)),
        JSON.stringify(counts),
      ).toEqual([]);
      expect(storm.faultStruck).toBe(true);
      expect(counts['503'] ?? 0, `the restart was felt: ${JSON.stringify(counts)}`).toBeGreaterThan(0);

      // Later requests succeed: every member ended with 200 or, after a 503 or timeout that had committed, 400.
      expect(storm.unfinished).toEqual([]);
      const transactions = await operator().store.db.selectFrom('transactions').selectAll().execute();
      const paid = new Map(transactions.map((t) => [t.checkin_id, t]));
      for (const [member, checkin] of byMember) {
        const mine = storm.attempts.filter((a) => a.member === member);
        const ok = mine.filter((a) => classify(a.outcome) === '200');
        const already = mine.filter((a) => classify(a.outcome) === '400 already validated');
        const transaction = paid.get(checkin.id);
        expect(
          transaction,
          `member ${member}: ${mine.map((a) => classify(a.outcome)).join(', ')}`,
        ).toBeDefined();
        expect(ok.length, `member ${member}: at most one 200`).toBeLessThanOrEqual(1);
        if (ok.length === 1) {
          expect(mine.at(-1), `member ${member}: the 200 ends its attempts`).toBe(ok[0]);
          expect(reply(ok[0]!.outcome)).toEqual({
            status: 200,
            body: validatedBody(arranged, member, transaction!.validated_at),
          });
        } else {
          // Its 200 was lost to the fault: an earlier attempt committed, then every retry was already validated.
          expect(already.length).toBeGreaterThan(0);
          expect(classify(mine[0]!.outcome)).not.toBe('400 already validated');
        }
      }
      expect(transactions).toHaveLength(CHECKINS);
      await expectLedgerInvariants(operator().store);

      expect(server.isAlive()).toBe(true);
      const ready = await pollUntil(
        () => send(server.baseUrl, 'GET', '/ready').then(reply),
        (r) => 'status' in r && r.status === 200,
        { withinMs: 5000, intervalMs: 100 },
      );
      expect(ready.result).toEqual({ status: 200, body: { status: 'ready' } });
    });
  },
);
