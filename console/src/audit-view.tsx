import { useState } from 'preact/hooks';
import { call, query } from './api.js';
import { formatStamp } from './clock.js';
import { ErrorNote, ScrollTable, formFields } from './forms.js';
import type { Session } from './session.js';
import { useData } from './use-data.js';
import type { AuditEntry as Entry } from './wire.js';
import { t } from './strings/index.js';

const ENTITIES = [
  'partner',
  'gym',
  'product',
  'key',
  'checkin',
  'custom-code',
  'operator',
  'member',
  'webhook',
  'transaction',
  'settlement',
  'plan',
  'payout-rules',
];
const PAGE = 100;

/** Audit entries as a table: when, who (a named operator with its id), what was done, to which record. */
export function AuditTable({ label, entries }: { label: string; entries: Entry[] | undefined }) {
  return (
    <ScrollTable label={label}>
      <thead>
        <tr>
          <th scope="col">{t.audit.when}</th>
          <th scope="col">{t.audit.who}</th>
          <th scope="col">{t.audit.did}</th>
          <th scope="col">{t.audit.what}</th>
        </tr>
      </thead>
      <tbody>
        {entries?.map((entry) => (
          <tr key={entry.id}>
            <td>{formatStamp(entry.at)}</td>
            <td>
              {entry.actor}
              {entry.actor_id === null ? '' : ` (#${entry.actor_id})`}
            </td>
            <td>{entry.action}</td>
            <td>
              {entry.entity} {entry.entity_id}
            </td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}

/**
 * Who did what, and when: the audit log newest first, by kind of record, operator and period, a page at a time
 * (**Older entries** reads on from where the page ends).
 */
export function AuditView({ session }: { session: Session }) {
  const [filter, setFilter] = useState<Record<string, string>>({});
  /** The cursors of the pages shown so far: the first page has none. */
  const [cursor, setCursor] = useState<string>();
  const entries = useData(
    async () =>
      await call<{ items: Entry[]; next_cursor: string | null }>(
        session,
        'GET',
        `/admin/v1/audit${query({ ...filter, order: 'desc', limit: PAGE, cursor })}`,
      ),
    [session, JSON.stringify(filter), cursor],
  );
  return (
    <div class="audit">
      <h1>{t.audit.title}</h1>
      <form
        class="filters"
        aria-label={t.audit.filters}
        onSubmit={(event) => {
          event.preventDefault();
          setCursor(undefined);
          setFilter(formFields(event.currentTarget));
        }}
      >
        <label>
          {t.audit.what}
          <select name="entity">
            <option value="">{t.audit.everything}</option>
            {ENTITIES.map((entity) => (
              <option key={entity} value={entity}>
                {entity}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.audit.operatorId}
          <input name="actor_id" inputMode="numeric" pattern="[1-9][0-9]*" />
        </label>
        <label>
          {t.audit.from}
          <input name="from" type="date" />
        </label>
        <label>
          {t.audit.toExclusive}
          <input name="to" type="date" />
        </label>
        <button type="submit">{t.common.show}</button>
      </form>
      <ErrorNote error={entries.error} />
      <AuditTable label={t.audit.table} entries={entries.value?.items} />
      <div class="actions">
        {cursor !== undefined && (
          <button type="button" class="quiet" onClick={() => setCursor(undefined)}>
            {t.pages.newer.entries}
          </button>
        )}
        {entries.value?.next_cursor != null && (
          <button type="button" onClick={() => setCursor(entries.value?.next_cursor ?? undefined)}>
            {t.pages.older.entries}
          </button>
        )}
      </div>
    </div>
  );
}
