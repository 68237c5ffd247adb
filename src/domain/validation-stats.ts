import { InputError } from './errors.js';

export const STAT_BUCKETS = { hour: 3_600_000, day: 86_400_000 } as const;
export type StatBucket = keyof typeof STAT_BUCKETS;

/** Enough for a month by the hour or about three years by the day: a chart, not an export. */
export const MAX_STAT_BUCKETS = 1000;

export interface StatPeriod {
  readonly from: number;
  readonly to: number;
  readonly bucket: StatBucket;
}

/** One group the store counted: validations of one gym in one currency within one bucket. */
export interface StatRow {
  readonly bucketIndex: number;
  readonly gymId: number;
  readonly currency: string;
  readonly count: number;
  readonly payoutCents: number;
}

export interface CurrencySum {
  readonly currency: string;
  readonly payoutCents: number;
}

export interface Tally {
  readonly count: number;
  readonly payouts: CurrencySum[];
}

export interface ValidationStats extends StatPeriod, Tally {
  /** Every bucket of the period, the empty ones too, so a chart needs no gap filling. */
  readonly buckets: (Tally & { readonly start: number })[];
  readonly gyms: (Tally & { readonly gymId: number })[];
}

/** Buckets start at `from` and are `bucket` long; the last one may end after `to`. */
export function statPeriod(from: number, to: number, bucket: StatBucket): StatPeriod {
  if (to <= from) throw new InputError('to', 'must be after from');
  const count = Math.ceil((to - from) / STAT_BUCKETS[bucket]);
  if (count > MAX_STAT_BUCKETS) {
    throw new InputError('to', `the period must hold at most ${MAX_STAT_BUCKETS} buckets of one ${bucket}`);
  }
  return { from, to, bucket };
}

function tally(rows: readonly StatRow[]): Tally {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.currency, (sums.get(row.currency) ?? 0) + row.payoutCents);
  return {
    count: rows.reduce((total, row) => total + row.count, 0),
    payouts: [...sums.keys()].sort().map((currency) => ({ currency, payoutCents: sums.get(currency) ?? 0 })),
  };
}

/** The rows the store grouped, as a chart reads them: per bucket (all of them), per gym, and in total. */
export function summarise(period: StatPeriod, rows: readonly StatRow[]): ValidationStats {
  const size = STAT_BUCKETS[period.bucket];
  const count = Math.ceil((period.to - period.from) / size);
  const buckets = Array.from({ length: count }, (_, index) => ({
    start: period.from + index * size,
    ...tally(rows.filter((row) => row.bucketIndex === index)),
  }));
  const gymIds = [...new Set(rows.map((row) => row.gymId))].sort((a, b) => a - b);
  const gyms = gymIds.map((gymId) => ({ gymId, ...tally(rows.filter((row) => row.gymId === gymId)) }));
  return { ...period, ...tally(rows), buckets, gyms };
}
