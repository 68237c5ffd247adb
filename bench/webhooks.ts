import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/index.js';
import { systemClock } from '../src/domain/clock.js';
import { createServices } from '../src/services/index.js';
import { createStore } from '../src/store/create-store.js';
import { cpuSeconds, runLoad, type LoadResult, type RunningServer } from './processes.js';
import { median } from './stats.js';
import { freshDatabase, gatehouse, type Database } from './variants.js';

const ENV = { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true' };
const RATE = 1000;
const CONNECTIONS = '50';

/**
 * A healthy receiver: answers 204 at once, counts each delivery once by its webhook-id (a second arrival is a
 * duplicate), and notes when each first arrived and how long after its event occurred (the validate's own clock
 * reading, a moment before its 200 is sent).
 */
export async function startReceiver() {
  const seen = new Set<string>();
  const state = { latencies: [] as number[], arrivals: [] as number[], duplicates: 0, last: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      if (seen.has(id)) state.duplicates += 1;
      else {
        seen.add(id);
        const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
        state.last = Date.now();
        state.arrivals.push(state.last);
        state.latencies.push(state.last - Date.parse(timestamp));
      }
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    state,
    seen,
    reset() {
      state.latencies = [];
      state.arrivals = [];
      state.duplicates = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** One webhook endpoint per seeded partner, every one at the receiver. */
async function registerEndpoints(databaseUrl: string, url: string): Promise<void> {
  const config = loadConfig({ GATEHOUSE_DATABASE_URL: databaseUrl, ...ENV });
  const store = createStore(config);
  try {
    const services = createServices({ store, clock: systemClock, config });
    const partners = await store.db.selectFrom('partners').select('id').execute();
    for (const partner of partners) await services.webhooks.endpoints.create(partner.id, { url });
  } finally {
    await store.close();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) until the receiver has `count` distinct deliveries. */
async function deliveredAll(receiver: Receiver | undefined, count: number, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (receiver !== undefined && receiver.seen.size < count && Date.now() < deadline) await sleep(50);
}

export interface WebhookCase {
  readonly validated: number;
  readonly delivered: number;
  readonly duplicates: number;
  /** Validations per second, counted until the last delivery arrived (without endpoints: until the last 200). */
  readonly sustained: number;
  /** Of those, how many had arrived by the last validation's 200, and how long the rest took after it (ms). */
  readonly byLastAnswer: number;
  readonly drainMs: number;
  /** The serving thread's CPU per validation (µs), its deliveries' share included, until the last delivery. */
  readonly servingUs: number;
  readonly steady: {
    validateP99: number;
    deliveryP50: number;
    deliveryP99: number;
    delivered: number;
    sent: number;
  };
}

/**
 * One server (with or without an endpoint per partner): a steady RATE validations/s for `seconds` (validate p99, and
 * delivery latency until every one arrived), then `count` validations as fast as they go, counted until the last
 * delivery arrived.
 */
async function runCase(
  start: (database: Database) => Promise<RunningServer>,
  database: Database,
  receiver: Receiver | undefined,
  seconds: number,
  count: number,
): Promise<WebhookCase> {
  const server = await start(database);
  const load = (secs: number, rate: number, first: number, amount = 0) =>
    runLoad([
      server.url,
      database.fixtures,
      CONNECTIONS,
      String(secs),
      String(rate),
      String(first),
      '',
      'validate',
      String(amount),
      // A rate is offered evenly over each second (paced.ts): steady, not one burst a second.
      'even',
    ]);
  try {
    let used = (await load(1, RATE, 0)).used;
    await deliveredAll(receiver, used, 10_000);
    const base = receiver?.seen.size ?? 0;
    receiver?.reset();
    const steadyRun: LoadResult = await load(seconds, RATE, used);
    used += steadyRun.used;
    await deliveredAll(receiver, base + steadyRun.used, 30_000);
    const latencies = [...(receiver?.state.latencies ?? [])].sort((a, b) => a - b);
    const steady = {
      validateP99: steadyRun.p99,
      deliveryP50: percentile(latencies, 0.5),
      deliveryP99: percentile(latencies, 0.99),
      delivered: latencies.length,
      sent: steadyRun.used,
    };
    const before = receiver?.seen.size ?? 0;
    receiver?.reset();
    const pid = server.process.pid ?? 0;
    const serving = cpuSeconds(pid, true);
    const storm = await load(0, 0, used, count);
    await deliveredAll(receiver, before + storm.used, 120_000);
    const servingSeconds = cpuSeconds(pid, true) - serving;
    const end = receiver === undefined ? storm.end : Math.max(storm.end, receiver.state.last);
    return {
      validated: storm.used,
      delivered: (receiver?.seen.size ?? before + storm.used) - before,
      duplicates: receiver?.state.duplicates ?? 0,
      sustained: (storm.used * 1000) / (end - storm.start),
      byLastAnswer: receiver?.state.arrivals.filter((at) => at <= storm.end).length ?? storm.used,
      drainMs: end - storm.end,
      servingUs: (servingSeconds * 1e6) / storm.used,
      steady,
    };
  } finally {
    await server.stop();
  }
}

export interface WebhookRound {
  readonly dialect: 'sqlite' | 'postgres';
  readonly build: string;
  readonly with: WebhookCase;
  readonly without: WebhookCase;
}

/** A build to measure: the current one, or a base with its command line and what brings a database to its schema. */
interface Build {
  readonly name: string;
  readonly cli?: string;
  readonly toSchema?: (databaseUrl: string) => Promise<void>;
}

async function round(
  dialect: 'sqlite' | 'postgres',
  build: Build,
  seconds: number,
  count: number,
): Promise<WebhookRound> {
  const checkins = count + RATE * (seconds + 2) + 10_000;
  const start = gatehouse(
    dialect,
    build.cli === undefined ? ENV : { ...ENV, GATEHOUSE_MIGRATE: 'false' },
    build.cli,
  );
  const receiver = await startReceiver();
  let withEndpoints: WebhookCase;
  try {
    const database = await freshDatabase(dialect, checkins);
    try {
      await registerEndpoints(database.url, receiver.url);
      await build.toSchema?.(database.url);
      withEndpoints = await runCase(start, database, receiver, seconds, count);
    } finally {
      await database.drop();
    }
  } finally {
    await receiver.close();
  }
  const plain = await freshDatabase(dialect, checkins);
  try {
    await build.toSchema?.(plain.url);
    const without = await runCase(start, plain, undefined, seconds, count);
    return { dialect, build: build.name, with: withEndpoints, without };
  } finally {
    await plain.drop();
  }
}

/**
 * Webhook delivery at production load (events.md §6), on each dialect, with 100 partners and one endpoint each on a
 * healthy loopback receiver, beside the same runs without endpoints (and beside a base build with `--base`):
 * sustained throughput until the last delivery, and a steady 1,000 validations/s offered evenly over each second
 * (paced.ts: autocannon's rate arrives as one burst a second, and then what its bursts queue dominates both p99s).
 */
export async function measureWebhooks(options: {
  seconds: number;
  rounds: number;
  count: number;
  dialects: readonly ('sqlite' | 'postgres')[];
  base?: Build & { cli: string };
}) {
  const builds: Build[] = [{ name: 'current' }, ...(options.base === undefined ? [] : [options.base])];
  const rounds: WebhookRound[] = [];
  for (let i = 0; i < options.rounds; i += 1) {
    for (const dialect of options.dialects) {
      for (const build of i % 2 === 0 ? builds : [...builds].reverse()) {
        process.stderr.write(`webhooks round ${i + 1}/${options.rounds} ${dialect} ${build.name} … `);
        const r = await round(dialect, build, options.seconds, options.count);
        rounds.push(r);
        process.stderr.write(
          `${Math.round(r.with.sustained)} vs ${Math.round(r.without.sustained)} validations/s until delivered; at ${RATE}/s delivery p99 ${r.with.steady.deliveryP99} ms, validate p99 ${r.with.steady.validateP99} vs ${r.without.steady.validateP99} ms; ${r.with.delivered}/${r.with.validated} delivered (${r.with.byLastAnswer} by the last 200, the rest in ${r.with.drainMs} ms), ${r.with.duplicates} duplicates; serving thread ${Math.round(r.with.servingUs)} vs ${Math.round(r.without.servingUs)} µs per validation\n`,
        );
      }
    }
  }
  const summary = builds.flatMap((build) =>
    options.dialects.map((dialect) => {
      const runs = rounds.filter((r) => r.dialect === dialect && r.build === build.name);
      return {
        dialect,
        build: build.name,
        sustainedWith: median(runs.map((r) => r.with.sustained)),
        sustainedWithout: median(runs.map((r) => r.without.sustained)),
        ratio: median(runs.map((r) => r.with.sustained / r.without.sustained)),
        servingUsWith: median(runs.map((r) => r.with.servingUs)),
        servingUsWithout: median(runs.map((r) => r.without.servingUs)),
        deliveryP50: median(runs.map((r) => r.with.steady.deliveryP50)),
        deliveryP99: median(runs.map((r) => r.with.steady.deliveryP99)),
        validateP99With: median(runs.map((r) => r.with.steady.validateP99)),
        validateP99Without: median(runs.map((r) => r.without.steady.validateP99)),
        validateP99Ratio: median(runs.map((r) => r.with.steady.validateP99 / r.without.steady.validateP99)),
        undelivered: runs.reduce(
          (sum, r) =>
            sum + (r.with.validated - r.with.delivered) + (r.with.steady.sent - r.with.steady.delivered),
          0,
        ),
        duplicates: runs.reduce((sum, r) => sum + r.with.duplicates, 0),
      };
    }),
  );
  return { rate: RATE, count: options.count, summary, rounds };
}

export type WebhookMeasurement = Awaited<ReturnType<typeof measureWebhooks>>;

/** The markdown lines of the measurement. */
export function webhookLines(m: WebhookMeasurement): string[] {
  return [
    '',
    `Webhooks, 100 partners with one endpoint each on a healthy loopback receiver (each delivery counted once by webhook-id); ${m.count} validations as fast as they go, counted until the last delivery, against the same without endpoints; and a steady ${m.rate} validations/s, offered evenly (open loop; a latency counts from when its request was due):`,
    '',
    '| dialect | build | validations/s until delivered | without endpoints | ratio (goal ≥ 0.6) | delivery p50 / p99 ms at 1,000/s (goal p99 < 1000) | validate p99 ms with / without (ratio, goal ≤ 1.25×) | undelivered | duplicates |',
    '|---|---|---|---|---|---|---|---|---|',
    ...m.summary.map(
      (s) =>
        `| ${s.dialect} | ${s.build} | ${Math.round(s.sustainedWith)} | ${Math.round(s.sustainedWithout)} | ${s.ratio.toFixed(2)} | ${s.deliveryP50} / ${s.deliveryP99} | ${s.validateP99With} / ${s.validateP99Without} (${s.validateP99Ratio.toFixed(2)}×) | ${s.undelivered} | ${s.duplicates} |`,
    ),
  ];
}
