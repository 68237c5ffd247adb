import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { PSEUDONYM_PATTERN } from '../domain/pseudonym.js';
import { actorOfRequest } from './authenticate.js';
import { PlatformId, operatorErrorResponses } from './schemas.js';

const Count = Type.Integer({ minimum: 0 });
export const Erasure = Type.Object({
  pseudonym: Type.String({
    pattern: PSEUDONYM_PATTERN,
    description: "What the member's platform_id became in check-ins, transactions and the audit log",
  }),
  erased: Type.Object(
    {
      custom_codes: Count,
      checkins: Count,
      transactions: Count,
      events: Count,
      audit_entries: Count,
      webhook_deliveries: Count,
      reversal_reasons: Count,
    },
    { description: 'Rows this call changed: all 0 when the member was already erased' },
  ),
  not_reached: Type.Array(Type.String(), {
    description: "Copies of the member's data this erasure could not reach, and until when they are kept",
  }),
});

/** A member's data, erased on request (the right to erasure). */
export const memberRoutes: RouteGroup = async (app, { services }) => {
  app.post(
    '/members/:platform_id/erase',
    {
      // The member's id is in the path: the request's log line shows the route instead of the URL.
      config: { logRouteOnly: true },
      schema: {
        summary: "Erase a member's data: codes deleted, payloads purged, the id replaced by a pseudonym",
        params: Type.Object({ platform_id: PlatformId }),
        response: { 200: Erasure, ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { pseudonym, erased, notReached } = await services.members.erase(
        request.params.platform_id,
        actorOfRequest(request),
      );
      return {
        pseudonym,
        erased: {
          custom_codes: erased.customCodes,
          checkins: erased.checkins,
          transactions: erased.transactions,
          events: erased.events,
          audit_entries: erased.auditEntries,
          webhook_deliveries: erased.webhookDeliveries,
          reversal_reasons: erased.reversalReasons,
        },
        not_reached: notReached,
      };
    },
  );
};
