import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { call, query } from './api.js';
import { formatMoney } from './format.js';
import { GymActions, PartnerActions, ProductActions } from './catalog-actions.js';
import { CompatibilityPanel } from './compatibility-panel.js';
import { ActionForm, ErrorNote, formFields } from './forms.js';
import { KeysPanel } from './keys-panel.js';
import { PayoutRulesPanel } from './payout-rules-panel.js';
import { PlansPanel } from './plans-panel.js';
import { may, type Session } from './session.js';
import { WebhooksPanel } from './webhooks-panel.js';
import { useData } from './use-data.js';
import type { Gym, Partner, Product } from './wire.js';
import { t } from './strings/index.js';

const items = <T,>(page: { items: T[] }) => page.items;

/**
 * Partners, their gyms and products, their keys, webhooks and payout rules, and the network's plans: everything the
 * operator API lets an operator set up.
 * The forms a role may not use are not shown.
 */
export function NetworkView({
  session,
  selected,
  onSelect,
  named,
  onFilter,
}: {
  session: Session;
  /** The partner shown (from the URL: `#/network?partner=<id>`). */
  selected: number | undefined;
  onSelect: (partnerId: number) => void;
  /** The partners picked from: those whose name holds this (from the URL: `#/network?name=<text>`). */
  named: string | undefined;
  onFilter: (name: string) => void;
}) {
  const partners = useData(
    async () => items(await call<{ items: Partner[] }>(session, 'GET', '/admin/v1/partners?limit=1000')),
    [session],
  );
  const picked = useData(
    async () =>
      named === undefined
        ? undefined
        : items(
            await call<{ items: Partner[] }>(
              session,
              'GET',
              `/admin/v1/partners${query({ name: named, limit: 1000 })}`,
            ),
          ),
    [session, named],
  );
  const pickable = named === undefined ? partners.value : picked.value;
  const [note, setNote] = useState<string>();
  const partner = partners.value?.find((candidate) => candidate.id === selected);
  return (
    <div class="network">
      <h1>{t.network.title}</h1>
      <section aria-labelledby="partners-title">
        <h2 id="partners-title">{t.network.partners}</h2>
        <form
          class="filters"
          role="search"
          aria-label={t.network.findPartners}
          onSubmit={(event) => {
            event.preventDefault();
            onFilter(formFields(event.currentTarget).name ?? '');
          }}
        >
          <label>
            {t.network.nameContains}
            <input name="name" maxLength={200} defaultValue={named ?? ''} key={named} />
          </label>
          <button type="submit">{t.network.find}</button>
        </form>
        <ErrorNote error={partners.error ?? picked.error} />
        {pickable?.length === 0 && named !== undefined && <p>{t.network.noneNamed(named)}</p>}
        {note !== undefined && (
          <p role="status" class="note">
            {note}
          </p>
        )}
        <ul class="pick">
          {pickable?.map((candidate) => (
            <li key={candidate.id}>
              <button
                type="button"
                aria-pressed={candidate.id === selected}
                onClick={() => onSelect(candidate.id)}
              >
                {candidate.name} <span class="muted">#{candidate.id}</span>
                {candidate.sandbox === true && <span class="muted">{t.network.sandbox}</span>}
                {candidate.offboarded_at !== null && <span class="muted">{t.network.offboarded}</span>}
              </button>
            </li>
          ))}
        </ul>
        {may(session, 'catalog') && (
          <ActionForm
            title={t.network.newPartner}
            submitLabel={t.network.addPartner}
            action={async ({ name, sandbox }) => {
              const namesakes = (partners.value ?? []).filter((known) => known.name === name);
              const made = await call<Partner>(session, 'POST', '/admin/v1/partners', {
                name,
                ...(sandbox === undefined ? {} : { sandbox: true }),
              });
              // Names may repeat (ids are what count), but a repeat is usually a second click.
              setNote(
                namesakes.length === 0
                  ? undefined
                  : t.network.namesake(
                      name ?? '',
                      namesakes.map((known) => known.id),
                      made.id,
                    ),
              );
              partners.reload();
              onSelect(made.id);
            }}
          >
            <label>
              {t.network.partnerName}
              <input name="name" required maxLength={200} />
            </label>
            <label class="inline">
              <input name="sandbox" type="checkbox" />
              {t.network.sandboxPartner}
            </label>
          </ActionForm>
        )}
      </section>
      {partner !== undefined && (
        // Keyed by the partner: a selection change starts its panels afresh, so a secret shown once (a key just
        // issued, a webhook secret) never stays on screen under another partner.
        <Fragment key={partner.id}>
          <PartnerActions session={session} partner={partner} onChanged={partners.reload} />
          <PayoutRulesPanel
            session={session}
            owner={{ kind: 'partners', id: partner.id, name: partner.name }}
          />
          <GymsPanel session={session} partner={partner} />
          <KeysPanel session={session} partnerId={partner.id} partnerName={partner.name} />
          <CompatibilityPanel session={session} partnerId={partner.id} partnerName={partner.name} />
          <WebhooksPanel session={session} partnerId={partner.id} partnerName={partner.name} />
        </Fragment>
      )}
      <PlansPanel session={session} />
    </div>
  );
}

function GymsPanel({ session, partner }: { session: Session; partner: Partner }) {
  const gyms = useData(
    async () =>
      items(
        await call<{ items: Gym[] }>(session, 'GET', `/admin/v1/gyms?partner_id=${partner.id}&limit=1000`),
      ),
    [session, partner.id],
  );
  return (
    <section aria-labelledby="gyms-title">
      <h2 id="gyms-title">{t.network.gymsOf(partner.name)}</h2>
      <ErrorNote error={gyms.error} />
      {gyms.value?.map((gym) => (
        <GymCard key={gym.id} session={session} gym={gym} onChanged={gyms.reload} />
      ))}
      {may(session, 'catalog') && partner.offboarded_at === null && (
        <ActionForm
          title={t.network.newGym}
          submitLabel={t.network.addGym}
          action={async ({ id, name }) => {
            await call(session, 'POST', '/admin/v1/gyms', {
              ...(id ? { id: Number(id) } : {}),
              partner_id: partner.id,
              name,
            });
            gyms.reload();
          }}
        >
          <label>
            {t.network.gymIdField}
            <input name="id" inputMode="numeric" pattern="[1-9][0-9]{0,14}" />
          </label>
          <label>
            {t.network.gymName}
            <input name="name" required maxLength={200} />
          </label>
        </ActionForm>
      )}
    </section>
  );
}

function GymCard({ session, gym, onChanged }: { session: Session; gym: Gym; onChanged: () => void }) {
  const products = useData(
    async () => items(await call<{ items: Product[] }>(session, 'GET', `/admin/v1/gyms/${gym.id}/products`)),
    [session, gym.id],
  );
  return (
    <article class="card" aria-labelledby={`gym-${gym.id}`}>
      <h3 id={`gym-${gym.id}`}>
        {gym.name} <span class="muted">{t.common.gym(gym.id)}</span>
        {gym.timezone !== null && <span class="muted"> · {gym.timezone}</span>}
        {gym.retired_at !== null && <span class="muted">{t.network.retired}</span>}
      </h3>
      <GymActions session={session} gym={gym} onChanged={onChanged} />
      <PayoutRulesPanel
        session={session}
        owner={{ kind: 'gyms', id: gym.id, name: gym.name, timeZone: gym.timezone ?? undefined }}
      />
      <ErrorNote error={products.error} />
      <ul>
        {products.value?.map((product) => (
          <li key={product.id}>
            {product.description} · {formatMoney(product.payout_cents, product.currency)}{' '}
            <span class="muted">{t.network.product(product.id)}</span>
            {product.retired_at !== null && <span class="muted">{t.network.retired}</span>}{' '}
            <ProductActions session={session} product={product} onChanged={products.reload} />
          </li>
        ))}
      </ul>
      {may(session, 'catalog') && gym.retired_at === null && (
        <ActionForm
          title={t.network.newProductAt(gym.name)}
          submitLabel={t.network.addProduct}
          action={async ({ description, payout, currency }) => {
            await call(session, 'POST', `/admin/v1/gyms/${gym.id}/products`, {
              description,
              payout_cents: Math.round(Number(payout) * 100),
              ...(currency ? { currency: currency.toUpperCase() } : {}),
            });
            products.reload();
          }}
        >
          <label>
            {t.network.description}
            <input name="description" required maxLength={200} />
          </label>
          <label>
            {t.network.payoutPerVisit}
            <input name="payout" inputMode="decimal" pattern="[0-9]+([.][0-9]{1,2})?" required />
          </label>
          <label>
            {t.network.currency}
            <input name="currency" pattern="[A-Za-z]{3}" maxLength={3} />
          </label>
        </ActionForm>
      )}
    </article>
  );
}
