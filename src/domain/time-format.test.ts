import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatInstant, formatValidatedAt } from './time-format.js';

describe('formatInstant and formatValidatedAt', () => {
  test('when given any instant, then exactly what Date#toISOString writes (and its first 19 characters + Z)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 0, max: 253_402_300_799_999 }),
          fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
          fc.integer({ min: -62_000_000_000_000, max: -1 }),
        ),
        (ms) => {
          const iso = new Date(ms).toISOString();
          expect(formatInstant(ms)).toBe(iso);
          expect(formatValidatedAt(ms)).toBe(`${iso.slice(0, 19)}Z`);
        },
      ),
      { numRuns: 5000 },
    );
  });

  test('when given the edges of a day and of the four-digit years, then the same as toISOString', () => {
    for (const ms of [
      0, 999, 1000, 86_399_999, 86_400_000, 951_782_400_000, 253_402_300_799_999, 253_402_300_800_000,
    ]) {
      expect(formatInstant(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
