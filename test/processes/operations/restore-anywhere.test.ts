import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { backupSqlite, restoreSqlite } from '../../../src/store/dialects/sqlite/sqlite-backup.js';
import { RESTORE_HEADROOM } from '../../../src/store/dialects/postgres/restored-database.js';
import { openOperator } from '../../fixtures/processes/arrange.js';
import {
  burnTransactionIds,
  createDatabase,
  dumpSchema,
  onSchema,
  queryValue,
  resetSequences,
  restoreDump,
  schemaOf,
} from '../../fixtures/processes/pg-dump.js';
import { requirePrivateCluster, usePrivateCluster } from '../../fixtures/processes/private-postgres.js';
import {
  ADMIN_TOKEN,
  admin,
  arrangeNetwork,
  partnerTransactions,
  validatedVisit,
  type Network,
} from '../../fixtures/operator-api.js';
import { PG_TEST_URL } from '../../fixtures/postgres.js';
import { startTestApp, type TestApp } from '../../fixtures/test-app.js';
import { deliveriesOf, FAST_SCHEDULE, register, RunningClock } from '../../fixtures/webhook-app.js';
import { eventually, useReceivers, type Receiver } from '../../fixtures/webhook-receiver.js';
import {
  openStreamReader,
  ownFeed,
  SHARED_NATS,
  type StreamReader,
} from '../../fixtures/nats-stream-reader.js';

const receiver = useReceivers();
let reader: StreamReader;
beforeAll(async () => {
  reader = await openStreamReader(SHARED_NATS);
});
afterAll(() => reader.close());

/** Where the events go: a receiver for webhooks, a NATS stream of the test's own. */
interface Outlets {
  readonly hook: Receiver;
  readonly feed: ReturnType<typeof ownFeed>;
}

async function outlets(): Promise<Outlets> {
  const feed = ownFeed();
  onTestFinished(() => reader.remove(feed.stream));
  return { hook: await receiver(), feed };
}

interface EventPage {
  items: { position: number; id: string; type: string }[];
}
interface FeedPage {
  results: { id: number; kind: string }[];
}

/**
 * An app delivering webhooks to loopback receivers and publishing to the test's NATS stream, on a database of its
 * own (a dialect's name) or at a URL.
 */
async function startApp(database: string, { feed }: Outlets): Promise<TestApp> {
  const own = database === 'sqlite' || database === 'postgres';
  const t = await startTestApp({
    ...(own ? { dialect: database } : {}),
    clock: new RunningClock(),
    env: {
      GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
      GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
      GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true',
      GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: FAST_SCHEDULE,
      GATEHOUSE_NATS_URL: SHARED_NATS,
      GATEHOUSE_NATS_SUBJECT_PREFIX: feed.prefix,
      GATEHOUSE_NATS_STREAM: feed.stream,
      ...(own ? {} : { GATEHOUSE_DATABASE_URL: database }),
    },
  });
  onTestFinished(async () => {
    await t.natsFeed?.stop();
    await t.webhookRunner.stop();
    await t.close();
  });
  return t;
}

async function json<T>(reply: Promise<{ statusCode: number; body: string }>): Promise<T> {
  const { statusCode, body } = await reply;
  expect(statusCode, body).toBe(200);
  return JSON.parse(body) as T;
}

const events = (t: TestApp) => json<EventPage>(admin(t, 'GET', '/events?limit=200'));
const feed = (t: TestApp, n: Network) => json<FeedPage>(partnerTransactions(t, n.key.key, n.gym.id));

/**
 * Before the backup: two visits whose webhooks were delivered and whose events NATS has, then (delivery and
 * publishing stopped) a third visit and its reversal, which the backup still owes both. Returns what the log and the
 * partner feed answered.
 */
async function arrangeBeforeBackup(source: TestApp, { hook, feed: nats }: Outlets) {
  const n = await arrangeNetwork(source);
  const endpoint = await register(source, n.partner.id, { url: hook.url });
  source.webhookRunner.start();
  source.natsFeed?.start();
  await validatedVisit(source, n);
  await validatedVisit(source, n);
  const logged = (await events(source)).items.length;
  await eventually(async () => {
    const deliveries = await deliveriesOf(source, endpoint.id);
    const published = await reader.count(nats.stream).catch(() => 0);
    return (
      deliveries.length === 4 && deliveries.every((d) => d.status === 'delivered') && published === logged
    );
  });
  expect(hook.received).toHaveLength(4);
  await source.webhookRunner.stop();
  await source.natsFeed?.stop();
  const owed = await validatedVisit(source, n);
  const reversal = await admin(source, 'POST', `/transactions/${owed.transactionId}/reversals`, {
    reason: 'charged twice',
  });
  expect(reversal.statusCode, reversal.body).toBe(201);
  return { n, log: await events(source), feed: await feed(source, n) };
}

type Before = Awaited<ReturnType<typeof arrangeBeforeBackup>>;

/**
 * After the restore: the log and the feed answer what they answered before it; a new visit comes after every
 * restored row; the webhooks and NATS messages the backup owed and the new ones are sent, each event exactly
 * once, by its id (NATS: in the log's order).
 */
async function expectContinued(
  target: TestApp,
  before: Before,
  { hook, feed: nats }: Outlets,
): Promise<void> {
  expect(await events(target)).toEqual(before.log);
  expect(await feed(target, before.n)).toEqual(before.feed);

  target.webhookRunner.start();
  target.natsFeed?.start();
  const visit = await validatedVisit(target, before.n);

  const log = await events(target);
  const restored = before.log.items;
  expect(log.items.slice(0, restored.length)).toEqual(restored);
  const added = log.items.slice(restored.length);
  expect(added.map((event) => event.type)).toEqual(['checkin.created', 'checkin.validated']);
  expect(Math.min(...added.map((e) => e.position))).toBeGreaterThan(
    Math.max(...restored.map((e) => e.position)),
  );
  const entries = await feed(target, before.n);
  expect(entries.results.slice(0, before.feed.results.length)).toEqual(before.feed.results);
  expect(entries.results.slice(before.feed.results.length).map((e) => [e.id, e.kind])).toEqual([
    [visit.transactionId, 'visit'],
  ]);

  await eventually(() => hook.received.length >= log.items.length);
  const sent = hook.received.map((r) => r.headers['webhook-id']);
  expect([...sent].sort()).toEqual(log.items.map((e) => e.id).sort());
  await eventually(async () => (await reader.count(nats.stream)) >= log.items.length);
  expect((await reader.all(nats.stream)).map((m) => m.msgId)).toEqual(log.items.map((e) => e.id));
}

describe('a SQLite backup restored in another directory', () => {
  test('when the backup is restored elsewhere and served, then the log, the feed, webhooks and NATS continue after the restored rows', async () => {
    const out = await outlets();
    const source = await startApp('sqlite', out);
    const before = await arrangeBeforeBackup(source, out);
    const elsewhere = mkdtempSync(join(tmpdir(), 'gatehouse-restored-'));
    onTestFinished(() => rmSync(elsewhere, { recursive: true, force: true }));
    await backupSqlite(source.databaseUrl.slice('sqlite:'.length), join(elsewhere, 'backup.db'));
    await source.webhookRunner.stop();
    await source.close();

    await restoreSqlite(join(elsewhere, 'backup.db'), join(elsewhere, 'gatehouse.db'));
    const target = await startApp(`sqlite:${join(elsewhere, 'gatehouse.db')}`, out);
    await expectContinued(target, before, out);
  });
});

describe.skipIf(!requirePrivateCluster())('a PostgreSQL dump restored into another server', () => {
  const server = usePrivateCluster();

  /** A source on the shared server, whose transaction ids are past any the new server reaches in this test. */
  async function dumpedSource(out: Outlets) {
    await burnTransactionIds(PG_TEST_URL, 50_000);
    const source = await startApp('postgres', out);
    const before = await arrangeBeforeBackup(source, out);
    const schema = schemaOf(source.databaseUrl);
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-dump-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const dump = join(dir, 'gatehouse.dump');
    await dumpSchema(source.databaseUrl.split('?')[0]!, schema, dump);
    await source.webhookRunner.stop();
    await source.close();
    return { before, schema, dump };
  }

  /** The start's migrate on the restored database: what it logs, then nothing the second time. */
  async function migrateRestored(url: string): Promise<string[]> {
    const operator = openOperator(url);
    try {
      const notes = await operator.store.migrate();
      expect(await operator.store.migrate()).toEqual([]);
      return notes;
    } finally {
      await operator.close();
    }
  }

  test('when a dump is restored into a server whose transaction ids are lower, then the start raises the offset once, and the log, the feed, webhooks and NATS continue after the restored rows', async () => {
    const out = await outlets();
    const { before, schema, dump } = await dumpedSource(out);
    const restoredUrl = onSchema(server().url('gh_restore'), schema);
    await restoreDump(server().url('gh_restore'), dump);
    const newest = Math.max(...before.log.items.map((e) => e.position));
    expect(await queryValue<string>(restoredUrl, 'select pg_current_xact_id()::text as value')).toSatisfy(
      (xid: string) => Number(xid) * 1_048_576 < newest,
    );

    const notes = await migrateRestored(restoredUrl);
    expect(notes).toEqual([
      expect.stringMatching(
        /^restored database detected: transaction ids restarted below the stored positions \(newest at transaction \d+, this server at \d+\); new positions start after transaction \d+ \(offset \d+\)$/,
      ),
    ]);
    const offset = Number(
      await queryValue<string>(restoredUrl, 'select xid_offset as value from transaction_id_offset'),
    );
    expect(offset).toBeGreaterThan(RESTORE_HEADROOM);

    const target = await startApp(restoredUrl, out);
    await expectContinued(target, before, out);
  });

  test('when a new cluster holds the rows but no sequences (logical replication), then the start moves each sequence past its ids and new rows never collide', async () => {
    const out = await outlets();
    const { before, schema, dump } = await dumpedSource(out);
    const database = await createDatabase(server().url('gh_replica'), 'replica');
    await restoreDump(database, dump);
    expect(await resetSequences(database, schema)).toContain('events_position_low');
    const replicaUrl = onSchema(database, schema);

    const notes = await migrateRestored(replicaUrl);
    expect(notes).toHaveLength(2);
    expect(notes[1]).toMatch(
      /^restored database detected: sequences behind their tables' ids moved past them: .*transactions_id_seq to \d+/,
    );

    const target = await startApp(replicaUrl, out);
    // The reversal took the greatest id of the ledger's one id space: a new visit's comes after it.
    const reversalId = Number(await queryValue<string>(replicaUrl, 'select max(id) as value from reversals'));
    await expectContinued(target, before, out);
    const newest = Number(await queryValue<string>(replicaUrl, 'select max(id) as value from transactions'));
    expect(newest).toBeGreaterThan(reversalId);
  });
});
