import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, test } from 'vitest';
import { dialects, useApp, type TestApp } from '../fixtures/test-app.js';
import {
  contentTypeArb,
  headerValue,
  partnerBodyArb,
  platformIdArb,
  rawBodyArb,
  targetArb,
} from './arbitraries.js';
import {
  arrangeWorld,
  expectDocumentedAnswer,
  expectValidationRecorded,
  expectWorldIntact,
  type World,
} from './property-world.js';

const NUM_RUNS = 150;
const ABSENT = undefined;

/** Authorization and X-Gym-Id: A's keys and gyms most of the time, B's, anything, or nothing. */
function credentialsArb(world: World) {
  const { a, b } = world;
  const authorization = fc.oneof(
    { arbitrary: fc.constant(a.headers.authorization), weight: 10 },
    fc.constant(world.scopedHeaders.authorization),
    fc.constant(b.headers.authorization),
    headerValue,
    headerValue.map((token) => `Bearer ${token}`),
    fc.constant(ABSENT),
  );
  const gymId = fc.oneof(
    { arbitrary: fc.constant(String(a.gym.id)), weight: 10 },
    fc.constant(String(world.otherGymId)),
    fc.constant(String(b.gym.id)),
    fc.integer().map(String),
    headerValue,
    fc.constant(ABSENT),
  );
  // B's own key at B's own gym would be a legitimate write to B: every other pairing must leave B untouched.
  return fc.tuple(authorization, gymId).map(([auth, gym]) => ({
    authorization: auth,
    'x-gym-id': auth === b.headers.authorization && gym === String(b.gym.id) ? String(a.gym.id) : gym,
  }));
}

function requestArb(world: World) {
  const members = [...world.checkins.keys()];
  return fc.record({
    target: targetArb(members),
    credentials: credentialsArb(world),
    contentType: fc.oneof(
      { arbitrary: fc.constant('application/json'), weight: 4 },
      contentTypeArb,
      fc.constant(ABSENT),
    ),
    body: fc.oneof(
      { arbitrary: partnerBodyArb(members), weight: 4 },
      rawBodyArb(members),
      fc.constant(ABSENT),
    ),
  });
}

type GeneratedRequest = ReturnType<typeof requestArb> extends fc.Arbitrary<infer R> ? R : never;

function toInject(request: GeneratedRequest): InjectOptions {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries({
    ...request.credentials,
    'content-type': request.contentType,
  })) {
    if (value !== ABSENT) headers[name] = value;
  }
  return {
    method: request.target.method,
    url: request.target.url,
    headers,
    ...(request.body === ABSENT ? {} : { payload: request.body }),
  };
}

describe.each(dialects)('partner API under generated input, properties (%s)', (dialect) => {
  let t: TestApp;
  let world: World;
  const validated = new Set<string>();
  // Limits off: thousands of deliberate refusals from one address would otherwise turn everything into 429.
  const shared = useApp({
    dialect,
    env: { GATEHOUSE_RATE_LIMIT_PER_SECOND: '0', GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '0' },
  });
  beforeAll(async () => {
    t = shared();
    world = await arrangeWorld(t);
  });

  test('when any request is sent under /access/v1 (any method, path, platform id, headers, content type and body), then the answer is documented and never 5xx; afterwards one transaction per validated check-in, partner B unchanged, no key in the logs', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb(world), async (request) => {
        const options = toInject(request);
        const response = await t.app.inject(options);
        const { method, url } = request.target;
        expectDocumentedAnswer(method, response);
        if (response.statusCode === 200 && method === 'POST' && url === '/access/v1/validate') {
          await expectValidationRecorded(world, validated, response);
        }
        await expectWorldIntact(world);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("when a validate carries A's key and any JSON body, then it answers 200 (with its one transaction) or a documented refusal; afterwards one transaction per validated check-in and partner B unchanged", async () => {
    const members = [...world.checkins.keys()];
    const body = fc.oneof(
      fc
        .record(
          { platform_id: platformIdArb(members), custom_code: fc.option(fc.string({ unit: 'binary' })) },
          { requiredKeys: ['platform_id'] },
        )
        .map((fields) => JSON.stringify(fields)),
      rawBodyArb(members),
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const response = await t.app.inject({
          method: 'POST',
          url: '/access/v1/validate',
          headers: { ...world.a.headers, 'content-type': 'application/json' },
          payload,
        });
        expectDocumentedAnswer('POST', response);
        if (response.statusCode === 200) await expectValidationRecorded(world, validated, response);
        await expectWorldIntact(world);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
