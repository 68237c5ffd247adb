import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrations } from '../../../src/store/migrations/index.js';
import { VERSION } from '../../../src/version.js';
import { createPgSchema, pgAvailable } from '../../fixtures/postgres.js';
import { expectLedgerInvariants } from '../../fixtures/store-state.js';
import { useServeProcesses } from '../hardening/serve-process.js';
import {
  arrangeCheckins,
  expectOneTransaction,
  openOperator,
  validatedBody,
  type Operator,
} from '../../fixtures/processes/arrange.js';
import { reply, send, validate } from '../../fixtures/processes/http.js';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILD_TIMEOUT_MS = 240_000;

/**
 * The previous release's own services, from its build: data made before the upgrade is made by the code that
 * ran then, on the schema it knew (this release's code writes columns that schema does not have yet).
 */
async function openPreviousOperator(worktree: string, databaseUrl: string): Promise<Operator> {
  const built = (path: string) => import(pathToFileURL(join(worktree, 'dist', path)).href);
  const [{ loadConfig }, { createStore }, { createServices }, { systemClock }] = (await Promise.all([
    built('config.js'),
    built('store/create-store.js'),
    built('services/index.js'),
    built('domain/clock.js'),
  ])) as [
    { loadConfig: (env: Record<string, string>) => unknown },
    { createStore: (config: unknown) => Operator['store'] },
    { createServices: (deps: unknown) => Operator['services'] },
    { systemClock: unknown },
  ];
  const config = loadConfig({ GATEHOUSE_DATABASE_URL: databaseUrl, GATEHOUSE_LOG_LEVEL: 'silent' });
  const store = createStore(config);
  const services = createServices({ store, clock: systemClock, config });
  return { store, services, close: () => store.close() };
}

async function git(...args: string[]): Promise<string> {
  return (await run('git', args, { cwd: REPO_ROOT })).stdout.trim();
}

/**
 * The release before the newest migration: the parent of the commit that added the newest migration's file,
 * checked out in a worktree of its own and compiled with this checkout's node_modules (no tag, no install).
 */
async function buildPreviousRelease(dir: string): Promise<void> {
  const newest = Object.keys(migrations).at(-1);
  // Along main's own line of commits (a merge that brought the file in counts as adding it), and whatever the
  // file was called on the branch it came from.
  const added = await git(
    'log',
    '--first-parent',
    '-m',
    '--diff-filter=A',
    '--format=%H',
    '--',
    `src/store/migrations/${newest}.ts`,
  );
  const commit = added.split('\n').at(-1);
  if (commit === undefined || commit === '') throw new Error(`no commit added migration ${newest}`);
  await git('worktree', 'add', '--detach', dir, `${commit}^`);
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  await run(
    process.execPath,
    [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: dir,
      timeout: BUILD_TIMEOUT_MS,
    },
  );
}

async function appliedMigrations(operator: Operator): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
    operator.store.db,
  );
  return rows.rows.map((row) => row.name);
}

describe.skipIf(!pgAvailable)(
  'a rolling upgrade on one PostgreSQL: the release before the newest migration beside this one',
  () => {
    const start = useServeProcesses();
    const worktree = join(mkdtempSync(join(tmpdir(), 'gatehouse-previous-')), 'checkout');
    beforeAll(async () => {
      await buildPreviousRelease(worktree);
    }, BUILD_TIMEOUT_MS + 30_000);
    afterAll(async () => {
      if (worktree === '') return;
      await git('worktree', 'remove', '--force', worktree).catch(() => undefined);
      rmSync(join(worktree, '..'), { recursive: true, force: true });
    });

    test('when the previous release serves, the current one starts beside it and applies the newest migration, then both validate, before and after, with one transaction each', async () => {
      const schema = await createPgSchema();
      const operator = openOperator(schema.url);
      try {
        const env = { GATEHOUSE_DATABASE_URL: schema.url, GATEHOUSE_RATE_LIMIT_PER_SECOND: '0' };
        // The fleet as it was: the previous release, which migrates the database to its own schema.
        const old = await start(env, { root: worktree });
        await expect
          .poll(async () => reply(await send(old.baseUrl, 'GET', '/ready')), { timeout: 20_000 })
          .toEqual({ status: 200, body: { status: 'ready' } });
        expect(await appliedMigrations(operator)).not.toContain(Object.keys(migrations).at(-1));
        const previous = await openPreviousOperator(worktree, schema.url);
        const arranged = await arrangeCheckins(previous.services, 4).finally(() => previous.close());
        const [a, b, c, d] = arranged.checkins.map((checkin) => checkin.platformId) as [
          string,
          string,
          string,
          string,
        ];
        expect(reply(await validate(old.baseUrl, arranged.headers, a))).toMatchObject({ status: 200 });

        // One process upgraded: the current release applies the newest migration while the old one serves.
        const current = await start(env);
        await expect
          .poll(async () => reply(await send(current.baseUrl, 'GET', '/ready')), { timeout: 20_000 })
          .toEqual({ status: 200, body: { status: 'ready' } });
        expect(await appliedMigrations(operator)).toEqual(Object.keys(migrations));

        // Both serve the one database: each validates, and the old one keeps working on the new schema.
        const outcomes = [
          [b, await validate(current.baseUrl, arranged.headers, b)],
          [c, await validate(old.baseUrl, arranged.headers, c)],
          [d, await validate(current.baseUrl, arranged.headers, d)],
        ] as const;
        for (const [member, outcome] of [[a, undefined] as const, ...outcomes]) {
          const checkin = arranged.checkins.find((candidate) => candidate.platformId === member)!;
          const transaction = await expectOneTransaction(operator.store, checkin.id);
          if (outcome !== undefined) {
            expect(reply(outcome)).toEqual({
              status: 200,
              body: validatedBody(arranged, member, transaction.validated_at),
            });
          }
        }
        expect(reply(await send(old.baseUrl, 'GET', '/ready'))).toEqual({
          status: 200,
          body: { status: 'ready' },
        });
        expect(reply(await send(current.baseUrl, 'GET', '/health'))).toEqual({
          status: 200,
          body: { status: 'ok', version: VERSION },
        });
        await expectLedgerInvariants(operator.store);
      } finally {
        await operator.close();
        await schema.drop();
      }
    }, 120_000);
  },
);
