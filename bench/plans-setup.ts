import { loadConfig } from '../src/config/index.js';
import { systemClock } from '../src/domain/clock.js';
import { createServices } from '../src/services/index.js';
import { createStore } from '../src/store/create-store.js';

/** The plan every member of a plans run is on (the server's GATEHOUSE_DEFAULT_PLAN). */
export const BENCH_PLAN = 'Bench plan';

/**
 * Plans and payout rules as a network would have them: every member on a plan of three rules (a day at the gym, a
 * week at the partner, a month across the network), a monthly paid-visit cap on every partner, and volume tiers on
 * the first partner (the one a skewed seed gives half of the traffic, so its tiers are reached within the run).
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
  } finally {
    await store.close();
  }
}
