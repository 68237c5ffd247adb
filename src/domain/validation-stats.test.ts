import { describe, expect, test } from 'vitest';
import { InputError } from './errors.js';
import { statPeriod, summarise } from './validation-stats.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 2, 12);

describe('validation figures', () => {
  test('when a period is not a whole number of buckets, then the last bucket is partial and still counted', () => {
    const period = statPeriod(T0, T0 + 2 * HOUR + 1, 'hour');

    const figures = summarise(period, [
      { bucketIndex: 2, gymId: 7, currency: 'BRL', count: 1, payoutCents: 100 },
    ]);

    expect(figures.buckets.map((bucket) => [bucket.start - T0, bucket.count])).toEqual([
      [0, 0],
      [HOUR, 0],
      [2 * HOUR, 1],
    ]);
  });

  test('when rows of several gyms and currencies are summed, then each bucket, gym and the total add up per currency', () => {
    const period = statPeriod(T0, T0 + HOUR, 'hour');

    const figures = summarise(period, [
      { bucketIndex: 0, gymId: 9, currency: 'USD', count: 2, payoutCents: 300 },
      { bucketIndex: 0, gymId: 7, currency: 'BRL', count: 1, payoutCents: 100 },
      { bucketIndex: 0, gymId: 7, currency: 'USD', count: 1, payoutCents: 150 },
    ]);

    const brlAndUsd = [
      { currency: 'BRL', payoutCents: 100 },
      { currency: 'USD', payoutCents: 450 },
    ];
    expect(figures).toEqual({
      from: T0,
      to: T0 + HOUR,
      bucket: 'hour',
      count: 4,
      payouts: brlAndUsd,
      buckets: [{ start: T0, count: 4, payouts: brlAndUsd }],
      gyms: [
        {
          gymId: 7,
          count: 2,
          payouts: [
            { currency: 'BRL', payoutCents: 100 },
            { currency: 'USD', payoutCents: 150 },
          ],
        },
        { gymId: 9, count: 2, payouts: [{ currency: 'USD', payoutCents: 300 }] },
      ],
    });
  });

  test('when a period ends before it starts or holds more than 1000 buckets, then it is refused on `to`', () => {
    expect(() => statPeriod(T0, T0, 'day')).toThrow(new InputError('to', 'must be after from'));
    expect(() => statPeriod(T0, T0 + 1000 * HOUR, 'hour')).not.toThrow();
    expect(() => statPeriod(T0, T0 + 1000 * HOUR + 1, 'hour')).toThrow(
      new InputError('to', 'the period must hold at most 1000 buckets of one hour'),
    );
  });
});
