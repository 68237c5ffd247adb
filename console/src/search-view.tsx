import type { ComponentChildren } from 'preact';
import { formatMoney } from './format.js';
import { formatStamp } from './clock.js';
import { AuditTable } from './audit-view.js';
import { ScrollTable, ErrorNote, formFields } from './forms.js';
import { PageButtons, operatorPage, useNewestFirst } from './paging.js';
import type { Session } from './session.js';
import type { AuditEntry, LedgerEntry, ListedCheckin } from './wire.js';
import { t } from './strings/index.js';

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
      <h1>{t.search.title}</h1>
      <form
        class="filters"
        role="search"
        aria-label={t.search.form}
        onSubmit={(event) => {
          event.preventDefault();
          onSearch(formFields(event.currentTarget).member ?? '');
        }}
      >
        <label>
          {t.desk.memberId}
          <input
            name="member"
            inputMode="numeric"
            autoComplete="off"
            pattern="[0-9]{13}"
            title={t.desk.thirteenDigits}
            required
            defaultValue={member ?? ''}
            key={member}
          />
        </label>
        <button type="submit">{t.search.search}</button>
      </form>
      {asked !== undefined && (
        <>
          <Found title={t.search.checkinsOf(asked)} id="found-checkins">
            <ErrorNote error={checkins.error} />
            {checkins.items?.length === 0 && <p>{t.search.noCheckins}</p>}
            <ScrollTable label={t.search.checkinsTable}>
              <thead>
                <tr>
                  <th scope="col">{t.search.checkin}</th>
                  <th scope="col">{t.search.gym}</th>
                  <th scope="col">{t.search.status}</th>
                  <th scope="col">{t.search.checkedIn}</th>
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
            <PageButtons list={checkins} holds="checkins" />
          </Found>
          <Found title={t.search.visitsOf(asked)} id="found-visits">
            <ErrorNote error={visits.error} />
            {visits.items?.length === 0 && <p>{t.search.noVisits}</p>}
            <ScrollTable label={t.search.visitsTable}>
              <thead>
                <tr>
                  <th scope="col">{t.search.entry}</th>
                  <th scope="col">{t.search.gym}</th>
                  <th scope="col">{t.search.amount}</th>
                  <th scope="col">{t.search.when}</th>
                </tr>
              </thead>
              <tbody>
                {visits.items?.map((entry) => (
                  <tr key={entry.id}>
                    <td>
                      {entry.kind} {entry.id}
                      {entry.reverses === null ? '' : t.search.of(entry.reverses)}
                    </td>
                    <td>{entry.gym_id}</td>
                    <td>{formatMoney(entry.payout_cents, entry.currency)}</td>
                    <td>{formatStamp(entry.effective_at)}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
            <PageButtons list={visits} holds="visits" />
          </Found>
          <Found title={t.search.auditOf(asked)} id="found-audit">
            <ErrorNote error={audit.error} />
            {audit.items?.length === 0 && <p>{t.search.noAudit}</p>}
            <AuditTable label={t.search.auditTable} entries={audit.items} />
            <PageButtons list={audit} holds="audit" />
          </Found>
        </>
      )}
    </div>
  );
}
