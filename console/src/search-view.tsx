import type { ComponentChildren } from 'preact';
import { formatMoney } from './api.js';
import { formatStamp } from './clock.js';
import { AuditTable } from './audit-view.js';
import { ScrollTable, ErrorNote, formFields } from './forms.js';
import { PageButtons, operatorPage, useNewestFirst } from './paging.js';
import type { Session } from './session.js';
import type { AuditEntry, LedgerEntry, ListedCheckin } from './wire.js';

const MEMBER_ID = /^[0-9]{13}$/;

/** One member's list newest first, or nothing until a member id is asked for. */
function useMemberList<T>(session: Session, member: string | undefined, path: string) {
  const url = (cursor: string | undefined) =>
    `${path}?${new URLSearchParams({ platform_id: member ?? '', order: 'desc', ...(cursor ? { cursor } : {}) })}`;
  return useNewestFirst<T>(session, url, async (s, at) =>
    member === undefined ? { items: [], next_cursor: null } : operatorPage<T>(s, at),
  );
}

function Found({ title, id, children }: { title: string; id: string; children: ComponentChildren }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * A member's history, by its id: its check-ins, its visits (and their reversals) and the audit entries about it,
 * each newest first, a page at a time. The member id is in the URL (`#/search?member=…`): a link one can share.
 */
export function SearchView({
  session,
  member,
  onSearch,
}: {
  session: Session;
  /** The member searched for (from the URL), when it is a member id. */
  member: string | undefined;
  onSearch: (member: string) => void;
}) {
  const asked = member !== undefined && MEMBER_ID.test(member) ? member : undefined;
  const checkins = useMemberList<ListedCheckin>(session, asked, '/admin/v1/checkins');
  const visits = useMemberList<LedgerEntry>(session, asked, '/admin/v1/transactions');
  const audit = useMemberList<AuditEntry>(session, asked, '/admin/v1/audit');
  return (
    <div class="search">
      <h1>Search</h1>
      <form
        class="filters"
        role="search"
        aria-label="Search a member"
        onSubmit={(event) => {
          event.preventDefault();
          onSearch(formFields(event.currentTarget).member ?? '');
        }}
      >
        <label>
          Member id
          <input
            name="member"
            inputMode="numeric"
            autoComplete="off"
            pattern="[0-9]{13}"
            title="13 digits"
            required
            defaultValue={member ?? ''}
            key={member}
          />
        </label>
        <button type="submit">Search</button>
      </form>
      {asked !== undefined && (
        <>
          <Found title={`Check-ins of ${asked}`} id="found-checkins">
            <ErrorNote error={checkins.error} />
            {checkins.items?.length === 0 && <p>No check-ins.</p>}
            <ScrollTable label="Member check-ins table">
              <thead>
                <tr>
                  <th scope="col">Check-in</th>
                  <th scope="col">Gym</th>
                  <th scope="col">Status</th>
                  <th scope="col">Checked in</th>
                </tr>
              </thead>
              <tbody>
                {checkins.items?.map((checkin) => (
                  <tr key={checkin.id}>
                    <td>{checkin.id}</td>
                    <td>{checkin.gym_id}</td>
                    <td>{checkin.status}</td>
                    <td>{formatStamp(checkin.checked_in_at)}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
            <PageButtons list={checkins} noun="check-ins" />
          </Found>
          <Found title={`Visits of ${asked}`} id="found-visits">
            <ErrorNote error={visits.error} />
            {visits.items?.length === 0 && <p>No visits.</p>}
            <ScrollTable label="Member visits table">
              <thead>
                <tr>
                  <th scope="col">Entry</th>
                  <th scope="col">Gym</th>
                  <th scope="col">Amount</th>
                  <th scope="col">When</th>
                </tr>
              </thead>
              <tbody>
                {visits.items?.map((entry) => (
                  <tr key={entry.id}>
                    <td>
                      {entry.kind} {entry.id}
                      {entry.reverses === null ? '' : ` of ${entry.reverses}`}
                    </td>
                    <td>{entry.gym_id}</td>
                    <td>{formatMoney(entry.payout_cents, entry.currency)}</td>
                    <td>{formatStamp(entry.effective_at)}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
            <PageButtons list={visits} noun="visits" />
          </Found>
          <Found title={`Audit of ${asked}`} id="found-audit">
            <ErrorNote error={audit.error} />
            {audit.items?.length === 0 && <p>No audit entries.</p>}
            <AuditTable label="Member audit table" entries={audit.items} />
            <PageButtons list={audit} noun="audit entries" />
          </Found>
        </>
      )}
    </div>
  );
}
