import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { CURRENCY_PATTERN } from '../domain/identifiers.js';
import { presentGym, presentPartner, presentProduct } from '../presenters/records.js';
import { recordChangeRoute } from './record-routes.js';
import { Gym, Name, OperatorText, Partner, Product, ProductCategory, TimeZone } from './schemas.js';
import { TEXT_LIMITS } from '../domain/operator-text.js';

const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };

/** The catalog over time: renames, prices, time zones, retired gyms and products, offboarded partners. */
export const catalogChangeRoutes: RouteGroup = async (app, { services }) => {
  const changes = services.catalogChanges;

  recordChangeRoute(app, {
    method: 'PATCH',
    url: '/partners/:partner_id',
    summary: 'Rename a partner',
    body: Type.Object({ name: Name }),
    record: Partner,
    change: async (id, actor, body) => presentPartner(await changes.updatePartner(id, body.name, actor)),
  });

  recordChangeRoute(app, {
    url: '/partners/:partner_id/offboard',
    summary: 'Offboard a partner: keys revoked, webhooks disabled, gyms retired; its ledger stays',
    record: Partner,
    change: async (id, actor) => presentPartner(await changes.offboardPartner(id, actor)),
  });

  recordChangeRoute(app, {
    method: 'PATCH',
    url: '/gyms/:gym_id',
    summary: "Rename a gym or change its time zone (the daily visit limit's local day)",
    body: Type.Object({ name: Type.Optional(Name), timezone: Type.Optional(TimeZone) }),
    record: Gym,
    change: async (id, actor, body) => presentGym(await changes.updateGym(id, defined(body), actor)),
  });

  recordChangeRoute(app, {
    url: '/gyms/:gym_id/retire',
    summary: 'Retire a gym: no new check-ins (pending ones can still be validated until they expire)',
    record: Gym,
    change: async (id, actor) => presentGym(await changes.retireGym(id, actor)),
  });

  recordChangeRoute(app, {
    method: 'PATCH',
    url: '/products/:product_id',
    summary: 'Change a product; a new price applies to validations from then on',
    body: Type.Object({
      description: Type.Optional(OperatorText(TEXT_LIMITS.description)),
      payout_cents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000_000 })),
      currency: Type.Optional(Type.String({ pattern: CURRENCY_PATTERN })),
      category: Type.Optional(ProductCategory),
    }),
    record: Product,
    change: async (id, actor, { description, payout_cents: payoutCents, currency, category }) =>
      presentProduct(
        await changes.updateProduct(id, defined({ description, payoutCents, currency, category }), actor),
      ),
  });

  recordChangeRoute(app, {
    url: '/products/:product_id/retire',
    summary: 'Retire a product: no new check-ins for it',
    record: Product,
    change: async (id, actor) => presentProduct(await changes.retireProduct(id, actor)),
  });
};
