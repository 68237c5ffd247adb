import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { parseInstant } from '../domain/instant.js';
import { pageRequest } from '../domain/pagination.js';
import { MemberDetailsSchema } from '../http/schemas.js';
import type { Services } from '../services/index.js';
import { actorOfRequest } from './authenticate.js';
import { auditMemberDetailsRead, memberDetailsView } from './member-details-view.js';
import { recordChangeRoute } from './record-routes.js';
import { presentCheckin, presentPage } from '../presenters/records.js';
import {
  Checkin,
  CheckinStatus,
  Id,
  IdString,
  ListOf,
  OrderQuery,
  PageQuery,
  PlatformId,
  operatorErrorResponses,
  sandboxFlag,
  sandboxSwitch,
} from './schemas.js';

export const ListedCheckin = Type.Object({ ...Checkin.properties, sandbox: sandboxFlag('check-ins') });

/** The member's check-in, as the member app creates and cancels it. */
export const checkinRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { checkins, clock } = services;
  const present = (checkin: Parameters<typeof presentCheckin>[0]) => presentCheckin(checkin, clock.now());

  app.post(
    '/checkins',
    {
      schema: {
        summary: 'Check a member in at a gym',
        body: Type.Object({
          platform_id: PlatformId,
          gym_id: Id,
          product_id: Id,
          checked_in_at: Type.Optional(Type.String({ description: 'ISO-8601; default now' })),
          member: Type.Optional(MemberDetailsSchema),
        }),
        response: { 201: Checkin, ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const { platform_id: platformId, gym_id: gymId, product_id: productId } = request.body;
      const at = request.body.checked_in_at;
      const checkin = await checkins.create(
        {
          platformId,
          gymId,
          productId,
          ...(at === undefined ? {} : { checkedInAt: parseInstant('checked_in_at', at) }),
          ...(request.body.member === undefined ? {} : { member: request.body.member }),
        },
        actorOfRequest(request),
      );
      return reply.code(201).send(present(checkin));
    },
  );

  recordChangeRoute(app, {
    url: '/checkins/:checkin_id/cancel',
    summary: 'Cancel a check-in (idempotent until it is validated)',
    record: Checkin,
    change: async (id, actor) => present(await checkins.cancel(id, actor)),
  });

  app.get(
    '/checkins',
    {
      schema: {
        summary: 'List check-ins',
        querystring: Type.Object({
          platform_id: Type.Optional(PlatformId),
          gym_id: Type.Optional(IdString),
          status: Type.Optional(CheckinStatus),
          sandbox: sandboxSwitch('check-ins'),
          ...OrderQuery,
          ...PageQuery,
        }),
        response: { 200: ListOf(ListedCheckin), ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { platform_id: platformId, gym_id: gymId, status } = request.query;
      const sandbox = request.query.sandbox === 'true';
      const filter = {
        sandbox,
        ...(platformId === undefined ? {} : { platformId }),
        ...(gymId === undefined ? {} : { gymId: Number(gymId) }),
        ...(status === undefined ? {} : { status }),
      };
      const page = await checkins.list(filter, pageRequest(request.query));
      const view = memberDetailsView(request);
      await auditMemberDetailsRead(services, request, page.items);
      const flag = sandbox ? { sandbox: true as const } : {};
      return presentPage(page, (checkin) => ({ ...presentCheckin(checkin, clock.now(), view), ...flag }));
    },
  );
};
