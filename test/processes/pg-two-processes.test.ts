import { describe, expect, test } from 'vitest';
import { pgAvailable } from '../fixtures/postgres.js';
import { expectLedgerInvariants } from '../fixtures/store-state.js';
import { expectOneTransaction, useTwoProcesses, validatedBody } from '../fixtures/processes/arrange.js';
import { reply, validate } from '../fixtures/processes/http.js';
import { ALREADY_VALIDATED } from '../fixtures/wire-bodies.js';

describe.skipIf(!pgAvailable)('two gatehouse processes on one PostgreSQL schema (shared server)', () => {
  const twoProcesses = useTwoProcesses();

  test('when 50 validates of one check-in race through two processes, then exactly one is 200, 49 are 400 already validated, and one transaction exists', async () => {
    const { operator, arranged, servers } = await twoProcesses('postgres', { checkins: 1 });
    const [first, second] = servers;
    const checkin = arranged.checkins[0]!;

    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        validate((i % 2 === 0 ? first : second).baseUrl, arranged.headers, checkin.platformId, 15_000),
      ),
    );

    const replies = outcomes.map(reply);
    const transaction = await expectOneTransaction(operator.store, checkin.id);
    const ok = replies.filter((r) => 'status' in r && r.status === 200);
    const rest = replies.filter((r) => !('status' in r) || r.status !== 200);
    expect(ok).toEqual([
      { status: 200, body: validatedBody(arranged, checkin.platformId, transaction.validated_at) },
    ]);
    expect(rest).toEqual(Array.from({ length: 49 }, () => ({ status: 400, body: ALREADY_VALIDATED })));
    await expectLedgerInvariants(operator.store);
    expect([first.isAlive(), second.isAlive()]).toEqual([true, true]);
    // Stopped, so each process has flushed every line it logged.
    await Promise.all([first.stop(), second.stop()]);
    const warnings = [first, second].flatMap((server) =>
      server.logs().filter((line) => typeof line.level === 'number' && line.level >= 40),
    );
    expect(warnings, 'neither process logged a warning or an error').toEqual([]);
  });
});
