import { call } from './api.js';
import { ActionForm, ErrorNote } from './forms.js';
import { may, type Session } from './session.js';
import { useData } from './use-data.js';
import type { CompatibilityProfile as Profile } from './wire.js';
import { t } from './strings/index.js';

/**
 * A partner's compatibility profile: off by default (the spec's answers), set for a client written against
 * Wellhub's legacy sandbox spelling or one that sends no X-Gym-Id. Only a role with `catalog` may change it.
 */
export function CompatibilityPanel({
  session,
  partnerId,
  partnerName,
}: {
  session: Session;
  partnerId: number;
  partnerName: string;
}) {
  const profile = useData(
    () => call<Profile>(session, 'GET', `/admin/v1/partners/${partnerId}/compatibility`),
    [session, partnerId],
  );
  const shown = profile.value;
  return (
    <section aria-labelledby="compatibility-title">
      <h2 id="compatibility-title">{t.compatibility.title(partnerName)}</h2>
      <ErrorNote error={profile.error} />
      {shown !== undefined && (
        <p data-testid="compatibility-profile">
          {t.compatibility.spelt} <strong>{shown.cancelled_spelling}</strong>
          {shown.cancelled_spelling === 'cancelled' ? t.compatibility.specs : t.compatibility.legacy}
          {t.compatibility.gymFromKey(shown.gym_from_key)}
        </p>
      )}
      {shown !== undefined && may(session, 'catalog') && (
        // Keyed by the profile, so the form shows what was saved.
        <div key={`${shown.cancelled_spelling}-${shown.gym_from_key}`}>
          <ActionForm
            title={t.compatibility.form(partnerName)}
            submitLabel={t.compatibility.save}
            action={async ({ spelling, gymFromKey }) => {
              await call(session, 'PUT', `/admin/v1/partners/${partnerId}/compatibility`, {
                cancelled_spelling: spelling,
                gym_from_key: gymFromKey === 'on',
              });
              profile.reload();
            }}
          >
            <label>
              {t.compatibility.spelling}
              <select name="spelling" value={shown.cancelled_spelling}>
                <option value="cancelled">{t.compatibility.cancelled}</option>
                <option value="canceled">{t.compatibility.canceled}</option>
              </select>
            </label>
            <label class="inline">
              <input name="gymFromKey" type="checkbox" defaultChecked={shown.gym_from_key} />
              {t.compatibility.gymFromKeyField}
            </label>
          </ActionForm>
        </div>
      )}
    </section>
  );
}
