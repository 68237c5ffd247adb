import { describe, expect, test } from 'vitest';
import { InputError } from '../errors.js';
import { checkedRules, versionAt, type PlanRule } from './plan.js';
import { planRule as rule } from '../../../test/fixtures/domain.js';

function keyOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof InputError ? error.key : String(error);
  }
  return undefined;
}

describe('checkedRules', () => {
  test.each([
    [[rule({ category: 'Premium' })], 'rules[0].category'],
    [[rule(), rule({ per: 'year' as PlanRule['per'] })], 'rules[1].per'],
    [[rule({ scope: 'city' as PlanRule['scope'] })], 'rules[0].scope'],
    [[rule({ limit: -1 })], 'rules[0].limit'],
    [[rule({ limit: 1.5 })], 'rules[0].limit'],
    [[rule({ limit: 1001 })], 'rules[0].limit'],
    [[rule(), rule({ limit: 2 })], 'rules[1]'],
    [Array.from({ length: 33 }, (_, i) => rule({ category: `c${i}` })), 'rules'],
  ])('when the rules are %j, then 400 names %s', (rules, key) => {
    expect(keyOf(() => checkedRules(rules))).toBe(key);
  });

  test('when rules differ in category, period or scope, then they pass as given', () => {
    const rules = [
      rule(),
      rule({ per: 'week', limit: 3 }),
      rule({ scope: 'network' }),
      rule({ category: 'premium', limit: 0 }),
    ];

    expect(checkedRules(rules)).toBe(rules);
  });
});

describe('versionAt', () => {
  const versions = [
    { version: 2, effectiveFrom: 200 },
    { version: 1, effectiveFrom: 100 },
    { version: 3, effectiveFrom: 200 },
    { version: 4, effectiveFrom: 500 },
  ];

  test('when asked at an instant, then the latest version in force by then: none before the first, the later of two from one instant', () => {
    expect([99, 100, 199, 200, 499, 500].map((at) => versionAt(versions, at)?.version)).toEqual([
      undefined,
      1,
      1,
      3,
      3,
      4,
    ]);
  });
});
