import { runLoad, type LoadResult } from './processes.js';
import { median } from './stats.js';
import { VARIANTS, freshDatabase, type Variant } from './variants.js';

const variant = (name: string): Variant => {
  const found = VARIANTS.find((v) => v.name === name);
  if (found === undefined) throw new Error(`no ${name} variant`);
  return found;
};

/** One server at a fixed offered load (autocannon `overallRate`) on a fresh database: a warm-up, then the run. */
async function fixedRate(server: Variant, rate: number, seconds: number, pending: number, extra: number) {
  const database = await freshDatabase('sqlite', pending, extra);
  const running = await server.start(database);
  try {
    const warm = await runLoad([running.url, database.fixtures, '50', '1', String(rate), '0']);
    return await runLoad([
      running.url,
      database.fixtures,
      '50',
      String(seconds),
      String(rate),
      String(warm.used),
    ]);
  } finally {
    await running.stop();
    await database.drop();
  }
}

interface FixedRateCase {
  readonly label: string;
  readonly variant: Variant;
  /** Check-ins in the store that the run does not touch, on top of the ones it validates. */
  readonly storeSize: number;
}

/**
 * The measurements beside the throughput table, in alternating rounds with medians like the table:
 * - p99 at a fixed 2,000 req/s for gatehouse on SQLite, beside raw-sqlite (NORMAL) and the no-database http-floor
 *   under the very same load, so the goal can be read against what this machine adds by itself. autocannon's
 *   `overallRate` sends each connection's share of a second back to back as the second starts
 *   (node_modules/autocannon/lib/httpClient.js, `reqsMadeThisSecond`), so this offered load arrives as one burst
 *   per second at full concurrency, not evenly spread;
 * - the same gatehouse run with 10,000 and with 2,000,000 check-ins in the store;
 * - resident memory over a long soak (`soakRequests` at full speed): after the first 10 s, peak and final.
 */
export async function measureExtras(options: { seconds: number; rounds: number; soakRequests: number }) {
  const rate = 2000;
  const pending = rate * (options.seconds + 2);
  const small = Math.max(0, 10_000 - pending);
  const cases: FixedRateCase[] = [
    { label: 'gatehouse-sqlite', variant: variant('gatehouse-sqlite'), storeSize: small },
    { label: 'raw-sqlite-normal', variant: variant('raw-sqlite-normal'), storeSize: small },
    { label: 'http-floor', variant: variant('http-floor'), storeSize: small },
    { label: 'gatehouse-sqlite, 2M check-ins', variant: variant('gatehouse-sqlite'), storeSize: 2_000_000 },
  ];
  const samples = new Map<string, LoadResult[]>(cases.map((c) => [c.label, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    const order = round % 2 === 0 ? cases : [...cases].reverse();
    for (const c of order) {
      process.stderr.write(`extras round ${round + 1}/${options.rounds}: ${c.label} at ${rate} req/s … `);
      const result = await fixedRate(c.variant, rate, options.seconds, pending, c.storeSize);
      samples.get(c.label)?.push(result);
      process.stderr.write(`p50 ${result.p50} ms, p99 ${result.p99} ms\n`);
    }
  }
  const fixed = cases.map((c) => {
    const runs = samples.get(c.label) ?? [];
    return {
      label: c.label,
      p50: median(runs.map((r) => r.p50)),
      mean: median(runs.map((r) => r.mean)),
      p90: median(runs.map((r) => r.p90)),
      p99: median(runs.map((r) => r.p99)),
      errors: runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
      runs: runs.map((r) => ({ p50: r.p50, mean: r.mean, p90: r.p90, p99: r.p99, rps: r.rps })),
    };
  });
  const [gatehouse, , floor, large] = fixed;
  if (gatehouse === undefined || floor === undefined || large === undefined)
    throw new Error('fixed-rate cases missing');

  let soak: { requests: number; rssPeak: number; rssEnd: number; rssStart: number } | undefined;
  if (options.soakRequests > 0) {
    process.stderr.write(`extras: soak of ${options.soakRequests} requests … `);
    // Seeded beyond the target by more than one 10 s chunk can use, even at the no-database floor's speed.
    const database = await freshDatabase('sqlite', options.soakRequests + 200_000);
    const server = await variant('gatehouse-sqlite').start(database);
    try {
      let first = 0;
      let rssStart = 0;
      while (first < options.soakRequests) {
        const result = await runLoad([server.url, database.fixtures, '50', '10', '0', String(first)]);
        first += result.used;
        if (rssStart === 0) rssStart = server.rss.at(-1) ?? 0;
      }
      soak = { requests: first, rssStart, rssPeak: Math.max(...server.rss), rssEnd: server.rss.at(-1) ?? 0 };
      process.stderr.write(`peak ${Math.round(soak.rssPeak)} MiB\n`);
    } finally {
      await server.stop();
      await database.drop();
    }
  }
  return {
    fixedRate: { rate, rounds: options.rounds, cases: fixed, floorP99: floor.p99 },
    storeSize: {
      p50At10k: gatehouse.p50,
      p99At10k: gatehouse.p99,
      p50At2M: large.p50,
      p99At2M: large.p99,
      meanAt10k: gatehouse.mean,
      meanAt2M: large.mean,
      p50Ratio: large.p50 / Math.max(gatehouse.p50, 0.001),
      meanRatio: large.mean / Math.max(gatehouse.mean, 0.001),
      p99Ratio: large.p99 / Math.max(gatehouse.p99, 0.001),
    },
    soak,
  };
}
