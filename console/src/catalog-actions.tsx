import { call } from './api.js';
import { ActionForm, ConfirmAction } from './forms.js';
import { may, type Session } from './session.js';
import { t } from './strings/index.js';

/** Rename a partner, or offboard it: its keys revoked, webhooks disabled, gyms retired; its ledger stays. */
export function PartnerActions({
  session,
  partner,
  onChanged,
}: {
  session: Session;
  partner: { id: number; name: string; offboarded_at: string | null };
  onChanged: () => void;
}) {
  if (!may(session, 'catalog') || partner.offboarded_at !== null) return null;
  return (
    <div class="catalog-actions">
      <ActionForm
        title={t.catalog.rename(partner.name)}
        submitLabel={t.catalog.renamePartner}
        action={async ({ name }) => {
          await call(session, 'PATCH', `/admin/v1/partners/${partner.id}`, { name });
          onChanged();
        }}
      >
        <label>
          {t.catalog.renameTo}
          <input name="name" required maxLength={200} defaultValue={partner.name} />
        </label>
      </ActionForm>
      <ConfirmAction
        label={t.catalog.offboard(partner.name)}
        question={t.catalog.offboardQuestion(partner.name)}
        act={async () => {
          await call(session, 'POST', `/admin/v1/partners/${partner.id}/offboard`);
          onChanged();
        }}
      />
    </div>
  );
}

/** Rename a gym or set its time zone (its local days count the daily limit), or retire it. */
export function GymActions({
  session,
  gym,
  onChanged,
}: {
  session: Session;
  gym: { id: number; name: string; timezone: string | null; retired_at: string | null };
  onChanged: () => void;
}) {
  if (!may(session, 'catalog') || gym.retired_at !== null) return null;
  return (
    <div class="catalog-actions">
      <ActionForm
        title={t.catalog.changeGym(gym.id)}
        submitLabel={t.catalog.saveGym}
        action={async ({ name, timezone }) => {
          await call(session, 'PATCH', `/admin/v1/gyms/${gym.id}`, {
            name,
            ...(timezone ? { timezone } : {}),
          });
          onChanged();
        }}
      >
        <label>
          {t.catalog.gymName(gym.id)}
          <input name="name" required maxLength={200} defaultValue={gym.name} />
        </label>
        <label>
          {t.catalog.gymZone(gym.id)}
          <input name="timezone" maxLength={64} defaultValue={gym.timezone ?? ''} />
        </label>
      </ActionForm>
      <ConfirmAction
        label={t.catalog.retireGym(gym.id)}
        question={t.catalog.retireGymQuestion(gym.name)}
        act={async () => {
          await call(session, 'POST', `/admin/v1/gyms/${gym.id}/retire`);
          onChanged();
        }}
      />
    </div>
  );
}

/** Retire a product: no new check-in for it; the visits made with it keep their price. */
export function ProductActions({
  session,
  product,
  onChanged,
}: {
  session: Session;
  product: { id: number; description: string; retired_at: string | null };
  onChanged: () => void;
}) {
  if (!may(session, 'catalog') || product.retired_at !== null) return null;
  return (
    <ConfirmAction
      label={t.catalog.retireProduct(product.id)}
      question={t.catalog.retireProductQuestion(product.description)}
      act={async () => {
        await call(session, 'POST', `/admin/v1/products/${product.id}/retire`);
        onChanged();
      }}
    />
  );
}
