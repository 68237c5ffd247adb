import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/index.js';
import { systemClock } from '../src/domain/clock.js';
import { createServices } from '../src/services/index.js';
import { createStore } from '../src/store/create-store.js';
import { runLoad, type LoadResult } from './processes.js';
import { median } from './stats.js';
import { freshDatabase, gatehouse } from './variants.js';

const ENV = { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true' };

/** A healthy receiver: answers 204 at once and notes how long after the event's commit each delivery came. */
async function startReceiver() {
  const latencies: number[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      latencies.push(Date.now() - Date.parse(timestamp));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    latencies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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

interface WebhookRound {
  readonly latency: { p50: number; p99: number; max: number; delivered: number; validated: number };
  readonly withWebhooks: LoadResult;
  readonly withoutWebhooks: LoadResult;
}

/**
 * Commit-to-delivery latency with a healthy receiver at a fixed 1,000 validations/s (each appends one event,
 * delivered to its partner's endpoint), and the visit throughput at full speed with and without webhooks
 * registered: the cost of delivery. On SQLite, the shipped default.
 */
async function round(seconds: number): Promise<WebhookRound> {
  const rate = 1000;
  const receiver = await startReceiver();
  try {
    const database = await freshDatabase('sqlite', rate * (seconds + 2) + 200_000);
    await registerEndpoints(database.url, receiver.url);
    const server = await gatehouse('sqlite', ENV)(database);
    let used = 0;
    let withWebhooks: LoadResult;
    let validated = 0;
    try {
      const warm = await runLoad([server.url, database.fixtures, '50', '1', String(rate), '0']);
      used += warm.used;
      receiver.latencies.length = 0;
      const fixed = await runLoad([
        server.url,
        database.fixtures,
        '50',
        String(seconds),
        String(rate),
        String(used),
      ]);
      used += fixed.used;
      validated = fixed.used;
      // What was validated in the run is delivered within a few seconds more.
      const deadline = Date.now() + 10_000;
      while (receiver.latencies.length < validated && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      withWebhooks = await runLoad([server.url, database.fixtures, '50', String(seconds), '0', String(used)]);
    } finally {
      await server.stop();
      await database.drop();
    }
    const sorted = [...receiver.latencies].sort((a, b) => a - b);
    const plain = await freshDatabase('sqlite', 200_000);
    const without = await gatehouse('sqlite')(plain);
    let withoutWebhooks: LoadResult;
    try {
      withoutWebhooks = await runLoad([without.url, plain.fixtures, '50', String(seconds), '0', '0']);
    } finally {
      await without.stop();
      await plain.drop();
    }
    return {
      latency: {
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        max: sorted.at(-1) ?? 0,
        delivered: sorted.length,
        validated,
      },
      withWebhooks,
      withoutWebhooks,
    };
  } finally {
    await receiver.close();
  }
}

export async function measureWebhooks(options: { seconds: number; rounds: number }) {
  const rounds: WebhookRound[] = [];
  for (let i = 0; i < options.rounds; i += 1) {
    process.stderr.write(`webhooks round ${i + 1}/${options.rounds} … `);
    const result = await round(options.seconds);
    rounds.push(result);
    process.stderr.write(
      `p99 ${result.latency.p99} ms to delivery, ${Math.round(result.withWebhooks.rps)} vs ${Math.round(result.withoutWebhooks.rps)} req/s\n`,
    );
  }
  return {
    rate: 1000,
    p50: median(rounds.map((r) => r.latency.p50)),
    p99: median(rounds.map((r) => r.latency.p99)),
    rpsWith: median(rounds.map((r) => r.withWebhooks.rps)),
    rpsWithout: median(rounds.map((r) => r.withoutWebhooks.rps)),
    rounds: rounds.map((r) => ({
      ...r.latency,
      rpsWith: r.withWebhooks.rps,
      rpsWithout: r.withoutWebhooks.rps,
    })),
  };
}
