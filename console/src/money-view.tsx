import { useState } from 'preact/hooks';
import { call, download, formatMoney, messageOf, query } from './api.js';
import { formatStamp, startOfDay, thisMonth } from './clock.js';
import { ActionForm, ErrorNote, ScrollTable, formFields } from './forms.js';
import { may, networkZone, type Session } from './session.js';
import { SettlementsPanel } from './settlements-panel.js';
import { PageButtons, useNewestFirst } from './paging.js';
import { useData } from './use-data.js';
import { PricedAmount, ReversedMark } from './pricing.js';
import type { LedgerEntry as Transaction, Payout } from './wire.js';

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
      title={`Reverse visit ${visit.id}`}
      submitLabel="Reverse"
      action={async ({ reason, amount }) => {
        await call(session, 'POST', `/admin/v1/transactions/${visit.id}/reversals`, {
          reason,
          ...(amount ? { amount_cents: Math.round(Number(amount) * 100) } : {}),
        });
        onDone();
      }}
    >
      <p>
        Visit {visit.id} of member {visit.platform_id}, {formatMoney(visit.payout_cents, visit.currency)}
      </p>
      <label>
        Reason
        <input name="reason" required maxLength={500} />
      </label>
      <label>
        Amount to reverse (optional; all that is left by default)
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
      <h1>Money</h1>
      <form
        class="filters"
        aria-label="Period and filters"
        onSubmit={(event) => {
          event.preventDefault();
          setFilter(formFields(event.currentTarget));
        }}
      >
        <label>
          From ({timezone})
          <input name="from" type="date" defaultValue={filter.from} />
        </label>
        <label>
          To, exclusive ({timezone})
          <input name="to" type="date" defaultValue={filter.to} />
        </label>
        <label>
          Partner id
          <input name="partner_id" inputMode="numeric" pattern="[1-9][0-9]*" />
        </label>
        <label>
          Gym id
          <input name="gym_id" inputMode="numeric" pattern="[1-9][0-9]*" />
        </label>
        <button type="submit">Show</button>
      </form>
      <label class="inline">
        <input
          type="checkbox"
          checked={sandbox}
          onChange={(event) => setSandbox(event.currentTarget.checked)}
        />
        Sandbox: show sandbox partners' test visits instead of the live ones
      </label>
      {sandbox && (
        <p class="sandbox-note" role="note">
          Sandbox: test visits of sandbox partners. They are never money owed, never in settlements.
        </p>
      )}
      <ErrorNote error={error ?? ledger.error ?? payouts.error} />
      <section aria-labelledby="payouts-title">
        <h2 id="payouts-title">
          {sandbox ? 'Sandbox: what test visits would come to (never owed)' : 'Payouts for the period'}
        </h2>
        <button type="button" onClick={() => void save('/admin/v1/payouts', 'payouts.csv')}>
          Download payouts CSV
        </button>
        <ScrollTable label="Payouts table">
          <thead>
            <tr>
              <th scope="col">Partner</th>
              <th scope="col">Gym</th>
              <th scope="col">Visits</th>
              <th scope="col">Reversals</th>
              <th scope="col">Payout</th>
            </tr>
          </thead>
          <tbody>
            {payouts.value?.map((line) => (
              <tr key={`${line.gym_id}-${line.currency}`}>
                <td>
                  {line.partner_id}
                  {line.sandbox === true && <span class="muted"> (sandbox)</span>}
                </td>
                <td>{line.gym_id}</td>
                <td>{line.count}</td>
                <td>{line.reversals}</td>
                <td>{formatMoney(line.payout_cents, line.currency)}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </section>
      <section aria-labelledby="ledger-title">
        <h2 id="ledger-title">{sandbox ? 'Sandbox ledger (never owed)' : 'Ledger'}</h2>
        <button type="button" onClick={() => void save('/admin/v1/transactions', 'transactions.csv')}>
          Download transactions CSV
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
        <ScrollTable label="Ledger table">
          <thead>
            <tr>
              <th scope="col">Effective</th>
              <th scope="col">Entry</th>
              <th scope="col">Gym</th>
              <th scope="col">Member</th>
              <th scope="col">Payout</th>
              <th scope="col">
                <span class="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {ledger.items?.map((row) => (
              <tr key={`${row.kind}-${row.id}`}>
                <td>{formatStamp(row.effective_at)}</td>
                <td>
                  {row.sandbox === true && 'sandbox '}
                  {row.kind === 'visit'
                    ? `visit ${row.id}`
                    : `reversal of visit ${row.reverses ?? ''}: ${row.reason ?? ''}`}
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
                      aria-label={`Reverse visit ${row.id}`}
                      onClick={() => setReversing(row)}
                    >
                      Reverse
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
        <PageButtons list={ledger} noun="entries" />
      </section>
      <SettlementsPanel session={session} />
    </div>
  );
}
