import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';

/*
 * Random sequences of visits, payout rule versions (a partner's and a gym's own) and reversals, run one after the
 * other through the real app: the ledger must equal a reference computation written here from the README's words
 * alone, and a settlement of the whole run must sum to the ledger, rule by rule.
 */

const HOUR = 3_600_000;
const MEMBERS = ['7000000000001', '7000000000002', '7000000000003'];
const PRICES = [1250, 999];

type Tier = { after_cents: number; rate_pct: number };
type RulesBody = { monthly_paid_visits_per_member: number | null; tiers: Tier[] };
type Op =
  | { kind: 'visit'; member: number; gym: number; hours: number }
  | { kind: 'rules'; owner: 'partner' | 'gym'; rules: RulesBody }
  | { kind: 'reverse'; pick: number; partial: boolean };

const rulesBody = fc.record({
  monthly_paid_visits_per_member: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  tiers: fc.uniqueArray(
    fc.record({
      after_cents: fc.integer({ min: 0, max: 4000 }),
      rate_pct: fc.constantFrom(0, 50, 75, 80.5, 100),
    }),
    { maxLength: 2, selector: (tier) => tier.after_cents },
  ),
});
const anOp: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('visit' as const),
      member: fc.nat(2),
      gym: fc.nat(1),
      hours: fc.nat(40),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('rules' as const),
      owner: fc.constantFrom('partner' as const, 'gym' as const),
      rules: rulesBody,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat(), partial: fc.boolean() }),
  },
);

interface Pricing {
  list_cents: number;
  paid_cents: number;
  rule: string;
  version: number | null;
}
interface Entry {
  kind: string;
  gym_id: number;
  platform_id: string;
  payout_cents: number;
  reverses: number | null;
  pricing: Pricing;
}

/** a·b / 10000 rounded half to even, in exact integers. */
function halfEvenBasisPoints(cents: number, basisPoints: number): number {
  const product = BigInt(cents) * BigInt(basisPoints);
  const quotient = product / 10_000n;
  const twice = 2n * (product % 10_000n);
  if (twice > 10_000n) return Number(quotient + 1n);
  if (twice < 10_000n) return Number(quotient);
  return Number(quotient % 2n === 0n ? quotient : quotient + 1n);
}

/** The reference: what the README says each visit is paid, from the visits before it in order. */
function createReference() {
  const versions = new Map<string, { version: number; from: number; rules: RulesBody }[]>();
  const memberVisits = new Map<string, number>();
  const partnerPaid = new Map<string, number>();
  const inForce = (owner: string, now: number) =>
    (versions.get(owner) ?? []).filter((v) => v.from <= now).at(-1);
  const empty = (rules: RulesBody) =>
    rules.monthly_paid_visits_per_member === null && rules.tiers.length === 0;
  return {
    setRules(owner: string, rules: RulesBody, now: number) {
      const list = versions.get(owner) ?? [];
      list.push({ version: list.length + 1, from: now, rules });
      versions.set(owner, list);
    },
    price(gymId: number, member: string, list: number, now: number): Pricing {
      const own = inForce(`gym:${gymId}`, now);
      const partner = inForce('partner', now);
      const found =
        own !== undefined && !empty(own.rules)
          ? { ...own, scope: gymId }
          : partner !== undefined && !empty(partner.rules)
            ? { ...partner, scope: 0 }
            : undefined;
      if (found === undefined) return { list_cents: list, paid_cents: list, rule: 'list', version: null };
      const month = new Date(now).toISOString().slice(0, 7);
      const memberKey = `${month}/${found.scope}/${member}`;
      const visits = memberVisits.get(memberKey) ?? 0;
      const paidSoFar = partnerPaid.get(month) ?? 0;
      const cap = found.rules.monthly_paid_visits_per_member;
      let pricing: Pricing = { list_cents: list, paid_cents: list, rule: 'list', version: found.version };
      if (cap !== null && visits >= cap) pricing = { ...pricing, paid_cents: 0, rule: 'monthly-cap' };
      else {
        const tier = found.rules.tiers
          .filter((t) => paidSoFar > t.after_cents)
          .sort((a, b) => b.after_cents - a.after_cents)[0];
        if (tier !== undefined) {
          const paid = halfEvenBasisPoints(list, Math.round(tier.rate_pct * 100));
          pricing = { ...pricing, paid_cents: paid, rule: 'volume-tier' };
        }
      }
      memberVisits.set(memberKey, visits + 1);
      partnerPaid.set(month, paidSoFar + pricing.paid_cents);
      return pricing;
    },
  };
}

/** One sequence, for a partner of its own with two gyms: the ledger it made, and the reference's. */
async function runSequence(t: TestApp, ops: readonly Op[]) {
  const partner = await op.createPartner(t);
  const gyms = [await op.createGym(t, partner.id), await op.createGym(t, partner.id)];
  const products = await Promise.all(
    gyms.map((g, i) => op.createProduct(t, g.id, { payout_cents: PRICES[i] })),
  );
  const key = await op.issueKey(t, partner.id);
  const reference = createReference();
  const expected: Entry[] = [];
  const started = t.clock.now();
  for (const step of ops) {
    const now = t.clock.now();
    if (step.kind === 'rules') {
      const url =
        step.owner === 'partner'
          ? `/partners/${partner.id}/payout-rules`
          : `/gyms/${gyms[1]?.id}/payout-rules`;
      op.ok(await op.admin(t, 'PUT', url, step.rules), 200);
      reference.setRules(step.owner === 'partner' ? 'partner' : `gym:${gyms[1]?.id}`, step.rules, now);
    } else if (step.kind === 'visit') {
      t.clock.advance(step.hours * HOUR);
      const product = products[step.gym] as op.Product;
      const member = MEMBERS[step.member] as string;
      const checkin = await op.createCheckin(t, product, { platform_id: member });
      expect((await op.validate(t, key.key, product.gym_id, member)).statusCode).toBe(200);
      const pricing = reference.price(product.gym_id, member, product.payout_cents, t.clock.now());
      const row = await t.store.db
        .selectFrom('transactions')
        .select('id')
        .where('checkin_id', '=', checkin.id)
        .executeTakeFirstOrThrow();
      expected.push({
        kind: 'visit',
        gym_id: product.gym_id,
        platform_id: member,
        payout_cents: pricing.paid_cents,
        reverses: Number(row.id),
        pricing,
      });
    } else {
      const open = expected.filter((e) => e.kind === 'visit' && left(expected, e) > 0);
      const visit = open[step.pick % Math.max(open.length, 1)];
      if (visit === undefined) continue;
      const amount = step.partial ? Math.ceil(left(expected, visit) / 2) : left(expected, visit);
      const body = { reason: 'disputed', ...(step.partial ? { amount_cents: amount } : {}) };
      op.ok(await op.admin(t, 'POST', `/transactions/${visit.reverses}/reversals`, body), 201);
      const pricing = {
        list_cents: -amount,
        paid_cents: -amount,
        rule: visit.pricing.rule,
        version: visit.pricing.version,
      };
      expected.push({
        kind: 'reversal',
        gym_id: visit.gym_id,
        platform_id: visit.platform_id,
        payout_cents: -amount,
        reverses: visit.reverses,
        pricing,
      });
    }
  }
  return { partner, expected, started };
}

/** What is left to reverse of a visit (its `reverses` holds its own id until the ledger is compared). */
function left(entries: readonly Entry[], visit: Entry): number {
  const reversed = entries.filter((e) => e.kind === 'reversal' && e.reverses === visit.reverses);
  return visit.payout_cents + reversed.reduce((sum, e) => sum + e.payout_cents, 0);
}

describe.each(dialects)('payout rules price every visit as the reference does (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, env: { GATEHOUSE_DAILY_VISIT_LIMIT: '0' } });

  test('when random visits, rule versions and reversals run in order, then the ledger equals the reference and a settlement of them sums to it, rule by rule', async () => {
    const t = app();
    const rulesSeen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(anOp, { minLength: 8, maxLength: 24 }), async (ops) => {
        const { partner, expected } = await runSequence(t, ops);
        const ledger = op.ok<{ items: (Entry & { id: number })[] }>(
          await op.admin(t, 'GET', `/transactions?partner_id=${partner.id}&limit=1000`),
          200,
        ).items;
        const shown = ledger.map(({ kind, gym_id, platform_id, payout_cents, reverses, pricing, id }) => ({
          kind,
          gym_id,
          platform_id,
          payout_cents,
          pricing,
          reverses: kind === 'visit' ? id : reverses,
        }));
        expect(shown).toEqual(expected);
        for (const entry of expected) rulesSeen.add(entry.pricing.rule);

        // Everything so far is settled at once: its lines explain the total, per rule, as the ledger does.
        t.clock.advance(48 * HOUR);
        const end = new Date(t.clock.now()).toISOString().slice(0, 10);
        const closed = op.ok<{
          items: {
            total_cents: number;
            lines: {
              total_cents: number;
              pricing: { rule: string; paid_cents: number; list_cents: number }[];
            }[];
          }[];
        }>(
          await op.admin(t, 'POST', '/settlements', {
            period_start: '2026-01-01',
            period_end: end,
            partner_id: partner.id,
          }),
          201,
        ).items;
        const total = expected.reduce((sum, e) => sum + e.payout_cents, 0);
        const byRule = (entries: { rule: string; paid: number; list: number }[]) => {
          const sums: Record<string, { paid: number; list: number }> = {};
          for (const e of entries)
            sums[e.rule] = {
              paid: (sums[e.rule]?.paid ?? 0) + e.paid,
              list: (sums[e.rule]?.list ?? 0) + e.list,
            };
          return sums;
        };
        const settled = closed.flatMap((s) => s.lines.flatMap((line) => line.pricing));
        expect(closed.reduce((sum, s) => sum + s.total_cents, 0)).toBe(expected.length === 0 ? 0 : total);
        expect(
          byRule(settled.map((p) => ({ rule: p.rule, paid: p.paid_cents, list: p.list_cents }))),
        ).toEqual(
          byRule(
            expected.map((e) => ({
              rule: e.pricing.rule,
              paid: e.pricing.paid_cents,
              list: e.pricing.list_cents,
            })),
          ),
        );
      }),
      { numRuns: dialect === 'postgres' ? 10 : 15, seed: 3202 },
    );
    // The sequences priced visits under every rule: the comparison above was not only of list prices.
    expect([...rulesSeen].sort()).toEqual(['list', 'monthly-cap', 'volume-tier']);
  }, 60_000);
});
