import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  decideAdmission,
  PlanLimitReachedError,
  PlanNotIncludedError,
  type Admission,
  type PlanUsage,
} from './admission.js';
import type { PlanRule } from './plan.js';
import { planRule as rule } from '../../../test/fixtures/domain.js';

const ZONE = 'America/Sao_Paulo';
const NOW = Date.parse('2026-11-26T15:00:00Z'); // Thursday 12:00 in São Paulo
const HOUR = 3_600_000;

const admission = (rules: PlanRule[], overrides: Partial<Admission> = {}): Admission => ({
  plan: { planId: 1, version: 1, rules, effectiveFrom: 0 },
  category: 'standard',
  gymId: 10,
  partnerId: 1,
  timeZone: ZONE,
  now: NOW,
  ...overrides,
});

let nextId = 1;
const visit = (at: number, overrides: Partial<PlanUsage> = {}): PlanUsage => ({
  id: nextId++,
  gymId: 10,
  partnerId: 1,
  category: 'standard',
  status: 'validated',
  checkedInAt: at - 60_000,
  expiresAt: at + 1_140_000,
  validatedAt: at,
  ...overrides,
});
const pending = (at: number, overrides: Partial<PlanUsage> = {}): PlanUsage =>
  visit(at, {
    status: 'pending',
    checkedInAt: at,
    expiresAt: at + 1_200_000,
    validatedAt: null,
    ...overrides,
  });

function refusal(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error instanceof PlanLimitReachedError || error instanceof PlanNotIncludedError
      ? { key: error.key, details: error.details }
      : error;
  }
  return 'admitted';
}

describe('decideAdmission', () => {
  test('when the category has no rule, or a rule of limit 0, then 409 checkin.plan.not-included naming it', () => {
    expect(refusal(() => decideAdmission(admission([rule({ category: 'premium' })]), []))).toEqual({
      key: 'checkin.plan.not-included',
      details: { category: 'standard' },
    });
    expect(refusal(() => decideAdmission(admission([rule(), rule({ per: 'week', limit: 0 })]), []))).toEqual({
      key: 'checkin.plan.not-included',
      details: { category: 'standard' },
    });
  });

  test('when the day’s one visit at the gym is used, then 409 limit-reached with the rule, the count and the next local midnight; at another gym of a gym-scope rule, admitted', () => {
    const usage = [visit(NOW - 2 * HOUR)];

    expect(refusal(() => decideAdmission(admission([rule()]), usage))).toEqual({
      key: 'checkin.plan.limit-reached',
      details: {
        category: 'standard',
        per: 'day',
        scope: 'gym',
        limit: 1,
        used: 1,
        resets_at: '2026-11-27T03:00:00.000Z',
      },
    });
    expect(refusal(() => decideAdmission(admission([rule()], { gymId: 11 }), usage))).toBe('admitted');
  });

  test('when visits of yesterday (local), of another category or of another partner are all there is, then a partner-scope day rule admits', () => {
    const usage = [
      visit(Date.parse('2026-11-26T02:59:00Z')), // 23:59 on the 25th in São Paulo
      visit(NOW - HOUR, { category: 'premium' }),
      visit(NOW - HOUR, { gymId: 20, partnerId: 2 }),
    ];

    expect(refusal(() => decideAdmission(admission([rule({ scope: 'partner' })]), usage))).toBe('admitted');
  });

  test('when a pending unexpired check-in waits at another gym, then it uses the last visit of a network rule; one at the same gym is superseded by the new one; an expired one uses nothing', () => {
    const network = [rule({ scope: 'network' })];

    expect(
      refusal(() =>
        decideAdmission(admission(network), [pending(NOW - 60_000, { gymId: 30, partnerId: 3 })]),
      ),
    ).toEqual({
      key: 'checkin.plan.limit-reached',
      details: expect.objectContaining({ scope: 'network', used: 1 }) as unknown,
    });
    expect(refusal(() => decideAdmission(admission(network), [pending(NOW - 60_000)]))).toBe('admitted');
    expect(
      refusal(() => decideAdmission(admission(network), [pending(NOW - 30 * 60_000, { gymId: 30 })])),
    ).toBe('admitted');
  });

  test('when a gym’s latest check-in was validated after an older pending one, then only the visit counts there', () => {
    const older = pending(NOW - 10 * 60_000, { gymId: 30, partnerId: 3 });
    const validated = visit(NOW - 5 * 60_000, { gymId: 30, partnerId: 3, checkedInAt: NOW - 6 * 60_000 });

    expect(
      refusal(() => decideAdmission(admission([rule({ scope: 'network', limit: 2 })]), [older, validated])),
    ).toBe('admitted');
  });

  test('when several rules match, then the first without room refuses: 3 a week is checked after 1 a day', () => {
    const rules = [rule({ scope: 'network' }), rule({ per: 'week', limit: 3, scope: 'network' })];
    const monday = Date.parse('2026-11-23T12:00:00Z');
    const usage = [visit(monday), visit(monday + 24 * HOUR), visit(monday + 48 * HOUR, { gymId: 11 })];

    expect(refusal(() => decideAdmission(admission(rules), usage))).toEqual({
      key: 'checkin.plan.limit-reached',
      details: {
        category: 'standard',
        per: 'week',
        scope: 'network',
        limit: 3,
        used: 3,
        resets_at: '2026-11-30T03:00:00.000Z',
      },
    });
  });
});

/** The local date of an instant as Intl writes it, and the period keys derived from it: an independent oracle. */
function periodKey(per: PlanRule['per'], instant: number): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: ZONE,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const utcDate = Date.UTC(get('year'), get('month') - 1, get('day'));
  if (per === 'day') return String(utcDate);
  if (per === 'month') return `${get('year')}-${get('month')}`;
  const weekday = (new Date(utcDate).getUTCDay() + 6) % 7;
  return String(utcDate - weekday * 86_400_000);
}

function reference(admitted: Admission, usage: PlanUsage[]): 'admitted' | { key: string; used?: number } {
  const rules = admitted.plan.rules.filter((r) => r.category === admitted.category);
  if (rules.length === 0 || rules.some((r) => r.limit === 0)) return { key: 'checkin.plan.not-included' };
  const byGym = new Map<number, PlanUsage[]>();
  for (const item of usage) byGym.set(item.gymId, [...(byGym.get(item.gymId) ?? []), item]);
  const uses: { at: number; item: PlanUsage }[] = usage
    .filter((item) => item.status === 'validated')
    .map((item) => ({ at: item.validatedAt ?? 0, item }));
  for (const [gymId, items] of byGym) {
    const latest = [...items].sort((a, b) => b.checkedInAt - a.checkedInAt || b.id - a.id)[0];
    if (latest?.status === 'pending' && latest.expiresAt > admitted.now && gymId !== admitted.gymId)
      uses.push({ at: admitted.now, item: latest });
  }
  for (const r of rules) {
    const used = uses.filter(
      ({ at, item }) =>
        item.category === admitted.category &&
        periodKey(r.per, at) === periodKey(r.per, admitted.now) &&
        (r.scope === 'network' ||
          (r.scope === 'gym' ? item.gymId === admitted.gymId : item.partnerId === admitted.partnerId)),
    ).length;
    if (used >= r.limit) return { key: 'checkin.plan.limit-reached', used };
  }
  return 'admitted';
}

describe('decideAdmission against a reference', () => {
  test('when any plan meets any history of the member, then the decision is the reference computation’s', () => {
    const arbRule = fc.record({
      category: fc.constantFrom('standard', 'premium'),
      per: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
      limit: fc.integer({ min: 0, max: 4 }),
      scope: fc.constantFrom('gym' as const, 'partner' as const, 'network' as const),
    });
    const arbUsage = fc.record({
      id: fc.integer({ min: 1, max: 10_000 }),
      gym: fc.integer({ min: 0, max: 3 }),
      category: fc.constantFrom('standard', 'premium'),
      status: fc.constantFrom('validated', 'pending', 'cancelled'),
      checkedInAgo: fc.integer({ min: 0, max: 40 * 86_400_000 }),
      validatedAfter: fc.integer({ min: 0, max: 1_200_000 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(arbRule, { selector: (r) => `${r.category}/${r.per}/${r.scope}`, maxLength: 4 }),
        fc.array(arbUsage, { maxLength: 12 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 60 * 86_400_000 }),
        (rules, raw, gym, shift) => {
          const now = NOW + shift;
          const usage: PlanUsage[] = raw.map((u, index) => ({
            id: index + 1,
            gymId: 10 + u.gym,
            partnerId: 1 + (u.gym % 2),
            category: u.category,
            status: u.status,
            checkedInAt: now - u.checkedInAgo,
            expiresAt: now - u.checkedInAgo + 1_200_000,
            validatedAt:
              u.status === 'validated' ? Math.min(now, now - u.checkedInAgo + u.validatedAfter) : null,
          }));
          const admitted = admission(rules, { now, gymId: 10 + gym, partnerId: 1 + (gym % 2) });
          const expected = reference(admitted, usage);
          const actual = refusal(() => decideAdmission(admitted, usage));
          if (expected === 'admitted') expect(actual).toBe('admitted');
          else
            expect(actual).toMatchObject({
              key: expected.key,
              ...(expected.used === undefined ? {} : { details: { used: expected.used } }),
            });
        },
      ),
      { numRuns: 400 },
    );
  });
});
