import { runLoad } from './processes.js';
import { VARIANTS, freshDatabase } from './variants.js';

const gatehouseSqlite = VARIANTS.find((variant) => variant.name === 'gatehouse-sqlite');

/** gatehouse on SQLite at a fixed offered load: the latency a chain's front desks see at opening hours. */
async function fixedRate(rate: number, seconds: number, pending: number, extra: number) {
  if (gatehouseSqlite === undefined) throw new Error('no gatehouse-sqlite variant');
  const database = await freshDatabase('sqlite', pending, extra);
  const server = await gatehouseSqlite.start(database);
  try {
    const warm = await runLoad([server.url, database.fixtures, '50', '1', String(rate), '0']);
    const result = await runLoad([
      server.url,
      database.fixtures,
      '50',
      String(seconds),
      String(rate),
      String(warm.used),
    ]);
    return { ...result, rssPeak: Math.max(...server.rss), rssEnd: server.rss.at(-1) ?? 0 };
  } finally {
    await server.stop();
    await database.drop();
  }
}

/**
 * The measurements beside the throughput table: p99 at 2,000 req/s; the same with 10,000 vs 2,000,000 check-ins
 * in the store; and resident memory over a long soak (`soakRequests` at full speed, peak and final RSS).
 */
export async function measureExtras(options: { seconds: number; soakRequests: number }) {
  const rate = 2000;
  const pending = rate * (options.seconds + 2);
  process.stderr.write(`extras: p99 at ${rate} req/s with 10k check-ins … `);
  const small = await fixedRate(
    rate,
    options.seconds,
    Math.max(pending, 10_000),
    Math.max(0, 10_000 - pending),
  );
  process.stderr.write(`${small.p99} ms\nextras: the same with 2M check-ins in the store … `);
  const large = await fixedRate(rate, options.seconds, pending, 2_000_000);
  process.stderr.write(`${large.p99} ms\n`);
  let soak: { requests: number; rssPeak: number; rssEnd: number; rssStart: number } | undefined;
  if (options.soakRequests > 0 && gatehouseSqlite !== undefined) {
    process.stderr.write(`extras: soak of ${options.soakRequests} requests … `);
    const database = await freshDatabase('sqlite', options.soakRequests + 50_000);
    const server = await gatehouseSqlite.start(database);
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
    fixedRate: { rate, p50: small.p50, p99: small.p99, errors: small.errors + small.non2xx },
    storeSize: {
      p50At10k: small.p50,
      p99At10k: small.p99,
      p50At2M: large.p50,
      p99At2M: large.p99,
      p50Ratio: large.p50 / Math.max(small.p50, 0.001),
    },
    soak,
  };
}
