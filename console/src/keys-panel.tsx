import { useState } from 'preact/hooks';
import { call, query } from './api.js';
import { formatTime } from './clock.js';
import { ActionForm, ConfirmAction, ErrorNote, OnceSecret, ScrollTable } from './forms.js';
import { may, type Session } from './session.js';
import { PageButtons, useNewestFirst } from './paging.js';
import type { ApiKey as Key, IssuedKey as Issued } from './wire.js';

/** Keys a page shows, newest first. */
const PAGE = 50;

/** A partner's keys: issue one (its secret shown once), see where each may act and when it was used, revoke. */
export function KeysPanel({
  session,
  partnerId,
  partnerName,
}: {
  session: Session;
  partnerId: number;
  partnerName: string;
}) {
  const keys = useNewestFirst<Key>(
    session,
    (cursor) => `/admin/v1/partners/${partnerId}/keys${query({ order: 'desc', limit: PAGE, cursor })}`,
  );
  const mayAct = may(session, 'keys');
  const [issued, setIssued] = useState<Issued>();
  const revoke = async (key: Key) => {
    await call(session, 'DELETE', `/admin/v1/keys/${key.id}`);
    keys.reload();
  };
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">Keys of {partnerName}</h2>
      <ErrorNote error={keys.error} />
      {issued !== undefined && (
        <OnceSecret
          what="key"
          why="Anyone who has it can validate members at this partner's gyms."
          secret={issued.key}
          testId="issued-key"
          onDone={() => setIssued(undefined)}
        />
      )}
      <ScrollTable label="Keys table">
        <thead>
          <tr>
            <th scope="col">Prefix</th>
            <th scope="col">Label</th>
            <th scope="col">Gyms</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span class="visually-hidden">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.items?.map((key) => (
            <tr key={key.id}>
              <td>
                <code>{key.prefix}</code>
              </td>
              <td>{key.label ?? ''}</td>
              <td>{key.gym_ids === null ? 'all' : key.gym_ids.join(', ')}</td>
              <td>{key.last_used_at === null ? 'never' : formatTime(key.last_used_at)}</td>
              <td>
                {key.revoked_at !== null ? (
                  'revoked'
                ) : mayAct ? (
                  <ConfirmAction
                    label="Revoke"
                    name={`Revoke ${key.prefix}`}
                    question={`Every request with ${key.prefix} is refused from now on.`}
                    act={() => revoke(key)}
                  />
                ) : (
                  'active'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      <PageButtons list={keys} noun="keys" />
      {mayAct && (
        <ActionForm
          title="Issue a key"
          submitLabel="Issue key"
          action={async ({ label, gyms }) => {
            const gymIds = gyms
              ? gyms
                  .split(/[\s,]+/)
                  .filter(Boolean)
                  .map(Number)
              : null;
            const made = await call<Issued>(session, 'POST', `/admin/v1/partners/${partnerId}/keys`, {
              ...(label ? { label } : {}),
              gym_ids: gymIds,
            });
            setIssued(made);
            keys.newest();
            keys.reload();
          }}
        >
          <label>
            Label
            <input name="label" maxLength={200} />
          </label>
          <label>
            Only these gyms (ids, comma-separated; empty for all)
            <input name="gyms" pattern="[0-9, ]*" />
          </label>
        </ActionForm>
      )}
    </section>
  );
}
