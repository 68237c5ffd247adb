import { isPostgres } from '../column-types.js';
import { latestPosition } from '../events/event-repository.js';
import { advanceDispatchCursor, lockDispatchCursor } from './webhook-dispatch-repository.js';
import type { Kysely, Selectable } from 'kysely';
import type { EventType } from '../../domain/events.js';
import type { PageRequest } from '../../domain/pagination.js';
import type {
  DisabledReason,
  EndpointStatus,
  WebhookEndpoint,
  WebhookFormat,
} from '../../domain/webhooks/endpoint.js';
import { deleteEndpointAttempts } from './webhook-attempt-repository.js';
import type { Database, WebhookEndpointsTable } from '../database.js';
import { findById } from '../find-by-id.js';
import { pageById } from '../paging.js';

type Db = Kysely<Database>;

const parseList = <T>(text: string | null): T[] | null => (text === null ? null : (JSON.parse(text) as T[]));
const listText = (list: readonly unknown[] | null) => (list === null ? null : JSON.stringify(list));

/** The event types and gyms an endpoint wants, as stored (null: all), read with `parse`. */
function lists(
  row: Pick<Selectable<WebhookEndpointsTable>, 'event_types' | 'gym_ids'>,
  parse: <T>(text: string | null) => T[] | null,
): Pick<WebhookEndpoint, 'eventTypes' | 'gymIds'> {
  return { eventTypes: parse<EventType>(row.event_types), gymIds: parse<number>(row.gym_ids) };
}

export function toEndpoint(row: Selectable<WebhookEndpointsTable>): WebhookEndpoint {
  return {
    id: row.id,
    partnerId: row.partner_id,
    url: row.url,
    ...lists(row, parseList),
    format: row.format as WebhookFormat,
    timeoutMs: row.timeout_ms,
    status: row.status as EndpointStatus,
    disabledReason: row.disabled_reason as DisabledReason | null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findEndpoint(db: Db, id: number): Promise<WebhookEndpoint | undefined> {
  return findById(db, 'webhook_endpoints', id, toEndpoint);
}

export type NewEndpoint = Pick<
  WebhookEndpoint,
  'partnerId' | 'url' | 'eventTypes' | 'gymIds' | 'format' | 'timeoutMs'
> & {
  /** Sealed already. */
  readonly secret: string;
};

/** The endpoint hears of events after the last one committed now (on PostgreSQL, later commits come after). */
export async function insertEndpoint(db: Db, endpoint: NewEndpoint, now: number): Promise<WebhookEndpoint> {
  // It hears of what commits after it: from the last position a reader may pass, read under the dispatcher's lock,
  // so a dispatch running now ends before it is read, and the next dispatch sees this endpoint.
  await lockDispatchCursor(db, isPostgres(db) ? 'postgres' : 'sqlite');
  const last = { last: await latestPosition(db) };
  // The dispatcher leaves its cursor alone while there is no endpoint: the first one brings it up to date, so the
  // purge (which spares what the dispatcher has not reached) is not held back by events nobody will be sent.
  const others = await db.selectFrom('webhook_endpoints').select('id').limit(1).executeTakeFirst();
  if (others === undefined) await advanceDispatchCursor(db, Number(last.last ?? 0));
  const row = await db
    .insertInto('webhook_endpoints')
    .values({
      partner_id: endpoint.partnerId,
      url: endpoint.url,
      event_types: listText(endpoint.eventTypes),
      gym_ids: listText(endpoint.gymIds),
      format: endpoint.format,
      timeout_ms: endpoint.timeoutMs,
      secret: endpoint.secret,
      status: 'enabled',
      from_position: Number(last?.last ?? 0),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toEndpoint(row);
}

/** What the dispatcher matches an event against: whose endpoint, which events and gyms, and since when. */
export type DispatchTarget = Pick<
  WebhookEndpoint,
  'id' | 'partnerId' | 'eventTypes' | 'gymIds' | 'status' | 'url' | 'format' | 'timeoutMs'
> & {
  readonly fromPosition: number;
  readonly failingSince: number | null;
};

/** The lists as stored, parsed once: the dispatcher reads every endpoint on each of its rounds. */
const parsedLists = new Map<string, readonly unknown[]>();
function cachedList<T>(text: string | null): T[] | null {
  if (text === null) return null;
  let list = parsedLists.get(text);
  if (list === undefined) {
    if (parsedLists.size >= 10_000) parsedLists.clear();
    list = Object.freeze(parseList<unknown>(text) ?? []);
    parsedLists.set(text, list);
  }
  return list as T[];
}

/**
 * The endpoints of these partners, as the dispatcher matches their events against them and claims the fresh
 * deliveries it writes (only the columns it needs), in the order they were created: a round reads the endpoints of
 * the partners whose events it fans out, not every endpoint of the network.
 */
export async function dispatchTargets(db: Db, partnerIds: readonly number[]): Promise<DispatchTarget[]> {
  if (partnerIds.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_endpoints')
    .where('partner_id', 'in', partnerIds)
    .orderBy('id')
    .select([
      'id',
      'partner_id',
      'event_types',
      'gym_ids',
      'status',
      'from_position',
      'url',
      'format',
      'timeout_ms',
      'failing_since',
    ])
    .execute();
  return rows.map((row) => ({
    id: row.id,
    partnerId: row.partner_id,
    ...lists(row, cachedList),
    status: row.status as EndpointStatus,
    fromPosition: Number(row.from_position),
    url: row.url,
    format: row.format as WebhookFormat,
    timeoutMs: row.timeout_ms,
    failingSince: row.failing_since === null ? null : Number(row.failing_since),
  }));
}

export async function listPartnerEndpoints(
  db: Db,
  partnerId: number,
  page: PageRequest,
): Promise<WebhookEndpoint[]> {
  const rows = await pageById(
    db.selectFrom('webhook_endpoints').selectAll().where('partner_id', '=', partnerId),
    page,
  ).execute();
  return rows.map(toEndpoint);
}

/** Every endpoint the partner has, enabled or disabled (a removed endpoint is deleted, so it is not counted). */
export async function countPartnerEndpoints(db: Db, partnerId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('partner_id', '=', partnerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface EndpointChanges {
  readonly url?: string;
  readonly eventTypes?: readonly EventType[] | null;
  readonly gymIds?: readonly number[] | null;
  readonly timeoutMs?: number;
}

export async function updateEndpoint(
  db: Db,
  id: number,
  changes: EndpointChanges,
  now: number,
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({
      ...(changes.url === undefined ? {} : { url: changes.url }),
      ...(changes.eventTypes === undefined ? {} : { event_types: listText(changes.eventTypes) }),
      ...(changes.gymIds === undefined ? {} : { gym_ids: listText(changes.gymIds) }),
      ...(changes.timeoutMs === undefined ? {} : { timeout_ms: changes.timeoutMs }),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** Removes an endpoint and its delivery log, attempts and all. */
export async function deleteEndpoint(db: Db, id: number): Promise<void> {
  await deleteEndpointAttempts(db, id);
  await db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

export async function setEndpointStatus(
  db: Db,
  id: number,
  status: EndpointStatus,
  reason: DisabledReason | null,
  now: number,
): Promise<boolean> {
  let query = db
    .updateTable('webhook_endpoints')
    .set({ status, disabled_reason: reason, failing_since: null, updated_at: now })
    .where('id', '=', id);
  // gatehouse disables an endpoint once, however many attempts fail at the same moment.
  if (status === 'disabled') query = query.where('status', '=', 'enabled');
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface StoredSecrets {
  readonly secret: string;
  readonly previousSecret: string | null;
  readonly previousExpiresAt: number | null;
}

export async function endpointSecrets(db: Db, id: number): Promise<StoredSecrets | undefined> {
  return (await endpointSecretsOf(db, [id])).get(id);
}

/** The stored secrets of several endpoints in one read (a delivery round signs for many). */
export async function endpointSecretsOf(db: Db, ids: readonly number[]): Promise<Map<number, StoredSecrets>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'secret', 'previous_secret', 'previous_secret_expires_at'])
    .where('id', 'in', ids)
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        secret: row.secret,
        previousSecret: row.previous_secret,
        previousExpiresAt: row.previous_secret_expires_at,
      },
    ]),
  );
}

/** The new secret signs from now on; the current one keeps signing beside it until `previousUntil`. */
export async function rotateSecret(
  db: Db,
  id: number,
  sealed: string,
  previousUntil: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      previous_secret: eb.ref('secret'),
      previous_secret_expires_at: previousUntil,
      secret: sealed,
      updated_at: now,
    }))
    .where('id', '=', id)
    .execute();
}
