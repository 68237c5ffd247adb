import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createStore } from '../../src/store/create-store.js';
import type { Store } from '../../src/store/store.js';
import type { Resolver } from '../../src/services/webhooks/resolver.js';
import { captureLogs } from './log-capture.js';
import { createPgSchema, pgAvailable } from './postgres.js';
import { TestClock } from './test-clock.js';
import { onceCompiledSchemas } from './schema-compilers.js';

export type TestDialect = 'sqlite' | 'postgres';

/**
 * The dialects every component test runs on. Without a PostgreSQL server the PostgreSQL half is left out, and
 * test/postgres-availability.test.ts reports it as skipped, loudly; CI requires it (GATEHOUSE_TEST_REQUIRE_PG=1).
 */
export const dialects: TestDialect[] = pgAvailable ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestAppOptions {
  readonly dialect?: TestDialect;
  readonly env?: Record<string, string>;
  readonly clock?: TestClock;
  /**
   * The dialect's fast path for validations (SQLite's group commit, PostgreSQL's batched validation), on by
   * default as in production; false runs them through the query-builder unit of work instead.
   */
  readonly groupCommit?: boolean;
  /** Resolves webhook host names (a test points a name at an address of its choosing). */
  readonly resolver?: Resolver;
  /** Where the app finds the built console (default: dist/console, when a build left one there). */
  readonly consoleDir?: string;
}

/** The whole app on a fresh SQLite file of its own, with a controlled clock and captured logs. */
export async function startTestApp(options: TestAppOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  const pgSchema = options.dialect === 'postgres' ? await createPgSchema() : undefined;
  const databaseUrl = pgSchema?.url ?? `sqlite:${join(dir, 'gatehouse.db')}`;
  const config: Config = loadConfig({
    GATEHOUSE_DATABASE_URL: databaseUrl,
    // The whole suite shares two cores with a PostgreSQL server: connections may take a while to come.
    GATEHOUSE_PG_CONNECT_TIMEOUT_MS: '10000',
    ...options.env,
  });
  const fastPath = options.groupCommit ?? true;
  const store: Store = createStore({ ...config, sqliteGroupCommit: fastPath, pgBatchedChanges: fastPath });
  try {
    await store.migrate();
  } catch (error) {
    // A schema left behind by a failed start would outlive the run.
    await store.close();
    await pgSchema?.drop();
    throw error;
  }
  const clock = options.clock ?? new TestClock();
  const logs = captureLogs();
  const { server, services, webhookRunner, operatorRoutes } = await buildApp({
    config,
    store,
    clock,
    logger: logs.logger,
    schemaController: onceCompiledSchemas,
    ...(options.resolver === undefined ? {} : { resolver: options.resolver }),
    ...(options.consoleDir === undefined ? {} : { consoleDir: options.consoleDir }),
  });
  return {
    app: server,
    services,
    /** Webhook delivery: started by the tests that need it (serve starts it in production). */
    webhookRunner,
    operatorRoutes,
    store,
    clock,
    config,
    logs,
    databaseUrl,
    async close() {
      await server.close();
      await store.close();
      await pgSchema?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
