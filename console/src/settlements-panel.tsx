import { useState } from 'preact/hooks';
import { call, download, messageOf, query } from './api.js';
import { formatCount, formatMoney } from './format.js';
import { formatDay, instantOf, shownZone } from './clock.js';
import { ActionForm, ErrorNote, ScrollTable } from './forms.js';
import { may, type Session } from './session.js';
import { PageButtons, useNewestFirst } from './paging.js';
import { TotalExplained, type RulePricing } from './pricing.js';
import type { Settlement } from './wire.js';
import { t } from './strings/index.js';

/** A settlement's entries per pricing rule, over all its gyms' lines. */
function byRule(settlement: Settlement): RulePricing[] {
  const rules = new Map<RulePricing['rule'], RulePricing>();
  for (const part of settlement.lines.flatMap((line) => line.pricing)) {
    const sum = rules.get(part.rule) ?? { rule: part.rule, count: 0, list_cents: 0, paid_cents: 0 };
    rules.set(part.rule, {
      rule: part.rule,
      count: sum.count + part.count,
      list_cents: sum.list_cents + part.list_cents,
      paid_cents: sum.paid_cents + part.paid_cents,
    });
  }
  return [...rules.values()];
}

/** Settlements a page shows, newest first. */
const PAGE = 50;

/** A datetime-local value (the browser's time zone) as the instant the API reads. */

/** Settlements: close a period (one per partner·currency), mark one paid with its reference, export its entries. */
export function SettlementsPanel({ session }: { session: Session }) {
  const settlements = useNewestFirst<Settlement>(
    session,
    (cursor) => `/admin/v1/settlements${query({ order: 'desc', limit: PAGE, cursor })}`,
  );
  const [paying, setPaying] = useState<Settlement>();
  const [error, setError] = useState<string>();
  const mayAct = may(session, 'money');
  const save = (settlement: Settlement) =>
    download(
      session,
      `/admin/v1/settlements/${settlement.id}/entries?format=csv`,
      `settlement-${settlement.id}.csv`,
    ).then(
      () => setError(undefined),
      (caught: unknown) => setError(messageOf(caught)),
    );
  return (
    <section aria-labelledby="settlements-title">
      <h2 id="settlements-title">{t.settlements.title}</h2>
      <ErrorNote error={settlements.error ?? error} />
      {mayAct && (
        <ActionForm
          title={t.settlements.close}
          submitLabel={t.settlements.closeButton}
          action={async ({ start, end, partner }) => {
            await call(session, 'POST', '/admin/v1/settlements', {
              period_start: instantOf(start ?? ''),
              period_end: instantOf(end ?? ''),
              ...(partner ? { partner_id: Number(partner) } : {}),
            });
            // The new settlements are the newest: back to the first page, read again.
            settlements.newest();
            settlements.reload();
          }}
        >
          <label>
            {t.settlements.start(shownZone())}
            <input name="start" type="datetime-local" step={1} required />
          </label>
          <label>
            {t.settlements.end(shownZone())}
            <input name="end" type="datetime-local" step={1} required />
          </label>
          <label>
            {t.settlements.onlyPartner}
            <input name="partner" inputMode="numeric" pattern="[1-9][0-9]*" />
          </label>
        </ActionForm>
      )}
      {paying !== undefined && (
        <ActionForm
          title={t.settlements.markPaidTitle(paying.id)}
          submitLabel={t.settlements.markPaid}
          action={async ({ reference }) => {
            await call(session, 'POST', `/admin/v1/settlements/${paying.id}/paid`, { reference });
            setPaying(undefined);
            settlements.reload();
          }}
        >
          <label>
            {t.settlements.reference}
            <input name="reference" required maxLength={200} />
          </label>
        </ActionForm>
      )}
      <ScrollTable label={t.settlements.table}>
        <thead>
          <tr>
            <th scope="col">{t.settlements.settlement}</th>
            <th scope="col">{t.settlements.partner}</th>
            <th scope="col">{t.settlements.period}</th>
            <th scope="col">{t.settlements.entries}</th>
            <th scope="col">{t.settlements.total}</th>
            <th scope="col">{t.settlements.status}</th>
            <th scope="col">
              <span class="visually-hidden">{t.common.actions}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {settlements.items?.map((settlement) => (
            <tr key={settlement.id}>
              <td>{settlement.id}</td>
              <td>{settlement.partner_id}</td>
              <td>
                {formatDay(settlement.period_start)} – {formatDay(settlement.period_end)}
              </td>
              <td>{formatCount(settlement.count)}</td>
              <td>
                {formatMoney(settlement.total_cents, settlement.currency)}
                <TotalExplained pricing={byRule(settlement)} currency={settlement.currency} />
              </td>
              <td>
                {settlement.status === 'paid'
                  ? t.settlements.paid(settlement.reference ?? '')
                  : t.settlements.closed}
              </td>
              <td class="actions">
                <button
                  type="button"
                  aria-label={t.settlements.download(settlement.id)}
                  onClick={() => void save(settlement)}
                >
                  {t.settlements.downloadButton}
                </button>
                {mayAct && settlement.status === 'closed' && (
                  <button
                    type="button"
                    aria-label={t.settlements.markPaidOf(settlement.id)}
                    onClick={() => setPaying(settlement)}
                  >
                    {t.settlements.markPaid}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      <PageButtons list={settlements} holds="settlements" />
    </section>
  );
}
