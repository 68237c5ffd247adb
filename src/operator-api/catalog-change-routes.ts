import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CURRENCY_PATTERN } from '../domain/identifiers.js';
import { presentGym, presentPartner, presentProduct } from '../presenters/records.js';
import type { Services } from '../services/index.js';
import { actorOfRequest } from './authenticate.js';
import { recordChangeRoute } from './record-routes.js';
import {
  Gym,
  IdString,
  Name,
  OperatorText,
  Partner,
  Product,
  TimeZone,
  operatorErrorResponses,
} from './schemas.js';

const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };

/** The catalog over time: renames, prices, time zones, retired gyms and products, offboarded partners. */
export const catalogChangeRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (
  app,
  { services },
) => {
  const changes = services.catalogChanges;

  app.patch(
    '/partners/:partner_id',
    {
      schema: {
        summary: 'Rename a partner',
        params: Type.Object({ partner_id: IdString }),
        body: Type.Object({ name: Name }),
        response: { 200: Partner, ...operatorErrorResponses },
      },
    },
    async (request) =>
      presentPartner(
        await changes.updatePartner(
          Number(request.params.partner_id),
          request.body.name,
          actorOfRequest(request),
        ),
      ),
  );

  recordChangeRoute(app, {
    url: '/partners/:partner_id/offboard',
    summary: 'Offboard a partner: keys revoked, webhooks disabled, gyms retired; its ledger stays',
    record: Partner,
    change: async (id, actor) => presentPartner(await changes.offboardPartner(id, actor)),
  });

  app.patch(
    '/gyms/:gym_id',
    {
      schema: {
        summary: "Rename a gym or change its time zone (the daily visit limit's local day)",
        params: Type.Object({ gym_id: IdString }),
        body: Type.Object({ name: Type.Optional(Name), timezone: Type.Optional(TimeZone) }),
        response: { 200: Gym, ...operatorErrorResponses },
      },
    },
    async (request) =>
      presentGym(
        await changes.updateGym(
          Number(request.params.gym_id),
          defined(request.body),
          actorOfRequest(request),
        ),
      ),
  );

  recordChangeRoute(app, {
    url: '/gyms/:gym_id/retire',
    summary: 'Retire a gym: no new check-ins (pending ones can still be validated until they expire)',
    record: Gym,
    change: async (id, actor) => presentGym(await changes.retireGym(id, actor)),
  });

  app.patch(
    '/products/:product_id',
    {
      schema: {
        summary: 'Change a product; a new price applies to validations from then on',
        params: Type.Object({ product_id: IdString }),
        body: Type.Object({
          description: Type.Optional(OperatorText(500, 1)),
          payout_cents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000_000 })),
          currency: Type.Optional(Type.String({ pattern: CURRENCY_PATTERN })),
        }),
        response: { 200: Product, ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { description, payout_cents: payoutCents, currency } = request.body;
      const change = defined({ description, payoutCents, currency });
      return presentProduct(
        await changes.updateProduct(Number(request.params.product_id), change, actorOfRequest(request)),
      );
    },
  );

  recordChangeRoute(app, {
    url: '/products/:product_id/retire',
    summary: 'Retire a product: no new check-ins for it',
    record: Product,
    change: async (id, actor) => presentProduct(await changes.retireProduct(id, actor)),
  });
};
