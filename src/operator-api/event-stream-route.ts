import { Type } from 'typebox';
import { errorResponses } from '../http/schemas.js';
import { eventStreamRoute as sharedStreamRoute } from '../http/event-stream-route.js';
import { actorOfRequest, principalOf } from './authenticate.js';
import { memberDetailsView } from './member-details-view.js';
import { EventType } from './event-routes.js';
import { IdString, operatorErrorResponses } from './schemas.js';

/**
 * GET /admin/v1/events/stream: the whole log, or what the filters pick, for as long as the operator's token lives
 * (the environment's admin tokens: until the lifetime or the shutdown).
 */
export const eventStreamRoute = sharedStreamRoute({
  summary: 'The event log as it grows (server-sent events)',
  headers: Type.Object({}),
  filters: Type.Object({
    type: Type.Optional(EventType),
    partner_id: Type.Optional(IdString),
    gym_id: Type.Optional(IdString),
  }),
  errors: { ...operatorErrorResponses, ...errorResponses(429) },
  subscriber: (request, query) => {
    const { operator } = principalOf(request);
    return {
      credential:
        operator === undefined ? { kind: 'admin-token' } : { kind: 'operator', operatorId: operator.id },
      selector: {
        ...(query.type === undefined ? {} : { type: query.type }),
        ...(query.partner_id === undefined ? {} : { partnerId: Number(query.partner_id) }),
        ...(query.gym_id === undefined ? {} : { gymId: Number(query.gym_id) }),
      },
      memberDetails: memberDetailsView(request),
    };
  },
  // A stream that will show members' details in full is one read of them: audited once, as it opens.
  opened: async (request, services, subscriber) => {
    if (subscriber.memberDetails !== 'full') return;
    await services.members.recordDetailsRead(actorOfRequest(request), 'GET /admin/v1/events/stream');
  },
});
