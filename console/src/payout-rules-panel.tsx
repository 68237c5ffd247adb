import { call } from './api.js';
import { formatDateTime } from './clock.js';
import { ErrorNote } from './forms.js';
import { PayoutRulesForm, type PayoutRules } from './payout-rules-form.js';
import { may, networkZone, type Session } from './session.js';
import { useData } from './use-data.js';
import { formatAmount, formatPercent } from './format.js';
import { t } from './strings/index.js';

/** A version in words: "1 paid visit per member a month; 90% of the price once the month's paid total is above 10,000.00". */
function rulesWords(rules: PayoutRules): string {
  const cap = rules.monthly_paid_visits_per_member;
  const parts = [
    cap === null ? t.payoutRules.noCap : t.payoutRules.cap(cap),
    ...rules.tiers.map((tier) =>
      t.payoutRules.tier(formatPercent(tier.rate_pct), formatAmount(tier.after_cents)),
    ),
  ];
  return parts.join('; ');
}

/** The version in force now: the latest that has taken effect (a later one may be waiting for its instant). */
const current = (versions: readonly PayoutRules[]) =>
  versions.filter((rules) => Date.parse(rules.effective_from) <= Date.now()).at(-1);

/**
 * What a partner's gyms (or one gym, overriding its partner's) are paid per visit: the rules in force, and for the
 * roles that act on money, a new version from now on.
 */
export function PayoutRulesPanel({
  session,
  owner,
}: {
  session: Session;
  /** Whose rules; a gym's own zone, where it has one, dates them (its months count in it). */
  owner: { kind: 'partners' | 'gyms'; id: number; name: string; timeZone?: string | undefined };
}) {
  const path = `/admin/v1/${owner.kind}/${owner.id}/payout-rules`;
  const rules = useData(
    async () => (await call<{ versions: PayoutRules[] }>(session, 'GET', path)).versions,
    [session, path],
  );
  const now = rules.value === undefined ? undefined : current(rules.value);
  const titleId = `payout-${owner.kind}-${owner.id}`;
  // A partner's rules are a panel of the partner; a gym's sit in the gym's card, under its name.
  const Heading = owner.kind === 'partners' ? 'h2' : 'h4';
  // Under the gym's own heading, its name would say it twice: its id tells the gyms apart.
  const whose =
    owner.kind === 'partners' ? t.payoutRules.ofPartner(owner.name) : t.payoutRules.atGym(owner.id);
  return (
    <section aria-labelledby={titleId} class="payout-rules">
      <Heading id={titleId}>{t.payoutRules.title(whose)}</Heading>
      <ErrorNote error={rules.error} />
      {rules.value !== undefined && (
        <p data-testid={titleId}>
          {now === undefined
            ? owner.kind === 'gyms'
              ? t.payoutRules.noneOfGym
              : t.payoutRules.noneOfPartner
            : t.payoutRules.version(
                now.version,
                formatDateTime(now.effective_from, owner.timeZone ?? networkZone(session)),
                rulesWords(now),
              )}
        </p>
      )}
      {may(session, 'money') && rules.value !== undefined && (
        <PayoutRulesForm
          key={now?.version ?? 0}
          session={session}
          path={path}
          whose={whose}
          now={now}
          folded={owner.kind === 'gyms'}
          onSet={rules.reload}
        />
      )}
    </section>
  );
}
