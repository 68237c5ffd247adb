import { localDayBounds } from './local-day.js';

export interface ExportPeriod {
  readonly from: number;
  readonly to: number;
}

/**
 * The period a ledger export covers (the CLI's `payouts` and `transactions`, `GET /admin/v1/payouts`): what the
 * operator gave, and otherwise today in GATEHOUSE_TIMEZONE (the day the visit limit counts in). Only `from`: up to
 * the end of today. Only `to`: the day that ends there.
 */
export function exportPeriod(
  given: { readonly from?: number | undefined; readonly to?: number | undefined },
  now: number,
  timezone: string,
): ExportPeriod {
  if (given.from !== undefined && given.to !== undefined) return { from: given.from, to: given.to };
  if (given.to !== undefined) return { from: localDayBounds(given.to - 1, timezone).start, to: given.to };
  const today = localDayBounds(now, timezone);
  return { from: given.from ?? today.start, to: today.end };
}
