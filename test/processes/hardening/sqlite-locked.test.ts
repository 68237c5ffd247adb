import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { platformId } from '../../fixtures/factories.js';
import { customCodeRow, expectLedgerInvariants, transactionsOf } from '../../fixtures/store-state.js';
import {
  arrangeCheckins,
  expectOneTransaction,
  openOperator,
  validatedBody,
  type Operator,
} from '../../fixtures/processes/arrange.js';
import { reply, send, statusOf } from '../../fixtures/processes/http.js';
import { useServeProcesses, useTempDir } from '../../fixtures/processes/serve-process.js';
import { VERSION } from '../../../src/config/version.js';
import { SERVICE_UNAVAILABLE } from '../../fixtures/wire-bodies.js';

const BUSY_TIMEOUT_MS = 250;

describe('the SQLite file locked by another process', () => {
  const dir = useTempDir('gatehouse-locked-');
  const start = useServeProcesses();
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    // Locks first: a lock left behind would outlive the test.
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Another process's connection to the file, holding the write lock until released (always, after the test). */
  function lockFile(path: string) {
    const locker = new SqliteDatabase(path);
    locker.exec('BEGIN EXCLUSIVE');
    const release = () => {
      if (locker.inTransaction) locker.exec('ROLLBACK');
      if (locker.open) locker.close();
    };
    cleanups.push(release);
    return release;
  }

  async function serving(busyTimeoutMs: number) {
    const path = join(dir(), 'gatehouse.db');
    const operator: Operator = openOperator(`sqlite:${path}`);
    cleanups.push(() => operator.close());
    await operator.store.migrate();
    const partner = await arrangeCheckins(operator.services, 3);
    const server = await start({
      GATEHOUSE_DATABASE_URL: `sqlite:${path}`,
      GATEHOUSE_SQLITE_BUSY_TIMEOUT_MS: String(busyTimeoutMs),
    });
    const validate = (member: string, customCode?: string) =>
      send(server.baseUrl, 'POST', '/access/v1/validate', {
        headers: partner.headers,
        json: { platform_id: member, ...(customCode === undefined ? {} : { custom_code: customCode }) },
      });
    // The key is cached and the connection warm before the lock: only the write can meet it.
    expect(statusOf(await validate(partner.checkins[0]!.platformId))).toBe(200);
    return { path, operator, server, arranged: partner, validate };
  }

  test('when another process holds the write lock beyond the busy timeout, then validate and code writes answer 503 with Retry-After: 1 and change nothing; once released, the validate succeeds with one transaction', async () => {
    const { path, operator, server, arranged, validate } = await serving(BUSY_TIMEOUT_MS);
    const { id: checkinId, platformId: member } = arranged.checkins[1]!;
    const other = platformId();

    const release = lockFile(path);
    const refused = await validate(member, 'Locked#1');
    const refusedCode = await send(server.baseUrl, 'POST', `/access/v1/code/${other}`, {
      headers: arranged.headers,
      json: { custom_code: 'Locked#2' },
    });
    for (const outcome of [refused, refusedCode]) {
      expect(reply(outcome)).toEqual({ status: 503, body: SERVICE_UNAVAILABLE });
      if (outcome.kind !== 'response') throw new Error('no response');
      expect(outcome.headers.get('retry-after')).toBe('1');
      expect(outcome.elapsedMs, 'it waited for the busy timeout, then gave up').toBeGreaterThanOrEqual(
        BUSY_TIMEOUT_MS - 20,
      );
      expect(outcome.elapsedMs).toBeLessThan(BUSY_TIMEOUT_MS + 2000);
    }
    // No partial state, read while the lock is still held.
    const row = await operator.store.db
      .selectFrom('checkins')
      .select('status')
      .where('id', '=', checkinId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    expect(await transactionsOf(operator.store, checkinId)).toHaveLength(0);
    expect(await customCodeRow(operator.store, arranged.gym.id, member)).toBeUndefined();
    expect(await customCodeRow(operator.store, arranged.gym.id, other)).toBeUndefined();
    expect(reply(await send(server.baseUrl, 'GET', '/health'))).toEqual({
      status: 200,
      body: { status: 'ok', version: VERSION },
    });

    release();
    const retried = await validate(member, 'Locked#1');
    const transaction = await expectOneTransaction(operator.store, checkinId);
    expect(reply(retried)).toEqual({
      status: 200,
      body: validatedBody(arranged, member, transaction.validated_at),
    });
    expect((await customCodeRow(operator.store, arranged.gym.id, member))?.code).toBe('Locked#1');
    await expectLedgerInvariants(operator.store);
    expect(reply(await send(server.baseUrl, 'GET', '/ready'))).toEqual({
      status: 200,
      body: { status: 'ready' },
    });
    expect(server.isAlive()).toBe(true);
  });

  test('when the lock is released within the busy timeout, then the waiting validate succeeds, and the server answered other requests while it waited', async () => {
    const { path, operator, server, arranged, validate } = await serving(5000);
    const { id: checkinId, platformId: member } = arranged.checkins[2]!;
    const release = lockFile(path);
    const pending = validate(member);
    let waiting = true;
    void pending.finally(() => (waiting = false));
    await sleep(200);
    // The validate waits for the lock off the event loop: a request that needs no write is answered meanwhile.
    const health = await send(server.baseUrl, 'GET', '/health');
    expect(reply(health)).toEqual({ status: 200, body: { status: 'ok', version: VERSION } });
    if (health.kind !== 'response') throw new Error('no response');
    expect(health.elapsedMs, 'answered while the validate waited, not after it').toBeLessThan(1000);
    expect(waiting).toBe(true);
    await sleep(1000);
    release();
    const answered = await pending;
    const transaction = await expectOneTransaction(operator.store, checkinId);
    expect(reply(answered)).toEqual({
      status: 200,
      body: validatedBody(arranged, member, transaction.validated_at),
    });
    if (answered.kind === 'response') expect(answered.elapsedMs).toBeGreaterThanOrEqual(1150);
  });
});
