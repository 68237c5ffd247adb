import { call } from './api.js';
import { ActionForm } from './forms.js';
import { RowList, rowsOf } from './row-list.js';
import type { Session } from './session.js';
import type { PayoutRules } from './wire.js';
import { t } from './strings/index.js';

export type { PayoutRules } from './wire.js';

/** Empty is no cap; anything but a number goes as typed, for the API to refuse (never as a silent null). */
const capOf = (typed: string) => (typed === '' ? null : /^[0-9]+$/.test(typed) ? Number(typed) : typed);

/**
 * A new version of an owner's payout rules, from now on, starting from the version in force (`now`); folded away
 * under a summary where it would crowd a gym's card.
 */
export function PayoutRulesForm({
  session,
  path,
  whose,
  now,
  folded,
  onSet,
}: {
  session: Session;
  path: string;
  whose: string;
  now: PayoutRules | undefined;
  folded: boolean;
  onSet: () => void;
}) {
  const form = (
    <ActionForm
      title={t.payoutRules.newRules(whose)}
      submitLabel={t.payoutRules.set}
      action={async (fields) => {
        await call(session, 'PUT', path, {
          monthly_paid_visits_per_member: capOf(fields.cap ?? ''),
          tiers: rowsOf(fields, ['after', 'rate'] as const).map((tier) => ({
            after_cents: Math.round(Number(tier.after) * 100),
            rate_pct: Number(tier.rate),
          })),
        });
        onSet();
      }}
    >
      <p class="note">{t.payoutRules.fromNow}</p>
      <label>
        {t.payoutRules.capField}
        <input
          name="cap"
          inputMode="numeric"
          defaultValue={String(now?.monthly_paid_visits_per_member ?? '')}
        />
      </label>
      <RowList
        words={t.rows.tier}
        initial={now?.tiers.length ?? 0}
        min={0}
        row={(index) => (
          <>
            <label>
              {t.payoutRules.above(index + 1)}
              <input
                name={`after-${index}`}
                inputMode="decimal"
                required
                defaultValue={
                  now?.tiers[index] === undefined ? '' : String(now.tiers[index].after_cents / 100)
                }
              />
            </label>
            <label>
              {t.payoutRules.rate(index + 1)}
              <input
                name={`rate-${index}`}
                inputMode="decimal"
                required
                defaultValue={now?.tiers[index] === undefined ? '' : String(now.tiers[index].rate_pct)}
              />
            </label>
          </>
        )}
      />
    </ActionForm>
  );
  return folded ? (
    <details>
      <summary>{t.payoutRules.setWhose(whose)}</summary>
      {form}
    </details>
  ) : (
    form
  );
}
