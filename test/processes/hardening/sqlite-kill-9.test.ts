import SqliteDatabase from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { expectLedgerInvariants } from '../../fixtures/store-state.js';
import { arrangeSqliteStorm, useOperators, validatedBody } from '../../fixtures/processes/arrange.js';
import { pollUntil, reply, send, statusOf, validate } from '../../fixtures/processes/http.js';
import { recordValidateHistory, statusOrFailure } from '../../fixtures/processes/history.js';
import { useServeProcesses, useTempDir } from '../../fixtures/processes/serve-process.js';
import { ALREADY_VALIDATED } from '../../fixtures/wire-bodies.js';

const CHECKINS = 300;

describe('kill -9 during a SQLite validate storm, then restart', () => {
  const dir = useTempDir('gatehouse-kill9-');
  const start = useServeProcesses();
  const operatorOn = useOperators();

  test('when the process is killed with SIGKILL amid concurrent validates, then it restarts cleanly on the same file, integrity_check is ok, every 200 the client saw has exactly one transaction, and the ledger matches the validated check-ins one to one', async () => {
    // Only the server has the file open when it dies: what it left behind is all a restart has to go on.
    const { path, env, arranged, checkinOf } = await arrangeSqliteStorm(dir(), CHECKINS);

    const first = await start(env);
    const storm = await recordValidateHistory({
      baseUrl: first.baseUrl,
      headers: arranged.headers,
      members: [...checkinOf.keys()],
      workers: 16,
      requestTimeoutMs: 5000,
      deadlineMs: 30_000,
      fault: { afterAnswers: 60, run: () => first.kill('SIGKILL') },
      serverAlive: () => first.isAlive(),
    });
    const exit = await first.exited;
    expect(exit.signal, 'the first process died of SIGKILL').toBe('SIGKILL');
    expect(storm.struck).toBe(true);
    const kinds = new Set(storm.history.map((sent) => statusOrFailure(sent.outcome)));
    expect([...kinds].filter((kind) => kind !== '200' && kind !== 'network-error')).toEqual([]);
    const ok = storm.history.filter((sent) => statusOrFailure(sent.outcome) === '200');
    const failed = storm.history.filter((sent) => statusOrFailure(sent.outcome) !== '200');
    expect(ok.length).toBeGreaterThanOrEqual(60);
    expect(failed.length, 'some requests were cut by the kill').toBeGreaterThan(0);

    const second = await start(env);
    const ready = await pollUntil(
      () => send(second.baseUrl, 'GET', '/ready').then(reply),
      (r) => 'status' in r && r.status === 200,
      { withinMs: 5000, intervalMs: 100 },
    );
    expect(ready.result).toEqual({ status: 200, body: { status: 'ready' } });
    const check = new SqliteDatabase(path, { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      check.close();
    }

    const operator = operatorOn(env.GATEHOUSE_DATABASE_URL);
    const transactions = await operator.store.db.selectFrom('transactions').selectAll().execute();
    const paid = new Map(transactions.map((t) => [t.checkin_id, t]));
    for (const { member, outcome } of ok) {
      const transaction = paid.get(checkinOf.get(member)!);
      expect(transaction, `the 200 for ${member} was persisted`).toBeDefined();
      expect(reply(outcome)).toEqual({
        status: 200,
        body: validatedBody(arranged, member, transaction!.validated_at),
      });
    }
    await expectLedgerInvariants(operator.store);

    // The cut requests either committed before the kill (their retry: already validated) or did not (200 now).
    for (const { member } of failed) {
      const retry = reply(await validate(second.baseUrl, arranged.headers, member));
      const committed = paid.has(checkinOf.get(member)!);
      expect(retry, `retry of ${member}`).toEqual(
        committed ? { status: 400, body: ALREADY_VALIDATED } : expect.objectContaining({ status: 200 }),
      );
    }
    for (const member of storm.unsent) {
      expect(statusOf(await validate(second.baseUrl, arranged.headers, member))).toBe(200);
    }
    expect(await operator.store.db.selectFrom('transactions').select('id').execute()).toHaveLength(CHECKINS);
    await expectLedgerInvariants(operator.store);
    expect(second.isAlive()).toBe(true);
  });
});
