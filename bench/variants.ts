import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startServer, type RunningServer } from './processes.js';
import { BENCH_PLAN, setUpPlansAndRules } from './plans-setup.js';
import { BENCH_ADMIN_TOKEN, seed } from './seed.js';

export const PG_URL = process.env.GATEHOUSE_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const here = new URL('.', import.meta.url).pathname;
const cli = new URL('../../dist/cli/main.js', import.meta.url).pathname;

export interface Database {
  readonly url: string;
  readonly fixtures: string;
  drop(): Promise<void>;
}

/** One statement on a connection of its own (the bench server's database by default); its rows. */
export async function queryPostgres<R extends object = object>(text: string, url = PG_URL): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

/** A fresh, seeded database of the given dialect. */
export async function freshDatabase(
  dialect: 'sqlite' | 'postgres',
  checkins: number,
  extraCheckins = 0,
  skewed = false,
): Promise<Database> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const fixtures = join(dir, 'fixtures.json');
  if (dialect === 'sqlite') {
    const url = `sqlite:${join(dir, 'bench.db')}`;
    await seed({ databaseUrl: url, partners: 100, checkins, extraCheckins, skewed }, fixtures);
    return { url, fixtures, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  await queryPostgres(`create schema ${schema}`);
  const url = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  await seed({ databaseUrl: url, partners: 100, checkins, extraCheckins, skewed }, fixtures);
  return {
    url,
    fixtures,
    drop: async () => {
      await queryPostgres(`drop schema ${schema} cascade`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Variant {
  readonly name: string;
  readonly dialect: 'sqlite' | 'postgres';
  readonly description: string;
  /** It keeps no state, so the load may reuse check-ins (the no-database floor outruns any seed). */
  readonly stateless?: boolean;
  /** What its load does: validate the seeded check-ins (the default), or create check-ins for new members. */
  readonly load?: 'validate' | 'create';
  /** Its seed puts half of the traffic at one partner (the plans runs and the runs they are compared with). */
  readonly skewed?: boolean;
  /**
   * For gatehouse itself: the settings it serves with and what is set up in the database first, so that a build of
   * another revision (--base) runs the same variant.
   */
  readonly gatehouse?: { readonly env: Record<string, string>; prepare?(database: Database): Promise<void> };
  start(database: Database): Promise<RunningServer>;
}

/** The node flags `npm start` gives `gatehouse serve`, read from package.json so the bench runs what ships. */
function shippedNodeFlags(): string[] {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  const match = /\bnode((?: --[\w-]+(?:=\S+)?)*) dist\/cli\/main\.js serve\b/.exec(manifest.scripts.start);
  if (match === null)
    throw new Error('package.json: the start script no longer runs node dist/cli/main.js serve');
  return (match[1] ?? '').split(' ').filter((flag) => flag !== '');
}
const SHIPPED_NODE_FLAGS = shippedNodeFlags();

/** gatehouse as shipped: `gatehouse serve` built for production, logging, metrics, auth and rate limits on. */
export const gatehouse =
  (dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}, build = cli): Variant['start'] =>
  (database) =>
    startServer(process.execPath, [...SHIPPED_NODE_FLAGS, build, 'serve'], {
      NODE_ENV: 'production',
      GATEHOUSE_DATABASE_URL: database.url,
      GATEHOUSE_PORT: '0',
      GATEHOUSE_LOG_LEVEL: 'info',
      GATEHOUSE_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      ...(dialect === 'postgres' ? { GATEHOUSE_PG_POOL_SIZE: '10' } : {}),
      ...env,
    });

/**
 * gatehouse serving a variant: its set-up done first, then the build's schema (`toSchema`, for a base build), then
 * served with its settings (and `env`) by the build.
 */
export const served =
  (
    dialect: 'sqlite' | 'postgres',
    how: Variant['gatehouse'],
    env: Record<string, string> = {},
    build = cli,
    toSchema?: (databaseUrl: string) => Promise<void>,
  ): Variant['start'] =>
  async (database) => {
    await how?.prepare?.(database);
    await toSchema?.(database.url);
    return gatehouse(dialect, { ...how?.env, ...env }, build)(database);
  };

export const VARIANTS: Variant[] = [
  {
    name: 'gatehouse-sqlite',
    dialect: 'sqlite',
    description: 'gatehouse on SQLite, synchronous=FULL (the shipped, power-safe default)',
    start: gatehouse('sqlite'),
  },
  {
    name: 'gatehouse-sqlite-create',
    dialect: 'sqlite',
    description: 'the same gatehouse, creating check-ins (POST /admin/v1/checkins, a new member each)',
    load: 'create',
    start: gatehouse('sqlite'),
  },
  {
    name: 'raw-sqlite-normal',
    dialect: 'sqlite',
    description: 'node:http + better-sqlite3, one transaction per request, synchronous=NORMAL',
    start: (database) =>
      startServer(
        process.execPath,
        [join(here, 'raw-sqlite-server.js'), database.url.slice(7), 'normal'],
        {},
      ),
  },
  {
    name: 'raw-sqlite-full',
    dialect: 'sqlite',
    description: 'the same at synchronous=FULL',
    start: (database) =>
      startServer(process.execPath, [join(here, 'raw-sqlite-server.js'), database.url.slice(7), 'full'], {}),
  },
  {
    name: 'raw-sqlite-normal-create',
    dialect: 'sqlite',
    description: 'the raw SQLite server at synchronous=NORMAL, creating check-ins (the same requests)',
    load: 'create',
    start: (database) =>
      startServer(process.execPath, [join(here, 'raw-sqlite-server.js'), database.url.slice(7), 'normal'], {
        GATEHOUSE_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      }),
  },
  {
    name: 'http-floor',
    dialect: 'sqlite',
    description: "the same node:http parsing and reply with no database: the machine's own floor",
    stateless: true,
    start: () => startServer(process.execPath, [join(here, 'http-floor-server.js')], {}),
  },
  {
    name: 'gatehouse-pg',
    dialect: 'postgres',
    description: 'gatehouse on PostgreSQL 15 (synchronous_commit=on)',
    start: gatehouse('postgres'),
  },
  {
    name: 'gatehouse-pg-create',
    dialect: 'postgres',
    description: 'the same gatehouse, creating check-ins (POST /admin/v1/checkins, a new member each)',
    load: 'create',
    start: gatehouse('postgres'),
  },
  {
    name: 'raw-pg',
    dialect: 'postgres',
    description: 'node:http + node-postgres, one single-statement CTE per request',
    start: (database) => startServer(process.execPath, [join(here, 'raw-pg-server.js'), database.url], {}),
  },
  {
    name: 'raw-pg-create',
    dialect: 'postgres',
    description: 'the raw PostgreSQL server creating check-ins: one round trip each, under the member lock',
    load: 'create',
    start: (database) =>
      startServer(process.execPath, [join(here, 'raw-pg-server.js'), database.url], {
        GATEHOUSE_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      }),
  },
  ...(['sqlite', 'postgres'] as const).flatMap((dialect) => {
    const short = dialect === 'sqlite' ? 'sqlite' : 'pg';
    // The busy partner's one key carries half of the load: past the per-key limit a real one would have several.
    const unlimited = { GATEHOUSE_RATE_LIMIT_PER_SECOND: '0' };
    const skewed = { env: unlimited };
    const plans = {
      env: { ...unlimited, GATEHOUSE_DEFAULT_PLAN: BENCH_PLAN },
      prepare: (database: Database) => setUpPlansAndRules(database.url),
    };
    const start = (how: NonNullable<Variant['gatehouse']>) => served(dialect, how);
    return [
      {
        name: `gatehouse-${short}-skewed`,
        dialect,
        description: 'gatehouse validating, half of the traffic at one partner; no plans or payout rules',
        skewed: true,
        gatehouse: skewed,
        start: start(skewed),
      },
      {
        name: `gatehouse-${short}-plans`,
        dialect,
        description:
          'the same with every member on a plan of three rules, a paid-visit cap on every partner, tiers on the busy one',
        skewed: true,
        gatehouse: plans,
        start: start(plans),
      },
      {
        name: `gatehouse-${short}-create-skewed`,
        dialect,
        description: 'gatehouse creating check-ins, half of them at one partner; no plans or payout rules',
        load: 'create',
        skewed: true,
        gatehouse: skewed,
        start: start(skewed),
      },
      {
        name: `gatehouse-${short}-create-plans`,
        dialect,
        description: 'the same with every member on the plan of three rules (and the payout rules)',
        load: 'create',
        skewed: true,
        gatehouse: plans,
        start: start(plans),
      },
    ] satisfies Variant[];
  }),
];
