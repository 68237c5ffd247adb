import type { RouteGroup } from '../http/route-group.js';
import { CURRENCY_PATTERN } from '../domain/identifiers.js';
import { Type } from 'typebox';
import { pageRequest } from '../domain/pagination.js';
import { given } from '../domain/given.js';
import { createRoute } from './record-routes.js';
import { presentGym, presentPage, presentPartner, presentProduct } from '../presenters/records.js';
import {
  Gym,
  Id,
  IdString,
  ListOf,
  Name,
  OperatorText,
  PageQuery,
  Partner,
  Product,
  ProductCategory,
  TimeZone,
  operatorErrorResponses,
} from './schemas.js';
import { TEXT_LIMITS } from '../domain/operator-text.js';

/** Partners, gyms and products. */
export const catalogRoutes: RouteGroup = async (app, { services }) => {
  const { catalog } = services;

  createRoute(app, {
    url: '/partners',
    summary: 'Create a partner',
    body: Type.Object({
      name: Name,
      sandbox: Type.Optional(
        Type.Boolean({ description: 'A sandbox partner: ghk_test_ keys, visits never in payouts' }),
      ),
    }),
    created: Partner,
    create: async ({ name, sandbox }, actor) =>
      presentPartner(await catalog.createPartner(name, actor, sandbox === true)),
  });

  app.get(
    '/partners',
    {
      schema: {
        summary: 'List partners (name: those whose name holds it, in any case — `fit` finds Acme Fitness)',
        querystring: Type.Object({
          name: Type.Optional(Name),
          ...PageQuery,
        }),
        response: { 200: ListOf(Partner), ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { name } = request.query;
      const page = await catalog.listPartners(pageRequest(request.query), name === undefined ? {} : { name });
      return presentPage(page, presentPartner);
    },
  );

  createRoute(app, {
    url: '/gyms',
    summary: 'Create a gym (its id is the X-Gym-Id partners send)',
    body: Type.Object({
      id: Type.Optional(Id),
      partner_id: Id,
      name: Name,
      timezone: Type.Optional(TimeZone),
    }),
    created: Gym,
    create: async ({ id, partner_id: partnerId, name, timezone }, actor) => {
      return presentGym(await catalog.createGym(given({ id, partnerId, name, timezone }), actor));
    },
  });

  app.get(
    '/gyms',
    {
      schema: {
        summary: 'List gyms',
        querystring: Type.Object({ partner_id: Type.Optional(IdString), ...PageQuery }),
        response: { 200: ListOf(Gym), ...operatorErrorResponses },
      },
    },
    async (request) => {
      const partnerId = request.query.partner_id;
      const filter = partnerId === undefined ? {} : { partnerId: Number(partnerId) };
      return presentPage(await catalog.listGyms(filter, pageRequest(request.query)), presentGym);
    },
  );

  createRoute(app, {
    url: '/gyms/:gym_id/products',
    summary: 'Create a product of a gym',
    body: Type.Object({
      id: Type.Optional(Id),
      description: OperatorText(TEXT_LIMITS.description),
      payout_cents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000_000 })),
      currency: Type.Optional(Type.String({ pattern: CURRENCY_PATTERN })),
      category: Type.Optional(ProductCategory),
    }),
    created: Product,
    create: async ({ id, description, payout_cents: payoutCents, currency, category }, actor, gymId) => {
      const product = given({ id, description, payoutCents, currency, category });
      return presentProduct(await catalog.createProduct(gymId, product, actor));
    },
  });

  app.get(
    '/gyms/:gym_id/products',
    {
      schema: {
        summary: 'List the products of a gym',
        params: Type.Object({ gym_id: IdString }),
        response: { 200: ListOf(Product), ...operatorErrorResponses },
      },
    },
    async (request) => {
      const gym = await catalog.getGym(Number(request.params.gym_id));
      const products = await catalog.listProducts(gym.id);
      return { items: products.map(presentProduct), next_cursor: null };
    },
  );
};
