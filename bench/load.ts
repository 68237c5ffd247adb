import { readFileSync } from 'node:fs';
import autocannon, { type Request } from 'autocannon';
import { pacedRun } from './paced.js';
import { BENCH_ADMIN_TOKEN, type Fixtures } from './seed.js';

/**
 * The load generator, run in a process of its own so it never shares an event loop with the server it measures.
 * Every request validates a different pending check-in (in insertion order, as members arrive), with the key and
 * X-Gym-Id of that check-in's partner. Prints one JSON result line.
 * Usage: load <url> <fixtures.json> <connections> <seconds> [overallRate] [firstCheckin] [wrap] [mode] [amount] [pacing]
 * With an amount (> 0), exactly that many requests are sent, as fast as they go, instead of a duration.
 * With `wrap` (for a server that keeps no state) the check-ins are reused from the start once they run out.
 * With mode `create`, every request is the member app creating a check-in for a new member instead
 * (`POST /admin/v1/checkins` with the admin token), at the partners' gyms in turn (with skewed fixtures, every other
 * one at the first partner's): the other half of a visit.
 * With pacing `even` and a rate, validations are sent open-loop at evenly spaced moments (paced.ts) instead of by
 * autocannon, whose rate arrives as one burst a second; one more second is sent first and not counted.
 */
const [
  url = '',
  fixturesPath = '',
  connections = '50',
  seconds = '10',
  rate = '0',
  first = '0',
  wrap = '',
  mode = 'validate',
  amount = '0',
  pacing = 'burst',
] = process.argv.slice(2);
const fixtures = JSON.parse(readFileSync(fixturesPath, 'utf8')) as Fixtures;
const keysByGym = new Map(fixtures.partners.map((partner) => [partner.gymId, `Bearer ${partner.key}`]));
let next = Number(first);

/** The next pending check-in's validation: its partner's key, its gym, its member. */
function nextValidation() {
  const checkin = fixtures.checkins[wrap === 'wrap' ? next++ % fixtures.checkins.length : next++];
  if (checkin === undefined) throw new Error('the fixtures ran out of pending check-ins: seed more');
  const [gymId, platformId] = checkin;
  return {
    path: '/access/v1/validate',
    headers: {
      authorization: keysByGym.get(gymId) ?? '',
      'x-gym-id': String(gymId),
      'content-type': 'application/json',
    },
    body: `{"platform_id":"${platformId}"}`,
  };
}

const validation: Request = {
  method: 'POST',
  path: '/access/v1/validate',
  setupRequest: (request) => {
    const { headers, body } = nextValidation();
    return { ...request, headers, body };
  },
};

const creation: Request = {
  method: 'POST',
  path: '/admin/v1/checkins',
  setupRequest: (request) => {
    const n = next++;
    const at = fixtures.skewed === true && n % 2 === 0 ? 0 : n % fixtures.partners.length;
    const gym = fixtures.partners[at]?.gymId ?? 0;
    // Members the seed never made: 13 digits from 2000000000000 on.
    const member = String(2_000_000_000_000 + n);
    return {
      ...request,
      headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      // The seed gives each gym one product, with the gym's id.
      body: `{"platform_id":"${member}","gym_id":${gym},"product_id":${gym}}`,
    };
  },
};

if (pacing === 'even' && Number(rate) > 0 && mode === 'validate') {
  const paced = await pacedRun({
    url,
    connections: Number(connections),
    rate: Number(rate),
    seconds: Number(seconds),
    warmUpSeconds: 1,
    next: nextValidation,
  });
  process.stdout.write(JSON.stringify({ ...paced, used: next - Number(first) }) + '\n');
  process.exit(0);
}

const start = Date.now();
let last = start;
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const running = autocannon(
    {
      url,
      connections: Number(connections),
      ...(Number(amount) > 0 ? { amount: Number(amount) } : { duration: Number(seconds) }),
      ...(Number(rate) > 0 ? { overallRate: Number(rate) } : {}),
      requests: [mode === 'create' ? creation : validation],
    },
    (error: Error | null | undefined, done) =>
      error === null || error === undefined ? resolve(done) : reject(error),
  );
  // autocannon ends a run of a given amount on its next whole-second tick: the end is the last answer's arrival.
  running.on('response', () => (last = Date.now()));
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
    start,
    end: last,
  }) + '\n',
);
