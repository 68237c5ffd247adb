import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AWKWARD_TIME_ZONES } from '../../../test/fixtures/domain.js';
import { periodBounds, PERIODS } from './windows.js';

const ZONES = [...AWKWARD_TIME_ZONES, 'Pacific/Apia'];

/** The local date and weekday of an instant as Intl writes them: the oracle. */
function local(instant: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    weekday: 'short',
  }).formatToParts(instant);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    weekday: get('weekday'),
  };
}

describe('periodBounds', () => {
  test('when asked for any instant, period and zone, then the instant lies in [start, end), start is local midnight of a Monday (week) or a 1st (month), and end is the next period’s start', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 946_684_800_000, max: 2_209_000_000_000 }),
        fc.constantFrom(...PERIODS),
        fc.constantFrom(...ZONES),
        (instant, per, zone) => {
          const { start, end } = periodBounds(per, instant, zone);
          expect(start).toBeLessThanOrEqual(instant);
          expect(end).toBeGreaterThan(instant);
          // start is the first instant of its local day, and so is end.
          for (const edge of [start, end]) {
            expect(local(edge - 1, zone).day).not.toBe(local(edge, zone).day);
          }
          const first = local(start, zone);
          if (per === 'week') expect(first.weekday).toBe('Mon');
          if (per === 'month') expect(first.day).toBe(1);
          // The period holds every local day up to its end and no more: the next one starts at end.
          expect(periodBounds(per, end, zone).start).toBe(end);
          expect(periodBounds(per, start, zone)).toEqual({ start, end });
        },
      ),
      { numRuns: 300 },
    );
  });

  test('when the instant is 23:30 on 30 November in São Paulo (02:30 UTC on 1 December), then its day, week and month are São Paulo’s', () => {
    const instant = Date.parse('2026-12-01T02:30:00Z');

    expect(periodBounds('day', instant, 'America/Sao_Paulo')).toEqual({
      start: Date.parse('2026-11-30T03:00:00Z'),
      end: Date.parse('2026-12-01T03:00:00Z'),
    });
    expect(periodBounds('week', instant, 'America/Sao_Paulo')).toEqual({
      start: Date.parse('2026-11-30T03:00:00Z'),
      end: Date.parse('2026-12-07T03:00:00Z'),
    });
    expect(periodBounds('month', instant, 'America/Sao_Paulo')).toEqual({
      start: Date.parse('2026-11-01T03:00:00Z'),
      end: Date.parse('2026-12-01T03:00:00Z'),
    });
  });
});
