import { Type } from 'typebox';
import { eventStreamRoute as sharedStreamRoute } from '../http/event-stream-route.js';
import { principalOf } from './authenticate.js';
import { PartnerHeaders, partnerErrorResponses } from './schemas.js';

/**
 * GET /access/v1/events/stream (an addition to the spec): the calling gym's own events as they happen, for a front
 * desk's screen, for as long as the key lives; the same messages as the operator's stream, resumable by position.
 */
export const eventStreamRoute = sharedStreamRoute({
  summary: "The gym's events as they happen (server-sent events)",
  headers: PartnerHeaders,
  filters: Type.Object({}),
  errors: partnerErrorResponses,
  subscriber: (request) => {
    const { key, gymId } = principalOf(request);
    return {
      credential: { kind: 'key', keyId: key.id, gymId },
      selector: { partnerId: key.partnerId, gymId },
    };
  },
});
