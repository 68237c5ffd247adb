import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { Fixtures } from './seed.js';

/**
 * The load generator, run in a process of its own so it never shares an event loop with the server it measures.
 * Every request validates a different pending check-in (in insertion order, as members arrive), with the key and
 * X-Gym-Id of that check-in's partner. Prints one JSON result line.
 * Usage: load <url> <fixtures.json> <connections> <seconds> [overallRate] [firstCheckin] [wrap]
 * With `wrap` (for a server that keeps no state) the check-ins are reused from the start once they run out.
 */
const [url = '', fixturesPath = '', connections = '50', seconds = '10', rate = '0', first = '0', wrap = ''] =
  process.argv.slice(2);
const fixtures = JSON.parse(readFileSync(fixturesPath, 'utf8')) as Fixtures;
const keysByGym = new Map(fixtures.partners.map((partner) => [partner.gymId, `Bearer ${partner.key}`]));
let next = Number(first);

const result = await autocannon({
  url,
  connections: Number(connections),
  duration: Number(seconds),
  ...(Number(rate) > 0 ? { overallRate: Number(rate) } : {}),
  requests: [
    {
      method: 'POST',
      path: '/access/v1/validate',
      setupRequest: (request) => {
        const checkin = fixtures.checkins[wrap === 'wrap' ? next++ % fixtures.checkins.length : next++];
        if (checkin === undefined) throw new Error('the fixtures ran out of pending check-ins: seed more');
        const [gymId, platformId] = checkin;
        return {
          ...request,
          headers: {
            authorization: keysByGym.get(gymId) ?? '',
            'x-gym-id': String(gymId),
            'content-type': 'application/json',
          },
          body: `{"platform_id":"${platformId}"}`,
        };
      },
    },
  ],
});

process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    // autocannon keeps whole milliseconds; the mean of them tells finer differences than its p50 can.
    mean: result.latency.average,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCodes: result.statusCodeStats,
    used: next - Number(first),
  }) + '\n',
);
