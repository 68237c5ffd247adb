import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

/** One request of a paced run: its path, headers and body. */
export interface PacedRequest {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * An open-loop load at a truly steady rate: request i is due at start + i/rate, and is sent on time whether or not
 * the earlier ones have been answered (up to `connections` at once), so the offered load is evenly spread over each
 * second. autocannon's `overallRate` instead sends each connection's share of a second back to back as the second
 * starts. A latency is counted from when its request was due, not from when it left, so a generator or server that
 * falls behind is charged for it (no coordinated omission); the percentiles are exact, from every sample.
 */
export async function pacedRun(options: {
  readonly url: string;
  readonly connections: number;
  readonly rate: number;
  readonly seconds: number;
  /** Seconds sent first at the same rate and not counted: the generator's own start (its code, its connections). */
  readonly warmUpSeconds: number;
  readonly next: () => PacedRequest;
}) {
  const pool = new Pool(options.url, { connections: options.connections, pipelining: 1 });
  const warmUp = Math.round(options.rate * options.warmUpSeconds);
  const total = warmUp + Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  const statusCodes: Record<string, { count: number }> = {};
  let errors = 0;
  let sent = 0;
  let last = Date.now();
  let startedAt = Date.now();
  const origin = performance.now();
  const inFlight = new Set<Promise<void>>();

  const send = (due: number, counted: boolean) => {
    const request = options.next();
    const done = pool
      .request({ method: 'POST', path: request.path, headers: request.headers, body: request.body })
      .then(async (response) => {
        await response.body.dump();
        if (!counted) return;
        latencies.push(performance.now() - due);
        const status = String(response.statusCode);
        statusCodes[status] = { count: (statusCodes[status]?.count ?? 0) + 1 };
        last = Date.now();
      })
      .catch(() => {
        if (counted) errors += 1;
      })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  };

  while (sent < total) {
    const now = performance.now();
    while (sent < total && origin + sent * interval <= now) {
      if (sent === warmUp) startedAt = Date.now();
      send(origin + sent * interval, sent >= warmUp);
      sent += 1;
    }
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, origin + sent * interval - performance.now())),
    );
  }
  await Promise.all(inFlight);
  await pool.close();

  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0) * 10) / 10;
  const mean = latencies.reduce((sum, value) => sum + value, 0) / Math.max(1, latencies.length);
  const ok = statusCodes['200']?.count ?? 0;
  return {
    requests: latencies.length,
    rps: (latencies.length * 1000) / Math.max(1, last - startedAt),
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    mean: Math.round(mean * 100) / 100,
    errors,
    non2xx: latencies.length - ok,
    statusCodes,
    start: startedAt,
    end: last,
  };
}
