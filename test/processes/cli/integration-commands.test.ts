import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { systemClock } from '../../../src/domain/clock.js';
import { createServices, type Services } from '../../../src/services/index.js';
import type { Store } from '../../../src/store/store.js';
import { arrangePartner, platformId, type Arranged } from '../../fixtures/factories.js';
import {
  cliOn,
  csvOf,
  expectSuccess,
  jsonOf,
  openStore,
  tableOf,
  useTempDir,
  type CliResult,
} from '../../fixtures/processes/cli.js';
import { createPgSchema, pgAvailable } from '../../fixtures/postgres.js';
import { snapshotStore } from '../../fixtures/store-state.js';
import { useWellhubHandlers } from '../../fixtures/wellhub-handler.js';

const ALLOW_PRIVATE = { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true' };
/** A busy receiver's first answer: longer than a table shows of it. */
const BUSY = `busy, try again later: ${'x'.repeat(60)}`;
const TIMEZONE = 'America/Sao_Paulo';

/** Every row the commands could touch, the webhook tables and the audit log included. */
async function everything(store: Store) {
  const more: Record<string, unknown[]> = {};
  for (const table of ['webhook_endpoints', 'webhook_deliveries', 'audit_log'] as const) {
    more[table] = await store.db.selectFrom(table).selectAll().execute();
  }
  return { ...(await snapshotStore(store)), ...more };
}

/** A loopback receiver that verifies the Standard Webhooks signature as a partner's does: 204, or 401. */
async function startVerifyingReceiver(secret: () => string) {
  const verified: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const payload = new Webhook(secret()).verify(Buffer.concat(chunks).toString('utf8'), {
          'webhook-id': String(request.headers['webhook-id']),
          'webhook-timestamp': String(request.headers['webhook-timestamp']),
          'webhook-signature': String(request.headers['webhook-signature']),
        });
        verified.push({ id: request.headers['webhook-id'], payload });
        response.writeHead(204).end();
      } catch {
        response.writeHead(401, { 'content-type': 'text/plain' }).end('bad signature');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    verified,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback receiver that answers 503 with BUSY, then 200 `thanks`; it keeps each body it is sent. */
async function startBusyReceiver() {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      if (bodies.length === 1) response.writeHead(503, { 'content-type': 'text/plain' }).end(BUSY);
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A refused call: exit 1, nothing on stdout, exactly `stderr`. */
function expectRefused(result: CliResult, stderr: string) {
  expect([result.code, result.stdout, result.stderr]).toEqual([1, '', stderr]);
}

/** One database per dialect for the whole file: a SQLite file, or a PostgreSQL schema of its own. */
type Opener = (dir: () => string) => Promise<{ url: string; drop: () => Promise<void> }>;
const databases: [string, Opener][] = [
  ['sqlite', async (dir) => ({ url: `sqlite:${join(dir(), 'integration.db')}`, drop: async () => {} })],
];
if (pgAvailable) databases.push(['postgres', () => createPgSchema()]);

/**
 * `gatehouse partner compat|check` and `gatehouse webhook test|attempts`, spawned on one database; this process arranges
 * the network through the operator's services on the same database and reads the store afterwards.
 */
describe.each(databases)(
  'gatehouse partner compat, partner check, webhook test and webhook attempts (%s)',
  (_dialect, open) => {
    const dir = useTempDir();
    let database: Awaited<ReturnType<Opener>>;
    const startWellhubHandler = useWellhubHandlers();
    let cli: ReturnType<typeof cliOn>;
    let store: Store;
    let services: Services;
    let n: Arranged;
    let receiver: Awaited<ReturnType<typeof startVerifyingReceiver>>;
    let standard: { id: number; secret: string };
    /** What the receiver verifies with: the endpoint's secret, unless a test gives it another. */
    let receiverSecret = '';

    beforeAll(async () => {
      database = await open(dir);
      const databaseUrl = database.url;
      cli = cliOn(databaseUrl);
      expectSuccess(await cli(['migrate']));
      store = openStore(databaseUrl);
      const config = loadConfig({
        GATEHOUSE_DATABASE_URL: databaseUrl,
        GATEHOUSE_LOG_LEVEL: 'silent',
        ...ALLOW_PRIVATE,
      });
      services = createServices({ store, clock: systemClock, config });
      n = await arrangePartner(services);
      await services.catalogChanges.updateGym(n.gym.id, { timezone: TIMEZONE });
      receiver = await startVerifyingReceiver(() => receiverSecret);
      const created = await services.webhooks.endpoints.create(n.partner.id, { url: receiver.url });
      receiverSecret = created.secret;
      standard = { id: created.endpoint.id, secret: created.secret };
    });
    afterAll(async () => {
      await receiver.close();
      await services.apiKeys.close();
      await store.close();
      await database.drop();
    });

    test('when the operator shows, sets and resets a profile, then each prints it and the partner row holds it', async () => {
      const profileRow = () =>
        store.db
          .selectFrom('partners')
          .select(['cancelled_spelling', 'gym_from_key'])
          .where('id', '=', n.partner.id)
          .executeTakeFirstOrThrow();
      const id = String(n.partner.id);

      expect(tableOf(await cli(['partner', 'compat', id]))).toEqual([
        { partner_id: id, cancelled_spelling: 'cancelled', gym_from_key: 'false' },
      ]);

      const set = ['partner', 'compat', id, '--cancelled-spelling', 'canceled', '--gym-from-key', 'true'];
      expect(jsonOf(await cli([...set, '--format', 'json']))).toEqual({
        partner_id: n.partner.id,
        cancelled_spelling: 'canceled',
        gym_from_key: true,
      });
      expect(await profileRow()).toEqual({ cancelled_spelling: 'canceled', gym_from_key: 1 });

      // The whole profile is replaced: an option left out is the spec's answer.
      expect(
        jsonOf(await cli(['partner', 'compat', id, '--gym-from-key', 'true', '--format', 'json'])),
      ).toEqual({ partner_id: n.partner.id, cancelled_spelling: 'cancelled', gym_from_key: true });
      expect(expectSuccess(await cli(['partner', 'compat', id, '--reset'])).stdout).toBe(
        `partner_id  cancelled_spelling  gym_from_key\n${id.padEnd(12)}cancelled           false\n`,
      );
      expect(await profileRow()).toEqual({ cancelled_spelling: 'cancelled', gym_from_key: 0 });
      const audited = await store.db
        .selectFrom('audit_log')
        .select(['actor', 'action', 'entity', 'entity_id'])
        .where('entity', '=', 'partner')
        .where('action', '=', 'update')
        .execute();
      expect(audited).toEqual(
        Array.from({ length: 3 }, () => ({
          actor: 'operator',
          action: 'update',
          entity: 'partner',
          entity_id: String(n.partner.id),
        })),
      );
    });

    test('when a profile option is bad or the partner unknown, then compat exits 1, says why and changes nothing', async () => {
      const before = await everything(store);
      const id = String(n.partner.id);

      expectRefused(
        await cli(['partner', 'compat', id, '--cancelled-spelling', 'cancel']),
        "error: option '--cancelled-spelling <spelling>' argument 'cancel' is invalid. must be cancelled or canceled\n" +
          "Run 'gatehouse partner compat --help' for its usage.\n",
      );
      expectRefused(
        await cli(['partner', 'compat', id, '--gym-from-key', 'yes']),
        "error: option '--gym-from-key <bool>' argument 'yes' is invalid. must be true or false\n" +
          "Run 'gatehouse partner compat --help' for its usage.\n",
      );
      expectRefused(
        await cli(['partner', 'compat', id, '--reset', '--gym-from-key', 'true']),
        "error: option '--reset' cannot be used with option '--gym-from-key <bool>'\n" +
          "Run 'gatehouse partner compat --help' for its usage.\n",
      );
      expectRefused(
        await cli(['partner', 'compat', '999999', '--cancelled-spelling', 'canceled']),
        'gatehouse: partner not found (partner.not-found)\n',
      );
      expect(await everything(store)).toEqual(before);
    });

    test("when the operator checks a partner, then it prints the gyms with their zones and each endpoint's health", async () => {
      const gone = await services.webhooks.endpoints.create(n.partner.id, {
        url: 'http://127.0.0.1:9/gone',
        format: 'wellhub',
        secret: 'partner-chosen-secret',
      });
      await store.write((trx) =>
        services.webhooks.endpoints.disableInTransaction(trx, gone.endpoint.id, 'gone'),
      );
      const before = await everything(store);

      const printed = expectSuccess(await cli(['partner', 'check', String(n.partner.id)])).stdout;

      const report = {
        partner: { id: n.partner.id, name: n.partner.name, environment: 'live' },
        key: null,
        gyms: [{ id: n.gym.id, name: n.gym.name, timezone: TIMEZONE }],
        rate_limit: { requests_per_second: 200 },
        compatibility: { cancelled_spelling: 'cancelled', gym_from_key: false },
        webhooks: [
          {
            id: standard.id,
            url: receiver.url,
            format: 'standard',
            status: 'enabled',
            disabled_reason: null,
            last_attempt: null,
            success_rate_24h: null,
            pending: 0,
          },
          {
            id: gone.endpoint.id,
            url: 'http://127.0.0.1:9/gone',
            format: 'wellhub',
            status: 'disabled',
            disabled_reason: 'gone',
            last_attempt: null,
            success_rate_24h: null,
            pending: 0,
          },
        ],
      };
      expect(printed).toBe(`${JSON.stringify(report, null, 2)}\n`);
      expect(await everything(store)).toEqual(before);

      expectRefused(
        await cli(['partner', 'check', '999999']),
        'gatehouse: partner not found (partner.not-found)\n',
      );
      expectRefused(
        await cli(['partner', 'check', 'acme']),
        "error: command-argument value 'acme' is invalid for argument 'partner-id'. must be a positive integer\n" +
          "Run 'gatehouse partner check --help' for its usage.\n",
      );
      expect(await everything(store)).toEqual(before);
    });

    test('when the operator tests a standard endpoint, then the receiver verifies a test.ping, the outcome is printed and nothing is logged', async () => {
      const before = await everything(store);

      const outcome = jsonOf<Record<string, unknown>>(
        await cli(['webhook', 'test', String(standard.id), '--format', 'json'], ALLOW_PRIVATE),
      );

      expect(receiver.verified).toEqual([
        {
          id: outcome.event_id,
          payload: {
            type: 'test.ping',
            timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) as unknown,
            data: { webhook_id: standard.id, partner_id: n.partner.id, test: true },
          },
        },
      ]);
      expect(outcome).toEqual({
        webhook_id: standard.id,
        format: 'standard',
        event_type: 'test.ping',
        event_id: expect.stringMatching(/^evt_test_[0-9a-f]{16}$/) as unknown,
        delivered: true,
        status_code: 204,
        error: null,
        duration_ms: expect.any(Number) as unknown,
        response_excerpt: '',
      });
      expect(await everything(store)).toEqual(before);
    });

    test('when the receiver holds another secret, then the test prints the 401 and its answer, exits 1, and nothing is logged', async () => {
      receiverSecret = 'whsec_' + Buffer.from('not the endpoint secret').toString('base64');
      onTestFinished(() => {
        receiverSecret = standard.secret;
      });
      const before = await everything(store);
      receiver.verified.length = 0;

      const result = await cli(['webhook', 'test', String(standard.id)], ALLOW_PRIVATE);

      expect([result.code, result.stderr]).toEqual([1, '']);
      const [row] = tableOf({ ...result, code: 0 });
      expect(row).toEqual({
        webhook_id: String(standard.id),
        format: 'standard',
        event_type: 'test.ping',
        event_id: expect.stringMatching(/^evt_test_[0-9a-f]{16}$/) as unknown,
        delivered: 'false',
        status_code: '401',
        error: '',
        duration_ms: expect.stringMatching(/^\d+$/) as unknown,
        response_excerpt: 'bad signature',
      });
      expect(receiver.verified).toEqual([]);
      expect(await everything(store)).toEqual(before);
    });

    test('when the operator tests a wellhub endpoint, then the handler verifies X-Gympass-Signature of the test member', async () => {
      const secret = 'partner-chosen-secret';
      const handler = await startWellhubHandler(() => secret);
      // Wellhub's own 1 s timeout is not what this test is about: on a loaded CI machine the command's first request
      // (a new process, a new connection) to a handler in the test's process took longer once.
      const endpoint = await services.webhooks.endpoints.create(n.partner.id, {
        url: handler.url,
        format: 'wellhub',
        secret,
        timeoutMs: 10_000,
      });
      const before = await everything(store);

      const outcome = jsonOf(
        await cli(['webhook', 'test', String(endpoint.endpoint.id), '--format', 'json'], ALLOW_PRIVATE),
      );

      expect(handler.received.map((received) => received.status)).toEqual([200]);
      const payload = JSON.parse(handler.received[0]?.body ?? '') as { event_data: { timestamp: number } };
      expect(payload).toEqual({
        event_type: 'checkin',
        event_data: {
          user: { unique_token: '0000000000000', first_name: 'Test', last_name: 'Member' },
          gym: {
            id: n.gym.id,
            title: n.gym.name,
            product: { id: n.product.id, description: n.product.description },
          },
          timestamp: payload.event_data.timestamp,
        },
      });
      expect(outcome).toEqual({
        webhook_id: endpoint.endpoint.id,
        format: 'wellhub',
        event_type: 'checkin',
        event_id: null,
        delivered: true,
        status_code: 200,
        error: null,
        duration_ms: expect.any(Number) as unknown,
        response_excerpt: '',
      });
      expect(await everything(store)).toEqual(before);
    });

    test('when the endpoint is unknown or the id not a number, then webhook test exits 1, says why and sends nothing', async () => {
      const before = await everything(store);
      receiver.verified.length = 0;

      expectRefused(
        await cli(['webhook', 'test', '999999'], ALLOW_PRIVATE),
        'gatehouse: webhook not found (webhook.not-found)\n',
      );
      expectRefused(
        await cli(['webhook', 'test', '0'], ALLOW_PRIVATE),
        "error: command-argument value '0' is invalid for argument 'webhook-id'. must be a positive integer\n" +
          "Run 'gatehouse webhook test --help' for its usage.\n",
      );
      expect(receiver.verified).toEqual([]);
      expect(await everything(store)).toEqual(before);
    });

    test('when a delivery was answered 503 and then 200, then webhook attempts lists both, the answer cut short in the table and whole in JSON and CSV, and changes nothing', async () => {
      const busy = await startBusyReceiver();
      onTestFinished(() => busy.close());
      const m = await arrangePartner(services);
      const endpoint = await services.webhooks.endpoints.create(m.partner.id, {
        url: busy.url,
        eventTypes: ['checkin.created'],
      });
      // The delivery loop `gatehouse serve` runs, here in this process, retrying after a fifth of a second.
      const runner = services.webhooks.runner(
        loadConfig({
          GATEHOUSE_DATABASE_URL: database.url,
          GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '0.2,0.3',
          ...ALLOW_PRIVATE,
        }),
        { warn: () => {}, error: () => {} },
      );
      runner.start();
      await services.checkins.create({ platformId: platformId(), gymId: m.gym.id, productId: m.product.id });
      const delivered = () =>
        store.db
          .selectFrom('webhook_deliveries')
          .select(['id', 'status'])
          .where('endpoint_id', '=', endpoint.endpoint.id)
          .execute();
      await expect
        .poll(delivered, { timeout: 15_000 })
        .toEqual([{ id: expect.any(Number) as unknown, status: 'delivered' }]);
      await runner.stop();
      const [delivery] = await delivered();
      const id = String(delivery?.id);
      const attemptRows = () =>
        store.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', Number(id)).execute();
      const before = { ...(await everything(store)), attempts: await attemptRows() };
      expect(before.attempts).toHaveLength(2);
      expect(busy.bodies).toHaveLength(2);
      const instant = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown;

      const [tableRun, jsonRun, csvRun] = await Promise.all([
        cli(['webhook', 'attempts', id]),
        cli(['webhook', 'attempts', id, '--format', 'json']),
        cli(['webhook', 'attempts', id, '--format', 'csv']),
      ]);
      const [table, json, csv] = [tableOf(tableRun), jsonOf(jsonRun), csvOf(csvRun)];

      const digits = expect.stringMatching(/^\d+$/) as unknown;
      expect(table).toEqual([
        {
          attempt: '1',
          attempted_at: instant,
          status_code: '503',
          error: 'HTTP 503',
          duration_ms: digits,
          response_excerpt: `${BUSY.slice(0, 39)}…`,
        },
        {
          attempt: '2',
          attempted_at: instant,
          status_code: '200',
          error: '',
          duration_ms: digits,
          response_excerpt: 'thanks',
        },
      ]);
      const attempt = (n: number) => ({
        id: expect.any(Number) as unknown,
        delivery_id: Number(id),
        attempt: n,
        attempted_at: instant,
        duration_ms: expect.any(Number) as unknown,
        request_body: busy.bodies[0],
      });
      expect(json).toEqual([
        { ...attempt(1), status_code: 503, error: 'HTTP 503', response_excerpt: BUSY },
        { ...attempt(2), status_code: 200, error: null, response_excerpt: 'thanks' },
      ]);
      expect(csv).toEqual(
        (json as Record<string, unknown>[]).map((row) =>
          Object.fromEntries(
            Object.entries(row).map(([field, value]) => [
              field,
              value === null ? '' : String(value as string | number),
            ]),
          ),
        ),
      );
      expect({ ...(await everything(store)), attempts: await attemptRows() }).toEqual(before);
    });

    test('when the delivery is unknown or the id not a number, then webhook attempts exits 1, says why and changes nothing', async () => {
      const before = await everything(store);

      expectRefused(
        await cli(['webhook', 'attempts', '999999']),
        'gatehouse: delivery not found (delivery.not-found)\n',
      );
      expectRefused(
        await cli(['webhook', 'attempts', 'first']),
        "error: command-argument value 'first' is invalid for argument 'delivery-id'. must be a positive integer\n" +
          "Run 'gatehouse webhook attempts --help' for its usage.\n",
      );
      expect(await everything(store)).toEqual(before);
    });
  },
);
