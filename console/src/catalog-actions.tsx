import { call } from './api.js';
import { ActionForm, ConfirmAction } from './forms.js';
import { may, type Session } from './session.js';

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
        title={`Rename ${partner.name}`}
        submitLabel="Rename partner"
        action={async ({ name }) => {
          await call(session, 'PATCH', `/admin/v1/partners/${partner.id}`, { name });
          onChanged();
        }}
      >
        <label>
          Rename to
          <input name="name" required maxLength={200} defaultValue={partner.name} />
        </label>
      </ActionForm>
      <ConfirmAction
        label={`Offboard ${partner.name}`}
        question={`Offboard ${partner.name}? Its keys are revoked, its webhooks disabled and its gyms retired; its ledger stays.`}
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
        title={`Change gym ${gym.id}`}
        submitLabel="Save gym"
        action={async ({ name, timezone }) => {
          await call(session, 'PATCH', `/admin/v1/gyms/${gym.id}`, {
            name,
            ...(timezone ? { timezone } : {}),
          });
          onChanged();
        }}
      >
        <label>
          Name of gym {gym.id}
          <input name="name" required maxLength={200} defaultValue={gym.name} />
        </label>
        <label>
          Time zone of gym {gym.id} (IANA, e.g. America/Sao_Paulo)
          <input name="timezone" maxLength={64} defaultValue={gym.timezone ?? ''} />
        </label>
      </ActionForm>
      <ConfirmAction
        label={`Retire gym ${gym.id}`}
        question={`Retire ${gym.name}? No new check-in can be made there; its ledger stays.`}
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
      label={`Retire product ${product.id}`}
      question={`Retire ${product.description}? No new check-in can use it; visits made with it keep their price.`}
      act={async () => {
        await call(session, 'POST', `/admin/v1/products/${product.id}/retire`);
        onChanged();
      }}
    />
  );
}
