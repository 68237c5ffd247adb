import { statPeriod, summarise, type StatBucket, type ValidationStats } from '../domain/validation-stats.js';
import { countValidations } from '../store/ledger/stats-repository.js';
import type { ServiceDependencies } from './dependencies.js';

export interface StatsQuery {
  readonly from: number;
  readonly to: number;
  readonly bucket: StatBucket;
  readonly partnerId?: number;
  readonly gymId?: number;
}

/** The figures behind the console's charts: validations and payouts over time and per gym. */
export function createStatsService({ store }: ServiceDependencies) {
  return {
    async validations(query: StatsQuery): Promise<ValidationStats> {
      const period = statPeriod(query.from, query.to, query.bucket);
      const filter = {
        ...(query.partnerId === undefined ? {} : { partnerId: query.partnerId }),
        ...(query.gymId === undefined ? {} : { gymId: query.gymId }),
      };
      return summarise(period, await countValidations(store.db, period, filter));
    },
  };
}

export type StatsService = ReturnType<typeof createStatsService>;
