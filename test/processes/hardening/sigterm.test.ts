import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { expectLedgerInvariants, transactionsOf } from '../../fixtures/store-state.js';
import { arrangeCheckins, useOperators, validatedBody } from '../../fixtures/processes/arrange.js';
import { reply } from '../../fixtures/processes/http.js';
import { recordValidateHistory, statusOrFailure } from '../../fixtures/processes/history.js';
import { inFlightValidate, lastResponse } from '../../fixtures/processes/in-flight.js';
import { acceptsConnections, postHead } from '../../fixtures/processes/raw-socket.js';
import { useServeProcesses, useTempDir } from '../../fixtures/processes/serve-process.js';
import { SERVICE_UNAVAILABLE } from '../../fixtures/wire-bodies.js';

const GRACE_MS = 5000;

describe('SIGTERM under load', () => {
  const dir = useTempDir('gatehouse-sigterm-');
  const start = useServeProcesses();
  const operatorOn = useOperators();

  async function serving(checkins: number, grace = GRACE_MS) {
    const url = `sqlite:${join(dir(), 'gatehouse.db')}`;
    const operator = operatorOn(url);
    await operator.store.migrate();
    const arranged = await arrangeCheckins(operator.services, checkins);
    const server = await start({ GATEHOUSE_DATABASE_URL: url, GATEHOUSE_SHUTDOWN_GRACE_MS: String(grace) });
    return { arranged, server, store: operator.store };
  }

  test('when SIGTERM arrives with a request in flight, then new connections are refused, the in-flight request completes with 200 and is persisted, a next request on its connection is refused or answered 503, and the process exits 0 within the grace', async () => {
    const { arranged, server, store } = await serving(2);
    const [first, second] = arranged.checkins;
    const inFlight = await inFlightValidate(server, arranged.headers, first!.platformId);

    const signalledAt = performance.now();
    server.kill('SIGTERM');
    await sleep(300);
    expect(server.isAlive(), 'it drains the request in flight').toBe(true);
    expect(await acceptsConnections(server.address), 'new connections are refused').toBe(false);

    inFlight.finish();
    const answered = lastResponse(await inFlight.connection.waitFor(/\r\n\r\n\{.*\}$/s, 3000));
    const [transaction] = await transactionsOf(store, first!.id);
    expect(transaction, 'the 200 is persisted').toBeDefined();
    expect({ status: answered.status, body: answered.body }).toEqual({
      status: 200,
      body: validatedBody(arranged, first!.platformId, transaction!.validated_at),
    });

    const body = JSON.stringify({ platform_id: second!.platformId });
    inFlight.connection.write(postHead('/access/v1/validate', arranged.headers, body.length) + body);
    const closed = await Promise.race([
      inFlight.connection.closed.then(() => true),
      sleep(3000).then(() => false),
    ]);
    expect(closed, 'the server closes the draining connection').toBe(true);
    // Refused (the connection closed unanswered) or answered 503 — nothing else.
    if (inFlight.connection.received().split('HTTP/1.1 ').length - 1 > 1) {
      const refused = lastResponse(inFlight.connection.received());
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 503,
        body: SERVICE_UNAVAILABLE,
      });
      expect(refused.headers['retry-after']).toBe('1');
    }
    expect(await transactionsOf(store, second!.id), 'the refused request wrote nothing').toHaveLength(0);

    const exit = await server.exited;
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    expect(exit.at - signalledAt).toBeLessThan(GRACE_MS);
    await expectLedgerInvariants(store);
  });

  test('when SIGTERM arrives amid a storm of validates, then every answer is 200, 503 or a refused connection, every 200 is persisted, no 503 wrote anything, and the process exits 0 within the grace', async () => {
    const { arranged, server, store } = await serving(300);
    const checkinOf = new Map(arranged.checkins.map((c) => [c.platformId, c.id]));
    let signalledAt = 0;
    const storm = await recordValidateHistory({
      baseUrl: server.baseUrl,
      headers: arranged.headers,
      members: [...checkinOf.keys()],
      workers: 16,
      requestTimeoutMs: GRACE_MS + 1000,
      deadlineMs: 30_000,
      fault: {
        afterAnswers: 60,
        run: () => {
          signalledAt = performance.now();
          server.kill('SIGTERM');
        },
      },
      serverAlive: () => server.isAlive(),
    });
    const exit = await server.exited;
    expect(storm.struck).toBe(true);
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    expect(exit.at - signalledAt).toBeLessThan(GRACE_MS);

    const kinds = new Set(storm.history.map((sent) => statusOrFailure(sent.outcome)));
    expect([...kinds].filter((kind) => !['200', '503', 'network-error'].includes(kind))).toEqual([]);
    for (const { member, outcome } of storm.history) {
      const rows = await transactionsOf(store, checkinOf.get(member)!);
      if (outcome.kind !== 'response') continue;
      if (outcome.status === 200) {
        expect(rows, `the 200 for ${member} is persisted`).toHaveLength(1);
        expect(reply(outcome)).toEqual({
          status: 200,
          body: validatedBody(arranged, member, rows[0]!.validated_at),
        });
      } else {
        expect(reply(outcome)).toEqual({ status: 503, body: SERVICE_UNAVAILABLE });
        expect(outcome.headers.get('retry-after')).toBe('1');
        expect(rows, `the 503 for ${member} wrote nothing`).toHaveLength(0);
      }
    }
    await expectLedgerInvariants(store);
  });

  test('when a second signal arrives while a request holds the drain, then the process exits at once, and the unfinished request changed nothing', async () => {
    const { arranged, server, store } = await serving(1);
    const [checkin] = arranged.checkins;
    await inFlightValidate(server, arranged.headers, checkin!.platformId);
    server.kill('SIGTERM');
    await sleep(500);
    expect(server.isAlive(), 'the first SIGTERM waits for the request in flight').toBe(true);

    const secondAt = performance.now();
    server.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit.at - secondAt, 'the second signal is obeyed at once').toBeLessThan(500);
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 1, signal: null });
    expect(await transactionsOf(store, checkin!.id)).toHaveLength(0);
  });

  test('when a client never finishes its request, then it does not hold the shutdown past GATEHOUSE_SHUTDOWN_GRACE_MS', async () => {
    const grace = 1500;
    const { arranged, server, store } = await serving(1, grace);
    const [checkin] = arranged.checkins;
    await inFlightValidate(server, arranged.headers, checkin!.platformId);
    const signalledAt = performance.now();
    server.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit.signal).toBeNull();
    expect(exit.at - signalledAt).toBeGreaterThanOrEqual(grace - 100);
    expect(exit.at - signalledAt).toBeLessThan(grace + 1000);
    expect(await transactionsOf(store, checkin!.id)).toHaveLength(0);
  });
});
