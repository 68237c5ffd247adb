import { useState } from 'preact/hooks';
import { call, download, messageOf, query } from './api.js';
import { formatCount, formatMoney } from './format.js';
import { formatStamp, startOfDay, thisMonth } from './clock.js';
import { ActionForm, ErrorNote, ScrollTable, formFields } from './forms.js';
import { may, networkZone, type Session } from './session.js';
import { SettlementsPanel } from './settlements-panel.js';
import { PageButtons, useNewestFirst } from './paging.js';
import { useData } from './use-data.js';
import { PricedAmount, ReversedMark } from './pricing.js';
import type { LedgerEntry as Transaction, Payout } from './wire.js';
import { t } from './strings/index.js';

interface Filter {
  partner_id?: string;
  gym_id?: string;
  from?: string;
  to?: string;
}

/** A filter as the API reads it: its days as the instants they start in the network's zone. */
/** Ledger entries a page shows, newest first. */
const PAGE = 100;

const inZone = (filter: Filter, timeZone: string): Filter => ({
  ...filter,
  ...(filter.from ? { from: startOfDay(filter.from, timeZone) } : {}),
  ...(filter.to ? { to: startOfDay(filter.to, timeZone) } : {}),
});

/** A visit reversed, wholly or in part, with the reason the audit keeps. */
function ReverseForm({
  session,
  visit,
  onDone,
}: {
  session: Session;
  visit: Transaction;
  onDone: () => void;
}) {
  return (
    <ActionForm
      title={t.money.reverseVisit(visit.id)}
      submitLabel={t.money.reverse}
      action={async ({ reason, amount }) => {
        await call(session, 'POST', `/admin/v1/transactions/${visit.id}/reversals`, {
          reason,
          ...(amount ? { amount_cents: Math.round(Number(amount) * 100) } : {}),
        });
        onDone();
      }}
    >
      <p>{t.money.visitOf(visit.id, visit.platform_id, formatMoney(visit.payout_cents, visit.currency))}</p>
      <label>
        {t.money.reason}
        <input name="reason" required maxLength={500} />
      </label>
      <label>
        {t.money.amount}
        <input name="amount" inputMode="decimal" pattern="[0-9]+([.][0-9]{1,2})?" />
      </label>
    </ActionForm>
  );
}

/**
 * The ledger (visits and the reversals that correct them) and what it adds up to, for a period, with the CSV
 * files accounting asks for, and the settlements that close periods.
 */
export function MoneyView({ session }: { session: Session }) {
  const timezone = networkZone(session);
  const [filter, setFilter] = useState<Filter>(() => thisMonth(timezone));
  const [error, setError] = useState<string>();
  const [reversing, setReversing] = useState<Transaction>();
  // Sandbox partners' visits are never money owed: shown only when asked, instead of the live ones, labelled so.
  const [sandbox, setSandbox] = useState(false);
  const asked = { ...inZone(filter, timezone), ...(sandbox ? { sandbox: 'true' } : {}) };
  const ledger = useNewestFirst<Transaction>(
    session,
    (cursor) => `/admin/v1/transactions${query({ ...asked, order: 'desc', limit: PAGE, cursor })}`,
  );
  const payouts = useData(
    async () =>
      filter.from && filter.to
        ? (await call<{ items: Payout[] }>(session, 'GET', `/admin/v1/payouts${query(asked)}`)).items
        : [],
    [session, JSON.stringify(filter), sandbox],
  );
  const save = (path: string, name: string) =>
    download(
      session,
      `${path}${query({ ...asked, format: 'csv' })}`,
      sandbox ? `sandbox-${name}` : name,
    ).then(
      () => setError(undefined),
      (caught: unknown) => setError(messageOf(caught)),
    );
  return (
    <div class="money">
      <h1>{t.money.title}</h1>
      <form
        class="filters"
        aria-label={t.money.filters}
        onSubmit={(event) => {
          event.preventDefault();
          setFilter(formFields(event.currentTarget));
        }}
      >
        <label>
          {t.money.from(timezone)}
          <input name="from" type="date" defaultValue={filter.from} />
        </label>
        <label>
          {t.money.to(timezone)}
          <input name="to" type="date" defaultValue={filter.to} />
        </label>
        <label>
          {t.money.partnerId}
          <input name="partner_id" inputMode="numeric" pattern="[1-9][0-9]*" />
        </label>
        <label>
          {t.money.gymId}
          <input name="gym_id" inputMode="numeric" pattern="[1-9][0-9]*" />
        </label>
        <button type="submit">{t.common.show}</button>
      </form>
      <label class="inline">
        <input
          type="checkbox"
          checked={sandbox}
          onChange={(event) => setSandbox(event.currentTarget.checked)}
        />
        {t.money.sandboxToggle}
      </label>
      {sandbox && (
        <p class="sandbox-note" role="note">
          {t.money.sandboxNote}
        </p>
      )}
      <ErrorNote error={error ?? ledger.error ?? payouts.error} />
      <section aria-labelledby="payouts-title">
        <h2 id="payouts-title">{sandbox ? t.money.sandboxPayouts : t.money.payouts}</h2>
        <button type="button" onClick={() => void save('/admin/v1/payouts', 'payouts.csv')}>
          {t.money.downloadPayouts}
        </button>
        <ScrollTable label={t.money.payoutsTable}>
          <thead>
            <tr>
              <th scope="col">{t.money.partner}</th>
              <th scope="col">{t.money.gym}</th>
              <th scope="col">{t.money.visits}</th>
              <th scope="col">{t.money.reversals}</th>
              <th scope="col">{t.money.payout}</th>
            </tr>
          </thead>
          <tbody>
            {payouts.value?.map((line) => (
              <tr key={`${line.gym_id}-${line.currency}`}>
                <td>
                  {line.partner_id}
                  {line.sandbox === true && <span class="muted">{t.money.sandboxMark}</span>}
                </td>
                <td>{line.gym_id}</td>
                <td>{formatCount(line.count)}</td>
                <td>{formatCount(line.reversals)}</td>
                <td>{formatMoney(line.payout_cents, line.currency)}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </section>
      <section aria-labelledby="ledger-title">
        <h2 id="ledger-title">{sandbox ? t.money.sandboxLedger : t.money.ledger}</h2>
        <button type="button" onClick={() => void save('/admin/v1/transactions', 'transactions.csv')}>
          {t.money.downloadTransactions}
        </button>
        {reversing !== undefined && (
          <ReverseForm
            session={session}
            visit={reversing}
            onDone={() => {
              setReversing(undefined);
              ledger.reload();
              payouts.reload();
            }}
          />
        )}
        <ScrollTable label={t.money.ledgerTable}>
          <thead>
            <tr>
              <th scope="col">{t.money.effective}</th>
              <th scope="col">{t.money.entry}</th>
              <th scope="col">{t.money.gym}</th>
              <th scope="col">{t.money.member}</th>
              <th scope="col">{t.money.payout}</th>
              <th scope="col">
                <span class="visually-hidden">{t.common.action}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {ledger.items?.map((row) => (
              <tr key={`${row.kind}-${row.id}`}>
                <td>{formatStamp(row.effective_at)}</td>
                <td>
                  {row.sandbox === true && t.money.sandboxEntry}
                  {row.kind === 'visit'
                    ? t.money.visit(row.id)
                    : t.money.reversalOf(String(row.reverses ?? ''), row.reason ?? '')}
                  <ReversedMark visit={row} />
                </td>
                <td>{row.gym_id}</td>
                <td>{row.platform_id}</td>
                <td>
                  <PricedAmount pricing={row.pricing} currency={row.currency} />
                </td>
                <td>
                  {row.kind === 'visit' && may(session, 'money') && (
                    <button
                      type="button"
                      aria-label={t.money.reverseVisit(row.id)}
                      onClick={() => setReversing(row)}
                    >
                      {t.money.reverse}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
        <PageButtons list={ledger} holds="entries" />
      </section>
      <SettlementsPanel session={session} />
    </div>
  );
}
