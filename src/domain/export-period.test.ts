import { describe, expect, test } from 'vitest';
import { exportPeriod } from './export-period.js';

const at = (iso: string) => Date.parse(iso);
const NOW = at('2026-03-02T12:00:00Z');

describe('the period a ledger export covers', () => {
  test.each([
    ['nothing given: today in the zone', {}, 'UTC', ['2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z']],
    [
      'nothing given, São Paulo: its today',
      {},
      'America/Sao_Paulo',
      ['2026-03-02T03:00:00Z', '2026-03-03T03:00:00Z'],
    ],
    [
      'only from: up to the end of today',
      { from: at('2026-02-20T00:00:00Z') },
      'UTC',
      ['2026-02-20T00:00:00Z', '2026-03-03T00:00:00Z'],
    ],
    [
      'only to: the day that ends there',
      { to: at('2026-02-21T00:00:00Z') },
      'UTC',
      ['2026-02-20T00:00:00Z', '2026-02-21T00:00:00Z'],
    ],
    [
      'both: as given',
      { from: at('2026-01-01T00:00:00Z'), to: at('2026-02-01T00:00:00Z') },
      'UTC',
      ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'],
    ],
  ])('when %s', (_name, given, timezone, [from = '', to = '']) => {
    expect(exportPeriod(given, NOW, timezone)).toEqual({ from: at(from), to: at(to) });
  });
});
