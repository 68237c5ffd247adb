import { describe, expect, test } from 'vitest';
import { isLate, sweepStart } from './settlement.js';

const march = { start: Date.parse('2026-03-01T00:00:00Z'), end: Date.parse('2026-04-01T00:00:00Z') };
const january = Date.parse('2026-01-01T00:00:00Z');

describe('where a close starts taking entries', () => {
  test('when the partner has no closed period yet, then at its own start', () => {
    expect(sweepStart(march, undefined)).toBe(march.start);
  });
  test('when an earlier period was closed, then at the start of the first one', () => {
    expect(sweepStart(march, january)).toBe(january);
  });
  test('when the period closed is earlier than every closed one, then at its own start', () => {
    expect(sweepStart(march, Date.parse('2026-05-01T00:00:00Z'))).toBe(march.start);
  });
});

describe('a late entry', () => {
  test('when an entry is effective before the period, then it is late; in the period, it is not', () => {
    expect(isLate({ effectiveAt: march.start - 1 }, march)).toBe(true);
    expect(isLate({ effectiveAt: march.start }, march)).toBe(false);
    expect(isLate({ effectiveAt: march.end - 1 }, march)).toBe(false);
  });
});
