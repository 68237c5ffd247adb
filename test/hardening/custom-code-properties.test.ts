import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { errorEnvelope } from '../fixtures/partner-api.js';
import { checkinRow, customCodeRow, transactionsOf } from '../fixtures/store-state.js';
import { dialects, useApp, type TestApp } from '../fixtures/test-app.js';
import { customCodeArb } from './arbitraries.js';
import { arrangeWorld, expectDocumentedAnswer, expectWorldIntact, type World } from './property-world.js';

const NUM_RUNS = 150;

/**
 * The custom-code contract, written out: the first rule a value breaks, in the documented order
 * (type, length in code points, blank, control characters), or undefined for a valid code.
 */
function codeProblem(code: unknown): string | undefined {
  if (typeof code !== 'string') return 'must be a string';
  const length = [...code].length;
  if (length < 1 || length > 13) return 'length must be between 1 and 13 characters';
  if (!/[^\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800]/u.test(code)) return 'must not be blank';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/u.test(code)) return 'must not contain control characters';
  return undefined;
}

/**
 * Whether a value sent as JSON carries a key the body parser refuses before any field is looked at (prototype
 * pollution: `__proto__`, or `constructor` holding `prototype`), as generated objects now and then do.
 */
function pollutes(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(
    ([key, inner]) =>
      key === '__proto__' ||
      (key === 'constructor' && typeof inner === 'object' && inner !== null && 'prototype' in inner) ||
      pollutes(inner),
  );
}

const anyCode = fc.oneof(
  { arbitrary: customCodeArb, weight: 4 },
  fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string()), fc.object()),
);
type Route = 'POST' | 'PUT' | 'validate';

describe.each(dialects)('custom codes under generated input, properties (%s)', (dialect) => {
  let t: TestApp;
  let world: World;
  const shared = useApp({
    dialect,
    env: { GATEHOUSE_RATE_LIMIT_PER_SECOND: '0', GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '0' },
  });
  beforeAll(async () => {
    t = shared();
    world = await arrangeWorld(t, 10);
  });

  /** A fresh member with a pending check-in at A's gym and, half the time, a code already stored. */
  async function freshMember(withCode: boolean) {
    const member = platformId();
    const { a } = world;
    const checkin = await t.services.checkins.create({
      platformId: member,
      gymId: a.gym.id,
      productId: a.product.id,
    });
    if (withCode) await t.services.customCodes.create({ gymId: a.gym.id, platformId: member }, 'Before#1');
    return { member, checkinId: checkin.id };
  }

  function send(route: Route, member: string, code: unknown) {
    const headers = { ...world.a.headers, 'content-type': 'application/json' };
    return route === 'validate'
      ? t.app.inject({
          method: 'POST',
          url: '/access/v1/validate',
          headers,
          payload: JSON.stringify({ platform_id: member, custom_code: code }),
        })
      : t.app.inject({
          method: route,
          url: `/access/v1/code/${member}`,
          headers,
          payload: JSON.stringify({ custom_code: code }),
        });
  }

  test('when any custom_code (any Unicode, emoji, control characters, quotes, SQL, non-strings) is sent to POST, PUT or validate, then a valid one is stored and read back verbatim and an invalid one is refused with its documented message, changing nothing', async () => {
    const routes = fc.constantFrom<Route>('POST', 'PUT', 'validate');
    await fc.assert(
      fc.asyncProperty(routes, anyCode, fc.boolean(), async (route, code, withCode) => {
        const { member, checkinId } = await freshMember(withCode);
        const gymId = world.a.gym.id;
        const response = await send(route, member, code);
        expectDocumentedAnswer('POST', response);
        const stored = (await customCodeRow(t.store, gymId, member))?.code;
        const problem = codeProblem(code);

        if (problem !== undefined) {
          expect(response.json()).toEqual(
            pollutes(code)
              ? errorEnvelope('body', 'must not contain __proto__ or constructor.prototype keys')
              : errorEnvelope('custom_code', problem),
          );
          expect(stored, 'the stored code is unchanged').toBe(withCode ? 'Before#1' : undefined);
          expect((await checkinRow(t.store, checkinId)).status).toBe('pending');
          return;
        }
        const expected = { POST: withCode ? 409 : 201, PUT: withCode ? 200 : 404, validate: 200 }[route];
        expect(response.statusCode, response.body).toBe(expected);
        const written = expected !== 409 && expected !== 404;
        expect(stored, 'stored verbatim').toBe(written ? code : withCode ? 'Before#1' : undefined);
        if (route === 'validate') expect(await transactionsOf(t.store, checkinId)).toHaveLength(1);
        if (written) {
          const read = await t.app.inject({
            method: 'GET',
            url: `/access/v1/code/${member}`,
            headers: world.a.headers,
          });
          expect(read.json<{ results: { custom_code: unknown } }>().results.custom_code).toBe(code);
        }
        await expectWorldIntact(world);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
