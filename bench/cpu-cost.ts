import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createStore } from '../src/store/create-store.js';
import { loadConfig } from '../src/config/index.js';
import { systemClock } from '../src/domain/clock.js';
import { createServices } from '../src/services/index.js';
import { cpuByThread, cpuSeconds, postgresCpuSeconds, runLoad, startServer } from './processes.js';
import { BENCH_ADMIN_TOKEN } from './seed.js';
import { BENCH_PLAN, setUpPlansAndRules } from './plans-setup.js';
import { median } from './stats.js';
import { freshDatabase, queryPostgres } from './variants.js';
import { startReceiver } from './webhooks.js';

/**
 * `node dist-bench/bench/cpu-cost.js --dialect sqlite --mode create|validate [--webhooks] [--cli a.js,b.js]
 * [--sql "drop index …"] [--plans] [--count N] [--rate R] [--rounds N] [--profile dir] [--heap-profile dir] [--node-flags="--flag …"]`: the server's own CPU time (user + system, from
 * /proc) per request (and its serving thread's alone, and the bytes it wrote to storage), at a fixed rate for a fixed number of requests, for each build in alternating rounds. On a
 * machine others share, throughput moves with their load; the CPU a request costs moves much less, so this is how
 * one change's cost is seen while other work runs. `--sql` runs a statement on the fresh database first (e.g. to
 * measure an index by dropping it), for the builds after the first. `--plans` runs each build on the plans bench's
 * skewed seed twice a round, without and with its plans and payout rules. A build may carry Node flags of its own
 * after its path (`--cli "dist/cli/main.js,dist/cli/main.js --max-semi-space-size=32"`): one setting against another.
 * `BENCH_SERVER_OUTPUT=file` keeps each server's output in that file (`--node-flags="--trace-gc-nvp"`: what its
 * threads' collections allocated, promoted and took). On PostgreSQL it also reports what the server's processes
 * spent, and the transactions that wrote and the WAL written per request (how well requests share a commit).
 * `--beside R` runs a second server of the same build on the same database during the measured load, at R requests
 * a second of its own (other check-ins): what a process pays for sharing the database with another (on SQLite, the
 * other's commits are seen through `data_version`).
 * `--heap-profile dir` samples what the serving thread allocates during the measured load (collected objects
 * included, allocation-sampler.ts) and reports it per request, with the profile by function in `dir`: bytes
 * allocated move with the code, not with the machine's other load.
 */
const { values } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'sqlite' },
    mode: { type: 'string', default: 'validate' },
    webhooks: { type: 'boolean', default: false },
    cli: { type: 'string' },
    sql: { type: 'string' },
    count: { type: 'string', default: '6000' },
    rate: { type: 'string', default: '600' },
    rounds: { type: 'string', default: '3' },
    profile: { type: 'string' },
    'heap-profile': { type: 'string' },
    'node-flags': { type: 'string' },
    plans: { type: 'boolean', default: false },
    beside: { type: 'string' },
  },
});
const dialect = values.dialect === 'postgres' ? 'postgres' : 'sqlite';
const count = Number(values.count);
/** Each build: its command line's path, and the Node flags given to it alone (`--cli "a.js,a.js --flag"`). */
const builds = (values.cli?.split(',') ?? [new URL('../../dist/cli/main.js', import.meta.url).pathname]).map(
  (entry) => {
    const [path = '', ...flags] = entry.split(' ').filter((part) => part !== '');
    return { path, flags, name: [path, ...flags].join(' ') };
  },
);
const ENV = { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true' };
/** What the second server (`--beside`) validates or creates while the measured load runs: as long as it lasts. */
const besideCount =
  values.beside === undefined ? 0 : Math.ceil((Number(values.beside) * count) / Number(values.rate)) + 500;

/** The bytes the process has written to storage so far (its WAL and database files). */
function storageBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/io`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('write_bytes:'));
  return Number(line?.split(' ')[1] ?? 0);
}

async function runSql(url: string, text: string): Promise<void> {
  if (dialect === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const database = new Database(url.replace(/^sqlite:/, ''));
    database.exec(text);
    database.close();
    return;
  }
  await queryPostgres(text, url);
}

/**
 * Where PostgreSQL's write-ahead log and its transaction ids stand: across a measured load, how many transactions
 * wrote (each took an id: the batches' commits, with the process's own few) and how much log they wrote. Both move
 * with the code, not with the machine's other load.
 */
async function walAndXids(url: string): Promise<{ lsn: bigint; xid: number }> {
  const [row] = await queryPostgres<{ lsn: string; xid: string }>(
    `select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as lsn,
            txid_snapshot_xmax(txid_current_snapshot())::text as xid`,
    url,
  );
  if (row === undefined) throw new Error('PostgreSQL said nothing of its log');
  return { lsn: BigInt(row.lsn), xid: Number(row.xid) };
}

/** The module the server loads to sample its allocations (`--heap-profile`), and how many profiles were taken. */
const SAMPLER = new URL('./allocation-sampler.js', import.meta.url).pathname;
let profiled = 0;

/** Starts the server's allocation sampling (allocation-sampler.ts) and gives the signal a moment to arrive. */
async function sampling(pid: number): Promise<void> {
  process.kill(pid, 'SIGWINCH');
  await new Promise((r) => setTimeout(r, 200));
}

/** Stops the sampling, waits for the profile and returns the bytes it counts (an estimate of all allocated). */
async function sampled(pid: number, file: string): Promise<number> {
  process.kill(pid, 'SIGWINCH');
  for (let waited = 0; !existsSync(file); waited += 100) {
    if (waited > 30_000) throw new Error(`no allocation profile in ${file}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 200));
  interface Node {
    readonly selfSize: number;
    readonly children: readonly Node[];
  }
  const total = (node: Node): number =>
    node.children.reduce((sum, child) => sum + total(child), node.selfSize);
  return total((JSON.parse(readFileSync(file, 'utf8')) as { head: Node }).head);
}

async function one(
  build: (typeof builds)[number],
  index: number,
  plans: boolean,
): Promise<{ cpu: number; serving: number; written: number }> {
  const database = await freshDatabase(dialect, count * 2 + 2000 + besideCount, 0, values.plans);
  const allocations =
    values['heap-profile'] === undefined
      ? undefined
      : join(values['heap-profile'], `allocations-${++profiled}${plans ? '-plans' : ''}.heapprofile`);
  const receiver = values.webhooks ? await startReceiver() : undefined;
  try {
    if (values.sql !== undefined && index > 0) await runSql(database.url, values.sql);
    if (plans) await setUpPlansAndRules(database.url);
    if (receiver !== undefined) {
      const config = loadConfig({ GATEHOUSE_DATABASE_URL: database.url, ...ENV });
      const store = createStore(config);
      const services = createServices({ store, clock: systemClock, config });
      const partners = await store.db.selectFrom('partners').select('id').execute();
      for (const partner of partners)
        await services.webhooks.endpoints.create(partner.id, { url: receiver.url });
      await store.close();
    }
    const serve = (measured: boolean) =>
      startServer(
        process.execPath,
        [
          '--max-semi-space-size=8',
          ...(values['node-flags']?.split(' ').filter((flag) => flag !== '') ?? []),
          ...build.flags,
          ...(values.profile === undefined || !measured
            ? []
            : ['--cpu-prof', `--cpu-prof-dir=${values.profile}`]),
          ...(allocations === undefined || !measured ? [] : [`--import=${SAMPLER}`]),
          build.path,
          'serve',
        ],
        {
          NODE_ENV: 'production',
          GATEHOUSE_DATABASE_URL: database.url,
          GATEHOUSE_PORT: '0',
          GATEHOUSE_LOG_LEVEL: 'info',
          GATEHOUSE_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
          GATEHOUSE_MIGRATE: index > 0 || !measured ? 'false' : 'true',
          ...(values.plans ? { GATEHOUSE_RATE_LIMIT_PER_SECOND: '0' } : {}),
          ...(plans ? { GATEHOUSE_DEFAULT_PLAN: BENCH_PLAN } : {}),
          ...(dialect === 'postgres' ? { GATEHOUSE_PG_POOL_SIZE: '10' } : {}),
          ...(allocations === undefined || !measured ? {} : { BENCH_ALLOCATIONS_FILE: allocations }),
          ...ENV,
        },
      );
    const server = await serve(true);
    const other = values.beside === undefined ? undefined : await serve(false);
    const pid = server.process.pid ?? 0;
    try {
      const mode = values.mode ?? 'validate';
      const load = (first: number, amount: number) =>
        runLoad([
          server.url,
          database.fixtures,
          '50',
          '0',
          values.rate ?? '600',
          String(first),
          '',
          mode,
          String(amount),
        ]);
      const warm = await load(0, 1000);
      while (receiver !== undefined && receiver.seen.size < warm.used)
        await new Promise((r) => setTimeout(r, 50));
      const before = cpuSeconds(pid);
      const servingBefore = cpuSeconds(pid, true);
      const writtenBefore = storageBytes(pid);
      const threadsBefore = cpuByThread(pid);
      if (allocations !== undefined) await sampling(pid);
      const databaseBefore = dialect === 'postgres' ? postgresCpuSeconds() : 0;
      const logBefore = dialect === 'postgres' ? await walAndXids(database.url) : undefined;
      const [run] = await Promise.all([
        load(warm.used, count),
        other &&
          runLoad([
            other.url,
            database.fixtures,
            '10',
            '0',
            values.beside ?? '0',
            String(count * 2 + 2000),
            '',
            mode,
            String(besideCount),
          ]),
      ]);
      while (receiver !== undefined && receiver.seen.size < warm.used + run.used)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      if (allocations !== undefined) {
        const bytes = await sampled(pid, allocations);
        console.log(
          `  allocated on the serving thread: ${(bytes / 1024 / run.used).toFixed(1)} KiB per request (sampled; ${allocations})`,
        );
      }
      const serverCpu =
        dialect === 'postgres' ? ((postgresCpuSeconds() - databaseBefore) * 1e6) / run.used : 0;
      const threads = [...cpuByThread(pid)]
        .map(
          ([name, seconds]) => [name, ((seconds - (threadsBefore.get(name) ?? 0)) * 1e6) / run.used] as const,
        )
        .filter(([, perRequest]) => perRequest >= 1)
        .sort((a, b) => b[1] - a[1]);
      console.log(
        `  by thread, µs per request: ${threads.map(([name, us]) => `${name} ${us.toFixed(0)}`).join(', ')}`,
      );
      if (logBefore !== undefined) {
        const log = await walAndXids(database.url);
        const perRequest = (log.xid - logBefore.xid) / run.used;
        const wal = Number(log.lsn - logBefore.lsn) / 1024 / run.used;
        console.log(
          `  PostgreSQL's server processes: ${serverCpu.toFixed(0)} µs per request; ` +
            `${perRequest.toFixed(3)} writing transactions and ${wal.toFixed(2)} KiB of WAL per request`,
        );
      }
      return {
        cpu: ((cpuSeconds(pid) - before) * 1e6) / run.used,
        serving: ((cpuSeconds(pid, true) - servingBefore) * 1e6) / run.used,
        written: (storageBytes(pid) - writtenBefore) / run.used,
      };
    } finally {
      await Promise.all([server.stop(), other?.stop()]);
    }
  } finally {
    await receiver?.close();
    await database.drop();
  }
}

// With --plans, each build runs twice a round on the skewed seed: without plans, then under the plans bench's.
const runs = builds.flatMap((build, index) =>
  (values.plans ? [false, true] : [false]).map((plans) => ({ build, index, plans })),
);
const label = (run: (typeof runs)[number]) => `${run.build.name}${run.plans ? ' (plans)' : ''}`;
const samples = runs.map(() => [] as number[]);
const servingSamples = runs.map(() => [] as number[]);
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [at, run] of runs.entries()) {
    const { cpu, serving, written } = await one(run.build, run.index, run.plans);
    samples[at]?.push(cpu);
    servingSamples[at]?.push(serving);
    console.log(
      `round ${round + 1}: ${label(run)}: ${cpu.toFixed(0)} µs CPU (serving thread ${serving.toFixed(0)}), ${(written / 1024).toFixed(1)} KiB written per request`,
    );
  }
}
runs.forEach((run, at) =>
  console.log(
    `median ${label(run)}: ${median(samples[at] ?? []).toFixed(0)} µs (serving thread ${median(servingSamples[at] ?? []).toFixed(0)})`,
  ),
);
