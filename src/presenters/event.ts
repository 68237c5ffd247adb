import { NETWORK, type LoggedEvent } from '../domain/events.js';
import { viewEventMember, type MemberDetailsView } from '../domain/member-details.js';
import { formatInstant } from '../domain/time-format.js';

/**
 * An event as the log lists it and every stream sends it, to the operator and to a partner's front desk alike; the
 * member details in its data as the caller may see them (an operator's role may mask them).
 */
export function presentEvent(event: LoggedEvent, view: MemberDetailsView = 'full') {
  return {
    position: event.position,
    id: event.id,
    type: event.type,
    occurred_at: formatInstant(event.occurredAt),
    // A network event (a plan, a member's plan) is no partner's or gym's.
    partner_id: event.partnerId === NETWORK ? null : event.partnerId,
    gym_id: event.gymId === NETWORK ? null : event.gymId,
    data: viewEventMember(event.data, view),
  };
}
