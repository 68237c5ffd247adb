import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { EVENT_SCAN, EVENT_TYPES, type EventType as EventTypeName } from '../domain/events.js';
import { InputError } from '../domain/errors.js';
import { pageLimit } from '../domain/pagination.js';
import { presentEvent } from '../presenters/event.js';
import { auditMemberDetailsRead, memberDetailsView } from './member-details-view.js';
import { Id, IdString, PageQuery, operatorErrorResponses } from './schemas.js';

/** A union of literals, so a wrong value's 400 names every allowed one. */
export const EventType = Type.Unsafe<EventTypeName>(
  Type.Union(EVENT_TYPES.map((type) => Type.Literal(type))),
);

const Position = Type.Integer({ minimum: 1, description: 'The event’s place in commit order' });

export const Event = Type.Object({
  position: Position,
  id: Type.String({ description: '`evt_` + 32 hex digits, the same wherever the event is delivered' }),
  type: EventType,
  occurred_at: Type.String({ description: 'ISO-8601 UTC with milliseconds' }),
  partner_id: Type.Union([Id, Type.Null()], {
    description: 'null for an event about the network (plan.changed, member.plan-changed)',
  }),
  gym_id: Type.Union([Id, Type.Null()], { description: 'null for an event about the network' }),
  data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
    description: 'null once the payload has been purged',
  }),
});

const EventsPage = Type.Object({
  items: Type.Array(Event),
  next_after: Type.Integer({ minimum: 0, description: 'Pass as `after` to continue, now or later' }),
  has_more: Type.Boolean({
    description: `More may follow \`next_after\`. A filtered page looks through at most ${EVENT_SCAN} events: it may hold fewer items than \`limit\`, even none, and still have more`,
  }),
});

function parseAfter(after: string | undefined): number {
  if (after === undefined) return 0;
  const value = Number(after);
  if (!/^[0-9]{1,16}$/.test(after) || !Number.isSafeInteger(value)) {
    throw new InputError('after', 'must be a position: a non-negative integer');
  }
  return value;
}

/** GET /admin/v1/events: the event log in commit order; following `next_after` never misses an event. */
export const eventRoutes: RouteGroup = async (app, { services }) => {
  app.get(
    '/events',
    {
      schema: {
        summary: 'The event log, in commit order',
        querystring: Type.Object({
          after: Type.Optional(
            Type.String({ maxLength: 32, description: 'Only events after this position' }),
          ),
          type: Type.Optional(EventType),
          partner_id: Type.Optional(IdString),
          gym_id: Type.Optional(IdString),
          limit: PageQuery.limit,
        }),
        response: { 200: EventsPage, ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { query } = request;
      const page = await services.events.list(
        {
          after: parseAfter(query.after),
          ...(query.type === undefined ? {} : { type: query.type }),
          ...(query.partner_id === undefined ? {} : { partnerId: Number(query.partner_id) }),
          ...(query.gym_id === undefined ? {} : { gymId: Number(query.gym_id) }),
        },
        pageLimit(query.limit),
      );
      const view = memberDetailsView(request);
      await auditMemberDetailsRead(
        services,
        request,
        page.items.map((event) => event.data),
      );
      return {
        items: page.items.map((event) => presentEvent(event, view)),
        next_after: page.nextAfter,
        has_more: page.hasMore,
      };
    },
  );
};
