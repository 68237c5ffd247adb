import { useState } from 'preact/hooks';
import { call, query } from './api.js';
import { ErrorNote, ScrollTable, formFields } from './forms.js';
import type { Session } from './session.js';
import { useData } from './use-data.js';

interface Entry {
  id: number;
  actor: string;
  action: string;
  entity: string;
  entity_id: string;
  at: string;
}
const ENTITIES = ['partner', 'gym', 'product', 'key', 'checkin', 'custom-code'];

/** Who did what, and when: the audit log, newest page by entity and period. */
export function AuditView({ session }: { session: Session }) {
  const [filter, setFilter] = useState<Record<string, string>>({});
  const entries = useData(
    async () =>
      (await call<{ items: Entry[] }>(session, 'GET', `/admin/v1/audit${query({ ...filter, limit: 500 })}`))
        .items,
    [session, JSON.stringify(filter)],
  );
  return (
    <div class="audit">
      <h1>Audit</h1>
      <form
        class="filters"
        aria-label="Audit filters"
        onSubmit={(event) => {
          event.preventDefault();
          setFilter(formFields(event.currentTarget));
        }}
      >
        <label>
          What
          <select name="entity">
            <option value="">everything</option>
            {ENTITIES.map((entity) => (
              <option key={entity} value={entity}>
                {entity}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input name="from" type="date" />
        </label>
        <label>
          To (exclusive)
          <input name="to" type="date" />
        </label>
        <button type="submit">Show</button>
      </form>
      <ErrorNote error={entries.error} />
      <ScrollTable label="Audit table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Did</th>
            <th scope="col">What</th>
          </tr>
        </thead>
        <tbody>
          {entries.value?.map((entry) => (
            <tr key={entry.id}>
              <td>{entry.at}</td>
              <td>{entry.actor}</td>
              <td>{entry.action}</td>
              <td>
                {entry.entity} {entry.entity_id}
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </div>
  );
}
