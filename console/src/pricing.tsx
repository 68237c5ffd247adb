import { formatMoney } from './format.js';
import type { Pricing, RulePricing } from './wire.js';
import { t } from './strings/index.js';
export type { Pricing, RulePricing } from './wire.js';

/**
 * What an entry pays, and when a payout rule made it differ from the list price, why: "R$0.00" over "list R$15.00,
 * past the member's paid visits this month (rules v2)".
 */
export function PricedAmount({ pricing, currency }: { pricing: Pricing; currency: string }) {
  const paid = formatMoney(pricing.paid_cents, currency);
  if (pricing.rule === 'list') return <>{paid}</>;
  const version = pricing.version === null ? '' : t.pricing.version(pricing.version);
  return (
    <>
      {paid}
      <br />
      <small class="pricing">
        {t.pricing.list(formatMoney(pricing.list_cents, currency))}
        {t.pricing.rules[pricing.rule]}
        {version}
      </small>
    </>
  );
}

/** A settlement line's total explained: each rule's entries, what they list at and what they pay. */
export function TotalExplained({ pricing, currency }: { pricing: readonly RulePricing[]; currency: string }) {
  if (pricing.every((part) => part.rule === 'list')) return null;
  return (
    <>
      <br />
      <small class="pricing">
        {pricing
          .map((part) =>
            t.pricing.part(
              part.count,
              t.pricing.rules[part.rule],
              formatMoney(part.paid_cents, currency),
              formatMoney(part.list_cents, currency),
            ),
          )
          .join('; ')}
      </small>
    </>
  );
}

/**
 * A visit's reversals, beside it in the ledger: "reversed" when they took back all it paid, "partly reversed" with
 * how much otherwise. Nothing for a visit never reversed, or for a reversal itself.
 */
export function ReversedMark({
  visit,
}: {
  visit: { payout_cents: number; currency: string; reversed_cents?: number };
}) {
  const reversed = visit.reversed_cents;
  if (reversed === undefined || reversed <= 0) return null;
  return (
    <>
      {' '}
      <span class="reversed-mark">
        {reversed >= visit.payout_cents
          ? t.pricing.reversed
          : t.pricing.partly(
              formatMoney(reversed, visit.currency),
              formatMoney(visit.payout_cents, visit.currency),
            )}
      </span>
    </>
  );
}
