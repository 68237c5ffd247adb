import { call } from './api.js';
import { ActionForm, ErrorNote } from './forms.js';
import { may, type Session } from './session.js';
import { useData } from './use-data.js';
import type { CompatibilityProfile as Profile } from './wire.js';

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
      <h2 id="compatibility-title">Compatibility of {partnerName}</h2>
      <ErrorNote error={profile.error} />
      {shown !== undefined && (
        <p data-testid="compatibility-profile">
          Cancelled check-ins are spelt <strong>{shown.cancelled_spelling}</strong>
          {shown.cancelled_spelling === 'cancelled' ? " (the spec's)" : " (Wellhub's legacy sandbox)"}; a key
          limited to one gym {shown.gym_from_key ? 'may' : 'may not'} leave X-Gym-Id out.
        </p>
      )}
      {shown !== undefined && may(session, 'catalog') && (
        // Keyed by the profile, so the form shows what was saved.
        <div key={`${shown.cancelled_spelling}-${shown.gym_from_key}`}>
          <ActionForm
            title={`Compatibility profile of ${partnerName}`}
            submitLabel="Save profile"
            action={async ({ spelling, gymFromKey }) => {
              await call(session, 'PUT', `/admin/v1/partners/${partnerId}/compatibility`, {
                cancelled_spelling: spelling,
                gym_from_key: gymFromKey === 'on',
              });
              profile.reload();
            }}
          >
            <label>
              Spelling of a cancelled check-in
              <select name="spelling" value={shown.cancelled_spelling}>
                <option value="cancelled">cancelled (the spec's)</option>
                <option value="canceled">canceled (Wellhub's legacy sandbox)</option>
              </select>
            </label>
            <label class="inline">
              <input name="gymFromKey" type="checkbox" defaultChecked={shown.gym_from_key} />A key limited to
              one gym may leave X-Gym-Id out
            </label>
          </ActionForm>
        </div>
      )}
    </section>
  );
}
