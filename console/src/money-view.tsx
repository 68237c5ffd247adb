import { useState } from 'preact/hooks';
import { call, download, formatMoney, messageOf, query } from './api.js';
import { ErrorNote, ScrollTable, formFields } from './forms.js';
import type { Session } from './session.js';
import { useData } from './use-data.js';

interface Transaction {
  id: number;
  partner_id: number;
  gym_id: number;
  platform_id: string;
  payout_cents: number;
  currency: string;
  validated_at: string;
}
interface Payout {
  partner_id: number;
  gym_id: number;
  currency: string;
  count: number;
  payout_cents: number;
}
interface Filter {
  partner_id?: string;
  gym_id?: string;
  from?: string;
  to?: string;
}

const firstOfMonth = () => new Date().toISOString().slice(0, 8) + '01';
const firstOfNextMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
};

/** The ledger and what it adds up to, for a period, with the CSV files accounting asks for. */
export function MoneyView({ session }: { session: Session }) {
  const [filter, setFilter] = useState<Filter>({ from: firstOfMonth(), to: firstOfNextMonth() });
  const [error, setError] = useState<string>();
  const ledger = useData(
    async () =>
      (
        await call<{ items: Transaction[] }>(
          session,
          'GET',
          `/admin/v1/transactions${query({ ...filter, limit: 200 })}`,
        )
      ).items,
    [session, JSON.stringify(filter)],
  );
  const payouts = useData(
    async () =>
      filter.from && filter.to
        ? (await call<{ items: Payout[] }>(session, 'GET', `/admin/v1/payouts${query({ ...filter })}`)).items
        : [],
    [session, JSON.stringify(filter)],
  );
  const save = (path: string, name: string) =>
    download(session, `${path}${query({ ...filter, format: 'csv' })}`, name).then(
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
          From
          <input name="from" type="date" defaultValue={filter.from} />
        </label>
        <label>
          To (exclusive)
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
      <ErrorNote error={error ?? ledger.error ?? payouts.error} />
      <section aria-labelledby="payouts-title">
        <h2 id="payouts-title">Payouts for the period</h2>
        <button type="button" onClick={() => void save('/admin/v1/payouts', 'payouts.csv')}>
          Download payouts CSV
        </button>
        <ScrollTable label="Payouts table">
          <thead>
            <tr>
              <th scope="col">Partner</th>
              <th scope="col">Gym</th>
              <th scope="col">Visits</th>
              <th scope="col">Payout</th>
            </tr>
          </thead>
          <tbody>
            {payouts.value?.map((line) => (
              <tr key={`${line.gym_id}-${line.currency}`}>
                <td>{line.partner_id}</td>
                <td>{line.gym_id}</td>
                <td>{line.count}</td>
                <td>{formatMoney(line.payout_cents, line.currency)}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </section>
      <section aria-labelledby="ledger-title">
        <h2 id="ledger-title">Ledger</h2>
        <button type="button" onClick={() => void save('/admin/v1/transactions', 'transactions.csv')}>
          Download transactions CSV
        </button>
        <ScrollTable label="Ledger table">
          <thead>
            <tr>
              <th scope="col">Validated</th>
              <th scope="col">Gym</th>
              <th scope="col">Member</th>
              <th scope="col">Payout</th>
            </tr>
          </thead>
          <tbody>
            {ledger.value?.map((row) => (
              <tr key={row.id}>
                <td>{row.validated_at}</td>
                <td>{row.gym_id}</td>
                <td>{row.platform_id}</td>
                <td>{formatMoney(row.payout_cents, row.currency)}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </section>
    </div>
  );
}
