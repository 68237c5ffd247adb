import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pacedRun } from '../../bench/paced.js';

/**
 * The bench's steady load (bench/paced.ts): what it sends, what it counts, and that a second's requests are spread
 * over the second rather than sent as one burst at its start (autocannon's `overallRate`).
 */
describe('the paced load generator', () => {
  const arrivals: { at: number; body: string }[] = [];
  let answer = (response: ServerResponse) => response.writeHead(200).end('{}');
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      arrivals.push({ at: performance.now(), body: Buffer.concat(chunks).toString('utf8') });
      answer(response);
    });
  });
  let url = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const run = (rate: number, seconds: number, warmUpSeconds: number) => {
    let n = 0;
    return pacedRun({
      url,
      connections: 10,
      rate,
      seconds,
      warmUpSeconds,
      next: () => ({ path: '/validate', headers: { 'content-type': 'application/json' }, body: String(n++) }),
    });
  };

  it('sends the warm-up and the measured requests, each once, and counts only the measured', async () => {
    arrivals.length = 0;
    const result = await run(200, 1, 0.5);
    expect(arrivals.map((a) => Number(a.body)).sort((a, b) => a - b)).toEqual([...Array(300).keys()]);
    expect(result).toMatchObject({
      requests: 200,
      errors: 0,
      non2xx: 0,
      statusCodes: { '200': { count: 200 } },
    });
    expect(result.p50).toBeGreaterThan(0);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    expect(result.end).toBeGreaterThanOrEqual(result.start);
  });

  it('spreads a second of requests over the second instead of sending them at its start', async () => {
    arrivals.length = 0;
    await run(200, 1, 0);
    const first = arrivals[0]?.at ?? 0;
    // Evenly spread, 20 are due in the first 100 ms; a burst would put all 200 there.
    const early = arrivals.filter((a) => a.at - first < 100).length;
    expect(early).toBeLessThan(100);
    expect(arrivals.at(-1)!.at - first).toBeGreaterThan(500);
  });

  it('counts what was not answered 200', async () => {
    answer = (response) => response.writeHead(503).end();
    try {
      const result = await run(100, 0.5, 0);
      expect(result).toMatchObject({
        requests: 50,
        errors: 0,
        non2xx: 50,
        statusCodes: { '503': { count: 50 } },
      });
    } finally {
      answer = (response) => response.writeHead(200).end('{}');
    }
  });
});
