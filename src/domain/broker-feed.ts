import { NETWORK, type LoggedEvent } from './events.js';

/** The header that carries a message's position in the event log: `gatehouse nats replay --from` takes it. */
export const POSITION_HEADER = 'Gatehouse-Position';

/** The subject an event is published on: `<prefix>.<type>`, such as `gatehouse.checkin.validated`. */
export function feedSubject(prefix: string, type: string): string {
  return `${prefix}.${type}`;
}

/** The subjects a feed's stream captures. */
export function feedSubjects(prefix: string): string[] {
  return [`${prefix}.>`];
}

/**
 * The message: the standard webhook body (type, timestamp, data), the event id (also `Nats-Msg-Id`) and the
 * partner's id (one stream carries every partner's events; a sandbox partner's say `"sandbox": true` in data; a
 * network event, such as `plan.changed`, has null).
 */
export function feedMessage(
  event: Pick<LoggedEvent, 'id' | 'type' | 'occurredAt' | 'partnerId' | 'data'>,
): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: new Date(event.occurredAt).toISOString(),
    partner_id: event.partnerId === NETWORK ? null : event.partnerId,
    data: event.data,
  });
}
