import { sql } from 'kysely';
import { loadConfig } from '../src/config/index.js';
import { systemClock } from '../src/domain/clock.js';
import { createServices } from '../src/services/index.js';
import { createStore } from '../src/store/create-store.js';

/** The plan every member of a plans run is on (the server's GATEHOUSE_DEFAULT_PLAN). */
export const BENCH_PLAN = 'Bench plan';

/** `YYYY-MM` of the month `back` months before now's (UTC). */
function monthBefore(back: number): string {
  const now = new Date();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  return month.toISOString().slice(0, 7);
}

/**
 * Plans and payout rules as a network would have them: every member on a plan of three rules (a day at the gym, a
 * week at the partner, a month across the network), a monthly paid-visit cap on every partner, and volume tiers on
 * the first partner (the one a skewed seed gives half of the traffic, so its tiers are reached within the run).
 * The seeded check-ins are the network's history: under payout rules, the months before this one left their
 * counters (a member's visits at each partner, each partner's paid total), as a network running on rules has them;
 * the statistics are then gathered again, as after the seed.
 */
export async function setUpPlansAndRules(databaseUrl: string): Promise<void> {
  const config = loadConfig({ GATEHOUSE_DATABASE_URL: databaseUrl });
  const store = createStore(config);
  try {
    const services = createServices({ store, clock: systemClock, config });
    await services.plans.create(BENCH_PLAN, {
      rules: [
        { category: 'standard', per: 'day', limit: 2, scope: 'gym' },
        { category: 'standard', per: 'week', limit: 7, scope: 'partner' },
        { category: 'standard', per: 'month', limit: 30, scope: 'network' },
      ],
    });
    const partners = await store.db.selectFrom('partners').select('id').orderBy('id').execute();
    for (const [index, partner] of partners.entries()) {
      await services.payoutRules.set(
        { partnerId: partner.id },
        {
          monthlyPaidVisitsPerMember: 8,
          tiers:
            index === 0
              ? [
                  { afterCents: 100_000, ratePct: 95 },
                  { afterCents: 1_000_000, ratePct: 90 },
                ]
              : [],
        },
      );
    }
    for (const back of [1, 2]) {
      const month = monthBefore(back);
      await sql`insert into payout_counters (partner_id, month, gym_id, platform_id, visits, paid_cents)
        select g.partner_id, ${month}, 0, c.platform_id, count(*), 0
        from checkins c join gyms g on g.id = c.gym_id
        group by g.partner_id, c.platform_id`.execute(store.db);
      await sql`insert into payout_counters (partner_id, month, gym_id, platform_id, visits, paid_cents)
        select g.partner_id, ${month}, 0, '', count(*), sum(p.payout_cents)
        from checkins c join gyms g on g.id = c.gym_id join products p on p.id = c.product_id
        group by g.partner_id`.execute(store.db);
    }
    await sql`analyze payout_counters`.execute(store.db);
  } finally {
    await store.close();
  }
}
