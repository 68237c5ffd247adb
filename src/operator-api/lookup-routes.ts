import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { parseInstant } from '../domain/instant.js';
import { pageRequest } from '../domain/pagination.js';
import { formatInstant } from '../domain/time-format.js';
import { AUDIT_ENTITIES } from '../domain/audit.js';
import { PLATFORM_ID_PATTERN } from '../domain/identifiers.js';
import { actorOfRequest } from './authenticate.js';
import {
  Id,
  IdString,
  ListOf,
  OrderQuery,
  PageQuery,
  PlatformId,
  operatorErrorResponses,
} from './schemas.js';

const CustomCode = Type.Object({
  platform_id: Type.String(),
  gym_id: Id,
  custom_code: Type.String(),
  updated_at: Type.String(),
});
export const AuditEntry = Type.Object({
  id: Id,
  actor: Type.String({
    description: '`operator` (an environment admin token, the CLI), `operator:<name>` or `key:<prefix>`',
  }),
  actor_id: Type.Union([Id, Type.Null()], {
    description:
      "The named operator's id: two operators of one name (a revoked one's name reused) are told apart by it; null for the others",
  }),
  action: Type.String(),
  entity: Type.String(),
  entity_id: Type.String(),
  at: Type.String(),
});

/** The member app's custom-code lookup and the audit log. */
export const lookupRoutes: RouteGroup = async (app, { services }) => {
  app.get(
    '/custom-codes',
    {
      schema: {
        summary: "A member's custom code at a gym",
        querystring: Type.Object({ platform_id: PlatformId, gym_id: IdString }),
        response: { 200: CustomCode, ...operatorErrorResponses },
      },
    },
    async (request) => {
      const code = await services.customCodes.lookup(
        { platformId: request.query.platform_id, gymId: Number(request.query.gym_id) },
        actorOfRequest(request),
      );
      return {
        platform_id: code.platformId,
        gym_id: code.gymId,
        custom_code: code.code,
        updated_at: formatInstant(code.updatedAt),
      };
    },
  );

  app.get(
    '/audit',
    {
      schema: {
        summary: 'Who created, changed or revoked keys, codes and check-ins, and when',
        querystring: Type.Object({
          from: Type.Optional(Type.String()),
          to: Type.Optional(Type.String()),
          entity: Type.Optional(Type.Union(AUDIT_ENTITIES.map((entity) => Type.Literal(entity)))),
          actor_id: Type.Optional(
            Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: "One operator's entries, by its id" }),
          ),
          platform_id: Type.Optional(
            Type.String({
              pattern: PLATFORM_ID_PATTERN,
              description:
                "One member's entries: its check-ins created or cancelled, its custom codes, its plan, its reversed visits",
            }),
          ),
          ...OrderQuery,
          ...PageQuery,
        }),
        response: { 200: ListOf(AuditEntry), ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { from, to, entity, actor_id: actorId, platform_id: platformId } = request.query;
      const page = await services.audit.list(
        {
          ...(from === undefined ? {} : { from: parseInstant('from', from) }),
          ...(to === undefined ? {} : { to: parseInstant('to', to) }),
          ...(entity === undefined ? {} : { entity }),
          ...(actorId === undefined ? {} : { actorId: Number(actorId) }),
          ...(platformId === undefined ? {} : { platformId }),
        },
        pageRequest(request.query),
      );
      return {
        items: page.items.map((entry) => ({
          id: entry.id,
          actor: entry.actor,
          actor_id: entry.actorId,
          action: entry.action,
          entity: entry.entity,
          entity_id: entry.entityId,
          at: formatInstant(entry.at),
        })),
        next_cursor: page.nextCursor,
      };
    },
  );
};
