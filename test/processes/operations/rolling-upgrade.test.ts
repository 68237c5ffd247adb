import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrations } from '../../../src/store/migrations/index.js';
import { VERSION } from '../../../src/config/version.js';
import { createPgSchema, pgAvailable } from '../../fixtures/postgres.js';
import { expectLedgerInvariants } from '../../fixtures/store-state.js';
import { useServeProcesses } from '../../fixtures/processes/serve-process.js';
import {
  expectOneTransaction,
  openOperator,
  validatedBody,
  type Operator,
} from '../../fixtures/processes/arrange.js';
import { platformId, unique } from '../../fixtures/factories.js';
import { reply, send, validate } from '../../fixtures/processes/http.js';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILD_TIMEOUT_MS = 240_000;

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
  // A release that bundles its command line (dist/cli/main.js) does so after tsc.
  if (existsSync(join(dir, 'rolldown.config.ts')))
    await run(
      process.execPath,
      [
        join(REPO_ROOT, 'node_modules/rolldown/bin/cli.mjs'),
        '-c',
        'rolldown.config.ts',
        '--logLevel',
        'warn',
      ],
      { cwd: dir, timeout: BUILD_TIMEOUT_MS },
    );
}

const ADMIN_TOKEN = 'rolling-upgrade-admin-0123456789';

/**
 * A partner, gym, product, key and `count` pending check-ins, made through the previous release's operator API:
 * before the newest migration, only the previous release's code may write (this checkout's expects its schema).
 */
async function arrangeThroughPreviousRelease(baseUrl: string, count: number) {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const post = async <T>(path: string, json: unknown): Promise<T> => {
    const outcome = reply(await send(baseUrl, 'POST', `/admin/v1${path}`, { headers, json }));
    if (!('status' in outcome) || outcome.status !== 201) throw new Error(JSON.stringify(outcome));
    return outcome.body as T;
  };
  const n = unique();
  const partner = await post<{ id: number }>('/partners', { name: `Partner ${n}` });
  const gym = await post<{ id: number }>('/gyms', { id: 1000 + n, partner_id: partner.id, name: `Gym ${n}` });
  const product = await post<{ id: number; description: string }>(`/gyms/${gym.id}/products`, {
    description: `Monthly plan ${n}`,
    payout_cents: 1250,
  });
  const key = await post<{ key: string }>(`/partners/${partner.id}/keys`, { label: 'front desk' });
  const checkins = [];
  for (let i = 0; i < count; i += 1) {
    const made = await post<{ id: number; platform_id: string }>('/checkins', {
      platform_id: platformId(),
      gym_id: gym.id,
      product_id: product.id,
    });
    checkins.push({ id: made.id, platformId: made.platform_id });
  }
  return {
    gym,
    product,
    checkins,
    headers: { authorization: `Bearer ${key.key}`, 'x-gym-id': String(gym.id) },
  };
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
        const env = {
          GATEHOUSE_DATABASE_URL: schema.url,
          GATEHOUSE_RATE_LIMIT_PER_SECOND: '0',
          GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
        };
        // The fleet as it was: the previous release, which migrates the database to its own schema.
        const old = await start(env, { root: worktree });
        await expect
          .poll(async () => reply(await send(old.baseUrl, 'GET', '/ready')), { timeout: 20_000 })
          .toEqual({ status: 200, body: { status: 'ready' } });
        expect(await appliedMigrations(operator)).not.toContain(Object.keys(migrations).at(-1));
        const arranged = await arrangeThroughPreviousRelease(old.baseUrl, 4);
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
