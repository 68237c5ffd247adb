import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CURRENCY_PATTERN } from '../domain/identifiers.js';
import { Type } from 'typebox';
import { pageRequest } from '../domain/pagination.js';
import type { Services } from '../services/index.js';
import { actorOfRequest } from './authenticate.js';
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
export const catalogRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { catalog } = services;

  app.post(
    '/partners',
    {
      schema: {
        summary: 'Create a partner',
        body: Type.Object({
          name: Name,
          sandbox: Type.Optional(
            Type.Boolean({ description: 'A sandbox partner: ghk_test_ keys, visits never in payouts' }),
          ),
        }),
        response: { 201: Partner, ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const { name, sandbox } = request.body;
      const partner = await catalog.createPartner(name, actorOfRequest(request), sandbox === true);
      return reply.code(201).send(presentPartner(partner));
    },
  );

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

  app.post(
    '/gyms',
    {
      schema: {
        summary: 'Create a gym (its id is the X-Gym-Id partners send)',
        body: Type.Object({
          id: Type.Optional(Id),
          partner_id: Id,
          name: Name,
          timezone: Type.Optional(TimeZone),
        }),
        response: { 201: Gym, ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const { id, partner_id: partnerId, name, timezone } = request.body;
      const gym = await catalog.createGym(
        {
          ...(id === undefined ? {} : { id }),
          partnerId,
          name,
          ...(timezone === undefined ? {} : { timezone }),
        },
        actorOfRequest(request),
      );
      return reply.code(201).send(presentGym(gym));
    },
  );

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

  app.post(
    '/gyms/:gym_id/products',
    {
      schema: {
        summary: 'Create a product of a gym',
        params: Type.Object({ gym_id: IdString }),
        body: Type.Object({
          id: Type.Optional(Id),
          description: OperatorText(TEXT_LIMITS.description),
          payout_cents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000_000 })),
          currency: Type.Optional(Type.String({ pattern: CURRENCY_PATTERN })),
          category: Type.Optional(ProductCategory),
        }),
        response: { 201: Product, ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const { id, description, payout_cents: payoutCents, currency, category } = request.body;
      const product = await catalog.createProduct(
        Number(request.params.gym_id),
        {
          ...(id === undefined ? {} : { id }),
          description,
          ...(payoutCents === undefined ? {} : { payoutCents }),
          ...(currency === undefined ? {} : { currency }),
          ...(category === undefined ? {} : { category }),
        },
        actorOfRequest(request),
      );
      return reply.code(201).send(presentProduct(product));
    },
  );

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
