import type { Kysely } from 'kysely';
import type { EndpointHealth } from '../../domain/integration.js';
import type { Database } from '../database.js';
import { PENDING } from './pending-status.js';

type Db = Kysely<Database>;

/** An endpoint's health as its delivery log holds it (the rate is the service's). */
export type EndpointHealthRow = Omit<EndpointHealth, 'successRate'>;

/** One endpoint's health from its delivery log: its latest attempt, the window's deliveries, what is pending. */
export async function endpointHealth(db: Db, endpointId: number, since: number): Promise<EndpointHealthRow> {
  const ofEndpoint = db.selectFrom('webhook_deliveries').where('endpoint_id', '=', endpointId);
  const last = await ofEndpoint
    .select(['last_attempt_at', 'last_status_code', 'last_error', 'status'])
    .where('last_attempt_at', 'is not', null)
    .orderBy('last_attempt_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const window = await ofEndpoint
    .select((eb) => [
      eb.fn.countAll<number>().as('attempted'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'delivered').then(1).else(0).end()).as('delivered'),
    ])
    .where('last_attempt_at', '>=', since)
    .executeTakeFirstOrThrow();
  const pending = await ofEndpoint
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', PENDING)
    .executeTakeFirstOrThrow();
  return {
    lastAttempt:
      last?.last_attempt_at == null
        ? null
        : {
            at: Number(last.last_attempt_at),
            statusCode: last.last_status_code,
            error: last.last_error,
            delivered: last.status === 'delivered',
          },
    attemptedSince: Number(window.attempted),
    deliveredSince: Number(window.delivered ?? 0),
    pending: Number(pending.count),
  };
}
