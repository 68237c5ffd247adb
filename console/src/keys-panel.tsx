import { useState } from 'preact/hooks';
import { call, query } from './api.js';
import { formatTime } from './clock.js';
import { ActionForm, ConfirmAction, ErrorNote, OnceSecret, ScrollTable } from './forms.js';
import { may, type Session } from './session.js';
import { PageButtons, useNewestFirst } from './paging.js';
import type { ApiKey as Key, IssuedKey as Issued } from './wire.js';
import { t } from './strings/index.js';

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
      <h2 id="keys-title">{t.keys.title(partnerName)}</h2>
      <ErrorNote error={keys.error} />
      {issued !== undefined && (
        <OnceSecret
          what={t.keys.what}
          why={t.keys.why}
          secret={issued.key}
          testId="issued-key"
          onDone={() => setIssued(undefined)}
        />
      )}
      <ScrollTable label={t.keys.table}>
        <thead>
          <tr>
            <th scope="col">{t.keys.prefix}</th>
            <th scope="col">{t.keys.label}</th>
            <th scope="col">{t.keys.gyms}</th>
            <th scope="col">{t.keys.lastUsed}</th>
            <th scope="col">
              <span class="visually-hidden">{t.common.action}</span>
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
              <td>{key.gym_ids === null ? t.common.all : key.gym_ids.join(', ')}</td>
              <td>{key.last_used_at === null ? t.keys.never : formatTime(key.last_used_at)}</td>
              <td>
                {key.revoked_at !== null ? (
                  t.keys.revoked
                ) : mayAct ? (
                  <ConfirmAction
                    label={t.keys.revoke}
                    name={t.keys.revokeKey(key.prefix)}
                    question={t.keys.revokeQuestion(key.prefix)}
                    act={() => revoke(key)}
                  />
                ) : (
                  t.keys.active
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      <PageButtons list={keys} holds="keys" />
      {mayAct && (
        <ActionForm
          title={t.keys.issue}
          submitLabel={t.keys.issueKey}
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
            {t.keys.label}
            <input name="label" maxLength={200} />
          </label>
          <label>
            {t.keys.onlyGyms}
            <input name="gyms" pattern="[0-9, ]*" />
          </label>
        </ActionForm>
      )}
    </section>
  );
}
