import type { LoggedEvent } from '../domain/events.js';
import { formatInstant } from '../domain/time-format.js';

/** An event as the log lists it and every stream sends it, to the operator and to a partner's front desk alike. */
export function presentEvent(event: LoggedEvent) {
  return {
    position: event.position,
    id: event.id,
    type: event.type,
    occurred_at: formatInstant(event.occurredAt),
    partner_id: event.partnerId,
    gym_id: event.gymId,
    data: event.data,
  };
}
