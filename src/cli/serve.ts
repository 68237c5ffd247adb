import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp, type App, type AppDependencies } from '../app.js';
import { redactCredentials } from '../domain/credentials.js';
import { flushLog, loggableError, loggerOptions } from '../http/logging.js';
import type { Config } from '../config/index.js';
import { curlValidateLine, seedDemo } from '../services/demo.js';
import type { Services } from '../services/index.js';
import { createStore, isStoreUnavailable } from '../store/create-store.js';
import type { Store } from '../store/store.js';
import { assertDatabaseAccepts } from './database-check.js';
import { logOutput } from './log-output.js';
import { scheduleDailyPurge } from './purge-schedule.js';
import { createDeliverySettingsCheck } from '../services/webhooks/delivery-settings-check.js';
import type { RunnerLog } from '../services/webhooks/delivery-runner.js';
import { deliveryThread } from './delivery-thread.js';
import { threadSender } from './sender-thread.js';

const MIGRATION_RETRY_MS = 1000;

/**
 * Signals a fault raises on the thread that caused it (a native crash). close-with-grace listens for them too, but a
 * listener makes the kernel return to the faulting instruction, which faults again: the process spun at full CPU
 * for ever instead of ending (seen when the terminal of a `serve` went away). Left to their default, they end it.
 */
const FAULT_SIGNALS: closeWithGrace.AllEvents[] = [
  'SIGSEGV',
  'SIGBUS',
  'SIGFPE',
  'SIGILL',
  'SIGTRAP',
  'SIGABRT',
];

/** On the default database only, and only when it is empty: seed the demo and say how to try it. */
async function demoBanner(config: Config, services: Services, baseUrl: string): Promise<string | undefined> {
  if (!config.databaseUrlIsDefault) return undefined;
  if (!(await services.catalog.isEmpty())) {
    return `gatehouse is serving ${baseUrl}, the console at ${baseUrl}/console/. For a fresh demo check-in and key: ./gatehouse demo\n`;
  }
  const demo = await seedDemo(services);
  return (
    `\ngatehouse is serving ${baseUrl} on ${redactCredentials(config.databaseUrl)}, seeded with a demo partner.\n` +
    `Validate the demo check-in (it expires in ${Math.round(config.checkinTtlSeconds / 60)} minutes):\n\n` +
    `  ${curlValidateLine(baseUrl, demo)}\n\n` +
    `A fresh one later: ./gatehouse demo\n` +
    `The console: ${baseUrl}/console/ (front desk: the key above and gym ${demo.gymId})\n`
  );
}

/**
 * Applies migrations, waiting for the database when it is unreachable: the process stays up meanwhile, answering
 * 503 (no crash loop when PostgreSQL is down at start). Any other failure is thrown.
 */
async function migrateWhenReachable(
  store: Store,
  log: FastifyBaseLogger,
  stopped: () => boolean,
): Promise<boolean> {
  for (;;) {
    try {
      // A restore found and continued from: said loudly, once, by the process that did it.
      for (const note of await store.migrate()) log.warn(note);
      return true;
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      log.warn({ error: loggableError(error as Error) }, 'database unavailable; retrying migrations');
    }
    await sleep(MIGRATION_RETRY_MS);
    if (stopped()) return false;
  }
}

/**
 * A long-running server's old generation should track its live data, not the garbage of the last few seconds. Left
 * to V8's defaults, a busy gatehouse (about 30 MiB live) lets the old generation grow to 60-100 MiB before a full
 * collection, so resident memory climbs under load and only comes back when the load stops. A smaller growing
 * factor after each full collection keeps it within a few MiB of the live set (bench/README: the 1M-request soak).
 * It is the one V8 setting that takes effect after start-up; `--max-semi-space-size=8` (npm start) is the other
 * half and has to be given on the command line.
 */
function boundHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=30');
}

/**
 * Webhook delivery's work taken off the event loop that answers validations (GATEHOUSE_WEBHOOK_THREAD). On
 * PostgreSQL the whole loop runs on a thread with connections of its own. On SQLite the loop keeps the serving
 * connection and only its requests go out from a thread: a second connection's writes would contend with the
 * validations' group commit for the one write lock (measured: fewer deliveries a second, not more).
 */
function deliveryOffThread(
  config: Config,
  dialect: Store['dialect'],
  log: Pick<RunnerLog, 'error'>,
): Pick<AppDependencies, 'deliveryLoop' | 'webhookSender'> {
  if (!config.webhookThread) return {};
  if (dialect === 'postgres') {
    return { deliveryLoop: (runnerLog, observer) => deliveryThread(config, runnerLog, observer) };
  }
  return { webhookSender: threadSender(config.webhookAllowPrivate, log) };
}

/** `gatehouse serve`: listen, migrate (unless told not to), and drain cleanly on SIGTERM/SIGINT. */
export async function serve(config: Config): Promise<void> {
  boundHeapGrowth();
  const log = await logOutput(config.logFormat, process.stdout.isTTY);
  const logger = pino(loggerOptions(config.logLevel), log.stream);
  // The logger exists before the store: a connection error reported while the app is being built is a log line
  // too, not a stray line on stderr beside the message a failed start exits with.
  const store = createStore({
    ...config,
    sqliteCheckpointThread: true,
    onBackgroundError: (error) => logger.warn({ error: loggableError(error) }, 'database connection error'),
  });
  try {
    // A missing database or a refused login stops here, in one line, before anything listens or retries.
    await assertDatabaseAccepts(store, config.databaseUrl);
  } catch (error) {
    await store.close();
    log.stop();
    throw error;
  }
  const state: Started['state'] = {
    migrated: !config.migrate,
    closing: false,
    stopPurge: () => {},
    forgetSettings: () => Promise.resolve(),
  };
  const { server, services, webhookRunner, natsFeed } = await buildApp({
    config,
    store,
    logger,
    isAccepting: () => state.migrated,
    ...deliveryOffThread(config, store.dialect, logger),
  });
  const shutdown = closeWithGrace(
    { delay: config.shutdownGraceMs, skip: FAULT_SIGNALS },
    async ({ err, signal }) => {
      state.closing = true;
      state.stopPurge();
      if (err !== undefined) server.log.error({ error: loggableError(err) }, 'shutting down after an error');
      else server.log.info({ signal }, 'shutting down');
      // Deliveries in flight are cut short and sent again by the next start: none is lost.
      await webhookRunner.stop();
      await natsFeed?.stop();
      await server.close();
      await state.forgetSettings().catch(() => undefined);
      await store.close();
      log.stop();
    },
  );
  try {
    await start(config, { server, services, store, state });
    if (state.migrated && !state.closing) {
      webhookRunner.start();
      natsFeed?.start();
    }
  } catch (error) {
    // close-with-grace would end the process with 0 once the event loop empties (its beforeExit handler): a
    // supervisor restarting on failure must see this one. Release everything and let the CLI exit 1 with the message.
    shutdown.uninstall();
    state.closing = true;
    state.stopPurge();
    server.log.fatal({ error: loggableError(error as Error) }, 'could not start');
    await server.close().catch(() => undefined);
    await state.forgetSettings().catch(() => undefined);
    await store.close().catch(() => undefined);
    log.stop();
    throw error;
  }
}

interface Started {
  readonly server: App['server'];
  readonly services: Services;
  readonly store: Store;
  readonly state: {
    migrated: boolean;
    closing: boolean;
    stopPurge: () => void;
    /** Removes this process's delivery settings from the database (they were recorded at start). */
    forgetSettings: () => Promise<void>;
  };
}

/**
 * Records this process's delivery settings and says, in one warning line, when another process on the database
 * runs with different ones (README, "Running on PostgreSQL, with several processes"). A schema migrated by an
 * older release (GATEHOUSE_MIGRATE=false) has no table for them: nothing to compare with then.
 */
async function checkDeliverySettings(config: Config, { server, services, store, state }: Started) {
  const check = createDeliverySettingsCheck({ store, clock: services.clock, config });
  const warning = await check.start().then(
    (line) => {
      state.forgetSettings = () => check.stop();
      return line;
    },
    () => undefined,
  );
  if (warning !== undefined) server.log.warn(warning);
}

/** Listens, migrates when asked to, and prints the demo banner: any failure here is a failure to start. */
async function start(config: Config, { server, services, store, state }: Started): Promise<void> {
  await server.listen({ host: config.host, port: config.port });
  if (config.migrate) {
    // A failure that is not a wait-and-see one (the database was dropped meanwhile, say) is a failure to start:
    // serve() stops rather than answer 503 for ever.
    state.migrated = await migrateWhenReachable(store, server.log, () => state.closing);
    if (!state.migrated) return;
  }
  // Before the line that says the process is ready, so a warning is among its first lines.
  await checkDeliverySettings(config, { server, services, store, state });
  if (config.migrate) server.log.info('migrations applied');
  state.stopPurge = scheduleDailyPurge(services, server.log);
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const banner = await demoBanner(config, services, `http://${host}:${port}`);
  if (banner === undefined) return;
  await flushLog(server.log);
  process.stdout.write(banner);
}
